// What the board rendered, drawn as it arrives: the `trace` events' samples (intensity 0…1 per
// tick, SERVICE.md §6.7) of the last few seconds, one line per channel, on a canvas.

const colours = ['#2f7de1', '#e1612f', '#2fa86b', '#9b4fd1'];

export class TraceView {
  /** `canvas`: where to draw; `seconds`: how much history to show. */
  constructor(canvas, { seconds = 4 } = {}) {
    this.canvas = canvas;
    this.seconds = seconds;
    /** Per channel ("board/channel"): {start, tick, samples} of the recent past, oldest first. */
    this.channels = new Map();
    /** The newest service time seen, the right edge of the view. */
    this.end = 0;
    /** The largest sample since the last `resetPeak()` (tests read it from `data-peak`). */
    this.peak = 0;
    this.scheduled = false;
  }

  add(event) {
    const key = `${event.board}/${event.channel}`;
    const samples = event.samples ?? [];
    if (!samples.length || !(event.tick > 0)) return;
    let channel = this.channels.get(key);
    const continues = channel && Math.abs(channel.start + channel.samples.length * channel.tick - event.start) < event.tick * 2;
    if (!continues) {
      channel = { label: event.name ?? key, start: event.start, tick: event.tick, samples: [] };
      this.channels.set(key, channel);
    }
    channel.samples.push(...samples);
    const keep = Math.ceil(this.seconds / channel.tick);
    if (channel.samples.length > keep) {
      const drop = channel.samples.length - keep;
      channel.samples.splice(0, drop);
      channel.start += drop * channel.tick;
    }
    this.end = Math.max(this.end, channel.start + channel.samples.length * channel.tick);
    this.peak = Math.max(this.peak, ...samples);
    this.canvas.dataset.peak = String(this.peak);
    this.#schedule();
  }

  resetPeak() {
    this.peak = 0;
    this.canvas.dataset.peak = '0';
  }

  #schedule() {
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => {
      this.scheduled = false;
      this.draw();
    });
  }

  draw() {
    const canvas = this.canvas;
    const ratio = window.devicePixelRatio || 1;
    const width = canvas.clientWidth;
    const height = canvas.clientHeight;
    if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
    }
    const context = canvas.getContext('2d');
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.clearRect(0, 0, width, height);
    const style = getComputedStyle(canvas);
    // Grid: 0, 0.5 and 1, and a mark each second.
    context.strokeStyle = style.getPropertyValue('--grid').trim() || '#ddd';
    context.lineWidth = 1;
    context.beginPath();
    for (const level of [0, 0.5, 1]) {
      const y = Math.round(this.#y(level, height)) + 0.5;
      context.moveTo(0, y);
      context.lineTo(width, y);
    }
    const from = this.end - this.seconds;
    for (let second = Math.ceil(from); second <= this.end; second += 1) {
      const x = Math.round(((second - from) / this.seconds) * width) + 0.5;
      context.moveTo(x, 0);
      context.lineTo(x, height);
    }
    context.stroke();
    let index = 0;
    for (const channel of this.channels.values()) {
      context.strokeStyle = colours[index++ % colours.length];
      context.lineWidth = 1.5;
      context.beginPath();
      channel.samples.forEach((sample, i) => {
        const x = ((channel.start + i * channel.tick - from) / this.seconds) * width;
        const y = this.#y(sample, height);
        if (i === 0) context.moveTo(x, y);
        else context.lineTo(x, y);
      });
      context.stroke();
    }
  }

  #y(level, height) {
    const margin = 4;
    return height - margin - level * (height - 2 * margin);
  }
}
