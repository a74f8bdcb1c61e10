// The converted sound, played in the page beside the board: started when the board's player starts
// (at the same service time, so both begin together), at the same rate, from the same offset, and
// stopped with it. Silent until a sound is loaded; `enabled` mutes it without forgetting it.
export class SoundPlayer {
  constructor(audio) {
    this.audio = audio;
    this.url = null;
    this.enabled = true;
    this.timer = null;
    /** Why the browser did not play the last start, or null. */
    this.problem = null;
  }

  get loaded() {
    return this.url != null;
  }

  /** A new sound (a File), or null to forget the current one. */
  load(file) {
    this.stop();
    if (this.url) URL.revokeObjectURL(this.url);
    this.url = file ? URL.createObjectURL(file) : null;
    if (this.url) this.audio.src = this.url;
    else this.audio.removeAttribute('src');
  }

  /** Plays from `offset` seconds after `delay` seconds (the board's start lead), at `rate`; a start
   *  already past (delay < 0) begins that much further in. */
  play(offset, delay, rate) {
    this.stop();
    if (!this.loaded || !this.enabled) return;
    if (delay < 0) offset -= delay * rate;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.audio.currentTime = offset;
      this.audio.playbackRate = rate;
      this.problem = null;
      // A browser may refuse (no audio output, an autoplay policy): the board still plays; say why.
      this.audio.play().catch((error) => {
        this.problem = `${error.name}: ${error.message}`;
      });
    }, Math.max(0, delay * 1000));
  }

  seek(offset) {
    if (this.loaded && !this.audio.paused) this.audio.currentTime = offset;
  }

  setRate(rate) {
    this.audio.playbackRate = rate;
  }

  setLoop(enabled) {
    this.audio.loop = enabled;
  }

  stop() {
    if (this.timer != null) clearTimeout(this.timer);
    this.timer = null;
    if (this.loaded) this.audio.pause();
  }
}
