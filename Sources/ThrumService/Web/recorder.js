// What the board rendered during the current play: each `trace` event's samples mapped to the
// pattern's time (the transport knows when the board started it) and drawn on the plot against the
// authored curve, and kept raw (service times) for the tests to compare with the reference.

const after = 0.3;

export class Recorder {
  constructor(transport, clock) {
    this.transport = transport;
    this.clock = clock;
    this.reset(0);
  }

  reset(duration) {
    this.duration = duration;
    this.until = Infinity;
    this.channels = new Map();
  }

  /** The player stopped or finished: keep the samples of a moment more (release tails, latency). */
  stopped() {
    if (this.until === Infinity) this.until = this.clock.now() + after;
  }

  add(event, plot) {
    const transport = this.transport;
    if (transport.startedAt == null || !(event.tick > 0)) return;
    const key = `${event.board}/${event.channel}`;
    const entries = [];
    let raw = this.channels.get(key);
    event.samples.forEach((sample, k) => {
      const time = event.start + k * event.tick;
      if (time < transport.startedAt - 0.05 || time > this.until) return;
      const patternTime = transport.patternTime(time);
      if (patternTime >= -0.05 && patternTime <= this.duration * 1.04 + 0.05) entries.push([patternTime, sample]);
      if (!raw) {
        raw = { start: time, tick: event.tick, samples: [] };
        this.channels.set(key, raw);
      }
      const index = Math.round((time - raw.start) / raw.tick);
      if (index >= raw.samples.length) {
        while (raw.samples.length < index) raw.samples.push(null);
        raw.samples.push(sample);
      }
    });
    if (entries.length) plot.addTrace(key, event.tick * transport.rate, entries);
  }

  /** {startedAt, rate, channels: {key: {start, tick, samples}}} of the current play (service times). */
  raw() {
    return {
      startedAt: this.transport.startedAt,
      rate: this.transport.rate,
      channels: Object.fromEntries(this.channels),
    };
  }
}
