// The pattern on a time axis, in SVG: one lane per channel, each with the authored intensity (the
// service's reference renderer, POST /api/render), the authored sharpness, the control curves and
// what that channel rendered (the trace, aligned to the pattern's time). The first lane carries the
// handles: ● an event's time and intensity, ◆ its sharpness, ■ a curve point. Dragging one, or the
// arrow keys on a focused one, calls `onEdit`; clicking the time axis calls `onSeek(seconds)`.
// Double-clicking a lane adds a transient there. A converted sound's waveform (`setWaveform`) is
// drawn in grey behind the first lane, on the same time axis.

const NS = 'http://www.w3.org/2000/svg';
const margin = { left: 40, right: 14, top: 8 };
const laneGap = 12;
const axisHeight = 26;

function make(name, attributes = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  parent?.append(node);
  return node;
}

const clamp = (value, low, high) => Math.min(high, Math.max(low, value));
const fixed = (value) => Number(value).toFixed(3);

export class PlotView {
  constructor(svg, { onEdit, onSeek }) {
    this.svg = svg;
    this.onEdit = onEdit;
    this.onSeek = onSeek;
    this.channels = [{ key: 'all', label: 'board' }];
    this.summary = null;
    this.rendering = null;
    /** A converted sound's {duration, min, max} (one column each), or null. */
    this.waveform = null;
    /** Per channel key: {step (pattern seconds a sample), values (pattern time k·step; NaN: none)}. */
    this.traces = new Map();
    this.playhead = null;
    this.selected = null;
    this.scheduled = false;
    this.traceNodes = new Map();
    new ResizeObserver(() => this.render()).observe(svg);
  }

  setChannels(channels) {
    this.channels = channels.length ? channels : [{ key: 'all', label: 'board' }];
    this.render();
  }

  setPattern(summary, rendering) {
    this.summary = summary;
    this.rendering = rendering;
    this.selected = null;
    this.render();
  }

  setWaveform(waveform) {
    this.waveform = waveform;
    this.render();
  }

  /** Taller when there is one lane; several share the height. */
  get laneHeight() {
    return this.channels.length === 1 ? 230 : this.channels.length === 2 ? 170 : 140;
  }

  /** The span drawn: the rendered duration and a little more. */
  get span() {
    return Math.max(0.1, Math.max(this.summary?.renderedDuration ?? 1, this.waveform?.duration ?? 0) * 1.04);
  }

  get width() {
    return Math.max(320, this.svg.clientWidth || 800);
  }

  x(time) {
    return margin.left + (time / this.span) * (this.width - margin.left - margin.right);
  }

  time(x) {
    return ((x - margin.left) / (this.width - margin.left - margin.right)) * this.span;
  }

  laneTop(index) {
    return margin.top + index * (this.laneHeight + laneGap);
  }

  y(value, lane = 0) {
    return this.laneTop(lane) + this.laneHeight - 4 - clamp(value, 0, 1.02) * (this.laneHeight - 12);
  }

  value(y, lane = 0) {
    return clamp((this.laneTop(lane) + this.laneHeight - 4 - y) / (this.laneHeight - 12), 0, 1);
  }

  clearTraces() {
    this.traces.clear();
    this.#scheduleTraces();
  }

  /** Adds rendered samples of channel `key`: `times[k]` pattern time of `samples[k]`. */
  addTrace(key, step, entries) {
    let trace = this.traces.get(key);
    if (!trace || trace.step !== step) {
      trace = { step, values: new Float32Array(Math.ceil(this.span / step) + 2).fill(NaN) };
      this.traces.set(key, trace);
    }
    for (const [time, sample] of entries) {
      const index = Math.round(time / step);
      if (index >= 0 && index < trace.values.length) trace.values[index] = sample;
    }
    this.#scheduleTraces();
  }

  setPlayhead(time) {
    // Within the drawn span: the board may report the end a little after the last sample.
    this.playhead = time == null ? null : clamp(time, 0, this.span);
    time = this.playhead;
    const line = this.svg.querySelector('[data-testid="playhead"]');
    if (!line) return;
    const x = this.x(time ?? 0);
    line.setAttribute('x1', x);
    line.setAttribute('x2', x);
    line.dataset.time = fixed(time ?? 0);
  }

  #scheduleTraces() {
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => {
      this.scheduled = false;
      this.#drawTraces();
    });
  }

  #drawTraces() {
    this.channels.forEach((channel, lane) => {
      const path = this.traceNodes.get(channel.key);
      const trace = this.traces.get(channel.key) ?? (this.channels.length === 1 ? [...this.traces.values()][0] : null);
      if (!path) return;
      if (!trace) {
        path.setAttribute('d', '');
        return;
      }
      let d = '';
      let pen = false;
      const every = Math.max(1, Math.floor(trace.values.length / (this.width * 2)));
      for (let k = 0; k < trace.values.length; k += every) {
        let v = trace.values[k];
        for (let j = 1; j < every && k + j < trace.values.length; j++) if (trace.values[k + j] > v) v = trace.values[k + j];
        if (Number.isNaN(v)) {
          pen = false;
          continue;
        }
        d += `${pen ? 'L' : 'M'}${this.x(k * trace.step).toFixed(1)},${this.y(v, lane).toFixed(1)}`;
        pen = true;
      }
      path.setAttribute('d', d);
    });
  }

  render() {
    const svg = this.svg;
    const width = this.width;
    const height = margin.top + this.channels.length * (this.laneHeight + laneGap) + axisHeight;
    svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
    svg.setAttribute('height', height);
    svg.replaceChildren();
    this.traceNodes.clear();
    this.channels.forEach((channel, lane) => this.#lane(channel, lane));
    this.#axis(height);
    make('line', { class: 'playhead', 'data-testid': 'playhead', y1: margin.top, y2: height - axisHeight, x1: 0, x2: 0 }, svg);
    this.setPlayhead(this.playhead ?? 0);
    this.#drawTraces();
    svg.dataset.events = String(this.summary?.events?.length ?? 0);
  }

  #lane(channel, lane) {
    const svg = this.svg;
    const top = this.laneTop(lane);
    const group = make('g', { class: 'lane', 'data-channel': channel.key }, svg);
    const background = make('rect', { class: 'lane-background', x: margin.left, y: top, width: this.width - margin.left - margin.right, height: this.laneHeight }, group);
    background.addEventListener('dblclick', (event) => {
      const point = this.#point(event);
      this.onEdit({ kind: 'add', time: this.time(point.x), intensity: this.value(point.y, lane) });
    });
    if (lane === 0 && this.waveform) make('path', { class: 'waveform', 'data-testid': 'waveform', d: this.#waveform(lane) }, group);
    for (const level of [0, 0.5, 1]) {
      make('line', { class: 'grid', x1: margin.left, x2: this.width - margin.right, y1: this.y(level, lane), y2: this.y(level, lane) }, group);
      make('text', { class: 'tick-label', x: margin.left - 6, y: this.y(level, lane) + 4, 'text-anchor': 'end' }, group).textContent = level;
    }
    make('text', { class: 'lane-label', x: margin.left + 6, y: top + 14 }, group).textContent = channel.label;
    if (this.rendering) {
      const { intensity, sharpness, sampleRate } = this.rendering;
      make('path', { class: 'authored-intensity', d: this.#area(intensity, sampleRate, lane) }, group);
      make('path', { class: 'authored-sharpness', d: this.#line(sharpness, sampleRate, lane) }, group);
    }
    for (const curve of this.summary?.curves ?? []) {
      const points = curve.points.map((p) => `${this.x(curve.time + p.time).toFixed(1)},${this.y(this.#curveValue(curve, p.value), lane).toFixed(1)}`);
      make('polyline', { class: 'curve', points: points.join(' ') }, group);
    }
    this.traceNodes.set(channel.key, make('path', { class: 'trace-line', 'data-testid': `trace-${channel.key}` }, group));
    if (lane === 0) this.#handles(group);
  }

  #curveValue(curve, value) {
    return curve.parameter.includes('Sharpness') ? (value + 1) / 2 : value;
  }

  #area(values, rate, lane) {
    if (!values?.length) return '';
    const every = Math.max(1, Math.floor(values.length / (this.width * 2)));
    let d = `M${this.x(0).toFixed(1)},${this.y(0, lane).toFixed(1)}`;
    for (let k = 0; k < values.length; k += every) {
      let v = values[k];
      for (let j = 1; j < every && k + j < values.length; j++) v = Math.max(v, values[k + j]);
      d += `L${this.x(k / rate).toFixed(1)},${this.y(v, lane).toFixed(1)}`;
    }
    return `${d}L${this.x((values.length - 1) / rate).toFixed(1)},${this.y(0, lane).toFixed(1)}Z`;
  }

  /** The sound's min and max per column around the lane's middle, as one closed outline. */
  #waveform(lane) {
    const { duration, min, max } = this.waveform;
    if (!max?.length || !(duration > 0)) return '';
    const step = duration / max.length;
    const middle = this.y(0.5, lane);
    const half = (this.laneHeight - 12) / 2;
    let top = '';
    let bottom = '';
    for (let k = 0; k < max.length; k++) {
      const x = this.x((k + 0.5) * step).toFixed(1);
      top += `${k ? 'L' : 'M'}${x},${(middle - clamp(max[k], -1, 1) * half).toFixed(1)}`;
      bottom = `L${x},${(middle - clamp(min[k], -1, 1) * half).toFixed(1)}${bottom}`;
    }
    return `${top}${bottom}Z`;
  }

  #line(values, rate, lane) {
    if (!values?.length) return '';
    const every = Math.max(1, Math.floor(values.length / (this.width * 2)));
    let d = '';
    for (let k = 0; k < values.length; k += every) d += `${d ? 'L' : 'M'}${this.x(k / rate).toFixed(1)},${this.y(values[k], lane).toFixed(1)}`;
    return d;
  }

  #handles(group) {
    // Curve points first: where one falls on an event's handle, the event's is on top.
    (this.summary?.curves ?? []).forEach((curve, c) => {
      curve.points.forEach((point, p) => {
        const x = this.x(curve.time + point.time);
        const y = this.y(this.#curveValue(curve, point.value));
        const square = make('rect', { class: 'handle curve-point', x: x - 4, y: y - 4, width: 8, height: 8, tabindex: 0, role: 'button',
          'data-curve': c, 'data-point': p,
          'aria-label': `${curve.parameter} point ${p + 1} at ${fixed(curve.time + point.time)} s, ${point.value.toFixed(2)}` }, group);
        const sharp = curve.parameter.includes('Sharpness');
        this.#draggable(square, { kind: 'curve', curve: c, point: p }, (at) => {
          const v = this.value(at.y);
          return { time: this.time(at.x), value: sharp ? v * 2 - 1 : v };
        }, (values) => { square.setAttribute('x', this.x(values.time) - 4); square.setAttribute('y', this.y(sharp ? (values.value + 1) / 2 : values.value) - 4); });
      });
    });
    const events = this.summary?.events ?? [];
    events.forEach((event, index) => {
      if (event.intensity === undefined) return;
      const node = make('g', { class: `event event-${event.type === 'HapticTransient' ? 'transient' : 'continuous'}`, 'data-index': index, 'data-time': fixed(event.time) }, group);
      if (this.selected?.kind === 'event' && this.selected.index === index) node.classList.add('selected');
      const x = this.x(event.time);
      if (event.duration) make('rect', { class: 'event-span', x, y: this.y(event.intensity) - 3, width: Math.max(1, this.x(event.time + event.duration) - x), height: 6 }, node);
      else make('line', { class: 'event-stem', x1: x, x2: x, y1: this.y(0), y2: this.y(event.intensity) }, node);
      const label = `event ${index + 1}, ${event.type.replace('Haptic', '').toLowerCase()} at ${fixed(event.time)} s`;
      // Beside the ● when they would overlap, so both can be grabbed.
      const dx = x + (Math.abs(event.sharpness - event.intensity) < 0.1 ? 11 : 0);
      const diamond = make('rect', { class: 'handle sharpness-handle', x: dx - 5, y: this.y(event.sharpness) - 5, width: 10, height: 10,
        transform: `rotate(45 ${dx} ${this.y(event.sharpness)})`, tabindex: 0, role: 'button',
        'aria-label': `${label}, sharpness ${event.sharpness.toFixed(2)}: drag up or down, or arrows` }, node);
      this.#draggable(diamond, { kind: 'event', index, sharpness: true }, (point) => ({ sharpness: this.value(point.y) }),
        (values) => { diamond.setAttribute('y', this.y(values.sharpness) - 5); diamond.setAttribute('transform', `rotate(45 ${dx} ${this.y(values.sharpness)})`); });
      const knob = make('circle', { class: 'handle', cx: x, cy: this.y(event.intensity), r: 6, tabindex: 0, role: 'button',
        'aria-label': `${label}, intensity ${event.intensity.toFixed(2)}: drag or arrows to move` }, node);
      this.#draggable(knob, { kind: 'event', index }, (point) => ({ time: this.time(point.x), intensity: this.value(point.y) }),
        (values) => { knob.setAttribute('cx', this.x(values.time)); knob.setAttribute('cy', this.y(values.intensity)); });
    });
  }

  #point(event) {
    const box = this.svg.getBoundingClientRect();
    const scale = this.width / box.width;
    return { x: (event.clientX - box.left) * scale, y: (event.clientY - box.top) * scale };
  }

  /** Pointer drags and arrow keys on `node`, which edits `target`; `read` maps a point to values. */
  #draggable(node, target, read, preview) {
    node.addEventListener('pointerdown', (event) => {
      event.preventDefault();
      node.setPointerCapture(event.pointerId);
      this.#select(target, node);
      let values = null;
      const move = (moved) => {
        values = read(this.#point(moved));
        preview(values);
      };
      const up = () => {
        node.removeEventListener('pointermove', move);
        node.removeEventListener('pointerup', up);
        node.removeEventListener('pointercancel', up);
        if (values) this.onEdit({ ...target, ...values });
      };
      node.addEventListener('pointermove', move);
      node.addEventListener('pointerup', up);
      node.addEventListener('pointercancel', up);
    });
    node.addEventListener('focus', () => this.#select(target, node));
    node.addEventListener('keydown', (event) => {
      const edit = this.#keyEdit(target, event);
      if (edit) {
        event.preventDefault();
        this.onEdit(edit);
      }
    });
  }

  #select(target, node) {
    this.selected = target;
    for (const other of this.svg.querySelectorAll('.selected')) other.classList.remove('selected');
    node.closest('.event')?.classList.add('selected');
    this.svg.dispatchEvent(new CustomEvent('select', { detail: target }));
  }

  #keyEdit(target, event) {
    const timeStep = event.altKey ? 0.001 : 0.01;
    const valueStep = 0.05;
    if (target.kind === 'event') {
      const e = this.summary.events[target.index];
      const sharp = target.sharpness || event.shiftKey;
      switch (event.key) {
        case 'ArrowLeft': return { ...target, time: e.time - timeStep };
        case 'ArrowRight': return { ...target, time: e.time + timeStep };
        case 'ArrowUp': return sharp ? { ...target, sharpness: e.sharpness + valueStep } : { ...target, intensity: e.intensity + valueStep };
        case 'ArrowDown': return sharp ? { ...target, sharpness: e.sharpness - valueStep } : { ...target, intensity: e.intensity - valueStep };
        case 'Delete': case 'Backspace': return { kind: 'delete', index: target.index };
        default: return null;
      }
    }
    const curve = this.summary.curves[target.curve];
    const point = curve.points[target.point];
    const time = curve.time + point.time;
    switch (event.key) {
      case 'ArrowLeft': return { ...target, time: time - timeStep };
      case 'ArrowRight': return { ...target, time: time + timeStep };
      case 'ArrowUp': return { ...target, value: point.value + valueStep };
      case 'ArrowDown': return { ...target, value: point.value - valueStep };
      default: return null;
    }
  }

  #axis(height) {
    const svg = this.svg;
    const top = height - axisHeight;
    const axis = make('g', { class: 'axis' }, svg);
    const hit = make('rect', { class: 'time-axis', 'data-testid': 'time-axis', x: margin.left, y: top, width: this.width - margin.left - margin.right, height: axisHeight,
      tabindex: 0, role: 'slider', 'aria-label': 'Time axis: click to seek; arrows step', 'aria-valuemin': 0, 'aria-valuemax': fixed(this.span) }, axis);
    hit.addEventListener('click', (event) => this.onSeek(clamp(this.time(this.#point(event).x), 0, this.span)));
    hit.addEventListener('keydown', (event) => {
      const step = { ArrowLeft: -0.05, ArrowRight: 0.05 }[event.key];
      if (step) {
        event.preventDefault();
        this.onSeek(clamp((this.playhead ?? 0) + step, 0, this.span));
      }
    });
    const step = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 60].find((s) => this.span / s <= 12) ?? 60;
    for (let t = 0; t <= this.span + 1e-9; t += step) {
      const x = this.x(t);
      make('line', { class: 'axis-tick', x1: x, x2: x, y1: top, y2: top + 5 }, axis);
      make('text', { class: 'tick-label', x, y: top + 17, 'text-anchor': 'middle' }, axis).textContent = `${+t.toFixed(3)} s`;
    }
  }
}
