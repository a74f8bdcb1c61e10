// The palette (HapticPalette in a browser): a 2-D pad. While it is pressed, the pointer's height
// sets intensity (top: 1) and its horizontal position sets sharpness (right: 1), streamed as
// real-time dynamic parameters (SERVICE.md §7) to a long continuous pattern; a button plays a
// transient at the same point (a one-event pattern with those values). Touch works (pointer events); from the keyboard, the arrows move the
// point and Space or Enter holds it.
import { exampleText } from './pattern-source.js';

export class Palette {
  constructor(pad, { readout, transientButton, client, locality = () => undefined, onPlayer = () => {} }) {
    this.pad = pad;
    this.readout = readout;
    this.client = client;
    this.locality = locality;
    this.onPlayer = onPlayer;
    this.intensity = 0.5;
    this.sharpness = 0.5;
    this.pressed = false;
    this.players = null;
    this.tap = null;
    this.#show();
    pad.addEventListener('pointerdown', (event) => {
      event.preventDefault();
      pad.setPointerCapture(event.pointerId);
      pad.focus();
      this.#moveTo(event);
      this.press();
    });
    pad.addEventListener('pointermove', (event) => {
      if (this.pressed) this.#moveTo(event);
    });
    for (const name of ['pointerup', 'pointercancel', 'lostpointercapture']) pad.addEventListener(name, () => this.release());
    pad.addEventListener('keydown', (event) => this.#key(event, true));
    pad.addEventListener('keyup', (event) => this.#key(event, false));
    pad.addEventListener('blur', () => this.release());
    transientButton.addEventListener('click', () => this.transient());
  }

  /** The palette's continuous player, which the pad shapes. */
  async #ensurePlayers() {
    if (this.players) return this.players;
    const name = 'palette-continuous.ahap';
    const { pattern } = await this.client.loadPattern(await exampleText(name), name);
    this.players = { continuous: await this.client.createPlayer(pattern, this.locality()) };
    this.onPlayer(this.players);
    return this.players;
  }

  /** Forget the players (a new connection). */
  reset() {
    this.players = null;
    this.tap = null;
    this.pressed = false;
    this.pad.classList.remove('pressed');
  }

  async press() {
    if (this.pressed) return;
    this.pressed = true;
    this.pad.classList.add('pressed');
    const { continuous } = await this.#ensurePlayers();
    this.#send();
    await this.client.start(continuous);
    // Again once it plays: a value that reached the player before its start may not hold.
    this.#send();
    if (!this.pressed) await this.client.stop(continuous);
  }

  async release() {
    if (!this.pressed) return;
    this.pressed = false;
    this.pad.classList.remove('pressed');
    if (this.players) await this.client.stop(this.players.continuous).catch(() => {});
  }

  /** A tap: a transient at the pad's intensity and sharpness, its own small pattern each time. */
  async transient() {
    const parameter = (id, value) => ({ ParameterID: id, ParameterValue: Math.round(value * 1000) / 1000 });
    const text = JSON.stringify({
      Version: 1,
      Pattern: [{ Event: { Time: 0, EventType: 'HapticTransient', EventParameters: [
        parameter('HapticIntensity', this.intensity), parameter('HapticSharpness', this.sharpness)] } }],
    });
    const previous = this.tap;
    const { pattern } = await this.client.loadPattern(text, 'palette transient');
    const player = await this.client.createPlayer(pattern, this.locality());
    this.tap = { pattern, player };
    if (this.players) this.players.transient = player;
    this.onPlayer({ transient: player });
    await this.client.start(player);
    if (previous) {
      await this.client.request('player.destroy', { player: previous.player }).catch(() => {});
      await this.client.request('pattern.free', { pattern: previous.pattern }).catch(() => {});
    }
  }

  /** Intensity multiplies the events' 1.0; sharpness adds to their 0.5. */
  #parameters() {
    return { intensity: this.intensity, sharpness: this.sharpness - 0.5 };
  }

  #send() {
    if (!this.players || !this.pressed) return;
    this.client.parameters(this.players.continuous, this.#parameters());
  }

  #moveTo(event) {
    const box = this.pad.getBoundingClientRect();
    this.set(1 - (event.clientY - box.top) / box.height, (event.clientX - box.left) / box.width);
  }

  set(intensity, sharpness) {
    this.intensity = Math.min(1, Math.max(0, intensity));
    this.sharpness = Math.min(1, Math.max(0, sharpness));
    this.#show();
    this.#send();
  }

  #key(event, down) {
    if (event.key === ' ' || event.key === 'Enter') {
      event.preventDefault();
      if (down && !event.repeat) this.press();
      if (!down) this.release();
      return;
    }
    if (!down) return;
    const step = event.shiftKey ? 0.1 : 0.02;
    const moves = { ArrowUp: [step, 0], ArrowDown: [-step, 0], ArrowLeft: [0, -step], ArrowRight: [0, step] };
    const move = moves[event.key];
    if (move) {
      event.preventDefault();
      this.set(this.intensity + move[0], this.sharpness + move[1]);
    }
  }

  #show() {
    const dot = this.pad.querySelector('.palette-dot');
    dot.style.left = `${this.sharpness * 100}%`;
    dot.style.top = `${(1 - this.intensity) * 100}%`;
    const text = `intensity ${this.intensity.toFixed(2)} · sharpness ${this.sharpness.toFixed(2)}`;
    this.readout.textContent = text;
    this.pad.dataset.intensity = this.intensity.toFixed(3);
    this.pad.dataset.sharpness = this.sharpness.toFixed(3);
    this.pad.setAttribute('aria-valuenow', this.intensity.toFixed(2));
    this.pad.setAttribute('aria-valuetext', text);
  }
}
