// The AHAP text pane: validated as you type (POST /api/validate, debounced), Ctrl/Cmd+Enter plays
// the edit. `onValidated(diagnostics, valid)` after each check; `onPlay()` on Ctrl/Cmd+Enter.
import { apiFetch } from './thrum-client.js';

export class Editor {
  #timer = null;
  #generation = 0;

  constructor(textarea, { onValidated, onPlay, delay = 250 }) {
    this.textarea = textarea;
    this.onValidated = onValidated;
    this.delay = delay;
    textarea.addEventListener('input', () => this.#schedule());
    textarea.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        onPlay();
      }
    });
  }

  get text() {
    return this.textarea.value;
  }

  /** Replaces the text (an opened file, a plot edit) without a validation of its own. */
  set text(value) {
    this.textarea.value = value;
  }

  #schedule() {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.validate(), this.delay);
  }

  /** Validates the current text now; resolves with {valid, diagnostics}. */
  async validate() {
    const generation = ++this.#generation;
    let result;
    try {
      const response = await apiFetch('/api/validate?name=editor', { method: 'POST', body: this.text });
      result = await response.json();
    } catch (error) {
      result = { valid: false, diagnostics: [{ severity: 'error', location: '', message: String(error.message ?? error) }] };
    }
    if (generation === this.#generation) this.onValidated(result.diagnostics ?? [], Boolean(result.valid));
    return result;
  }
}
