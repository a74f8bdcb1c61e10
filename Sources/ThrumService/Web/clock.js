// The service's clock (SERVICE.md §5) seen from the page: `time` requests give its offset from
// performance.now(); the estimate with the shortest round trip wins. `roundTrip` is the latest
// request's, in seconds (the status shows it).

export class ServiceClock {
  constructor(client) {
    this.client = client;
    this.offset = null;
    this.best = Infinity;
    this.roundTrip = null;
  }

  /** Seconds on the service's clock now (performance.now() until the first sync). */
  now() {
    return performance.now() / 1000 + (this.offset ?? 0);
  }

  async sync(samples = 3) {
    for (let i = 0; i < samples; i++) {
      const sent = performance.now() / 1000;
      const { now } = await this.client.request('time');
      const received = performance.now() / 1000;
      this.roundTrip = received - sent;
      // A fresher estimate may replace one a little better, so drift is followed.
      if (this.roundTrip <= this.best * 1.5 || this.offset == null) {
        this.best = Math.min(this.best, this.roundTrip);
        this.offset = now - (sent + received) / 2;
      }
    }
    return this.offset;
  }
}
