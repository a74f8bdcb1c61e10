// The player of the pattern being edited: play, stop, loop, rate and seek (SERVICE.md §6.4), and
// where it is: `position()` is seconds into the pattern, from the time the board started it (a
// start is scheduled a little ahead, so the page knows that time on the service's clock).
// Events: 'change' (playing or not).

const lead = 0.06;

export class Transport extends EventTarget {
  constructor(client, clock) {
    super();
    this.client = client;
    this.clock = clock;
    this.pattern = null;
    this.player = null;
    this.duration = 0;
    this.loop = false;
    this.rate = 1;
    this.locality = undefined;
    this.playing = false;
    /** Service time the current play's offset `from` is at, and that offset. */
    this.startedAt = null;
    this.from = 0;
    /** Where the next play starts (set by a seek while stopped). */
    this.cue = 0;
    client.addEventListener('event', ({ detail }) => {
      if (detail.event === 'player.finished' && detail.player === this.player) this.#setPlaying(false);
    });
  }

  /** A newly loaded pattern: its player replaces the old one. */
  async setPattern(pattern, duration) {
    await this.#destroy();
    this.pattern = pattern;
    this.duration = duration;
    this.cue = 0;
    if (pattern == null) return;
    this.player = await this.client.createPlayer(pattern, this.locality);
    if (this.loop) await this.client.request('player.loop', { player: this.player, enabled: true });
    if (this.rate !== 1) await this.client.request('player.rate', { player: this.player, rate: this.rate });
  }

  async #destroy() {
    const player = this.player;
    this.player = null;
    this.#setPlaying(false);
    if (player != null) await this.client.request('player.destroy', { player }).catch(() => {});
  }

  async play() {
    if (this.player == null) return;
    const at = this.clock.now() + lead;
    // Known before the reply, so the trace that arrives meanwhile maps onto this play.
    this.startedAt = at;
    this.from = 0;
    await this.client.start(this.player, at);
    if (this.cue > 0) await this.seek(this.cue, at);
    this.#setPlaying(true);
  }

  async stop() {
    if (this.player == null) return;
    await this.client.stop(this.player);
    this.#setPlaying(false);
  }

  async setLoop(enabled) {
    this.loop = enabled;
    if (this.player != null) await this.client.request('player.loop', { player: this.player, enabled });
  }

  async setRate(rate) {
    // Where it is now, so the playhead continues from there at the new rate.
    const position = this.position();
    this.rate = rate;
    if (this.player != null) await this.client.request('player.rate', { player: this.player, rate });
    if (this.playing && position != null) {
      this.from = position;
      this.startedAt = this.clock.now();
    }
  }

  async setLocality(locality) {
    this.locality = locality || undefined;
    if (this.player != null) {
      await this.client.request('player.locality', { player: this.player, locality: locality || 'all' }).catch(async () => {
        // Some boards take no "all": make the player again with the locality.
        if (this.pattern != null) await this.setPattern(this.pattern, this.duration);
      });
    }
  }

  /** Seconds into the pattern: while playing, the player's; while stopped, the cue. */
  async seek(offset, at = null) {
    const to = Math.max(0, Math.min(offset, this.duration));
    if (!this.playing && at == null) {
      this.cue = to;
      this.dispatchEvent(new Event('change'));
      return;
    }
    await this.client.request('player.seek', { player: this.player, offset: to });
    this.from = to;
    this.startedAt = at ?? this.clock.now();
  }

  /** Seconds into the pattern now, or the cue when stopped. */
  position(now = this.clock.now()) {
    if (!this.playing || this.startedAt == null) return this.cue;
    return Math.max(0, this.patternTime(now));
  }

  /** The pattern time the board played at service time `time` during this play (may be < 0). */
  patternTime(time) {
    let t = this.from + (time - this.startedAt) * this.rate;
    if (this.loop && this.duration > 0 && t > this.duration) t %= this.duration;
    return t;
  }

  #setPlaying(playing) {
    if (this.playing === playing) return;
    this.playing = playing;
    if (!playing) this.cue = 0;
    this.dispatchEvent(new Event('change'));
  }
}
