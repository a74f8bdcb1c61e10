// The WebSocket client of `thrum serve` (Protocol/SERVICE.md), for pages the service serves itself.
// No dependencies. Requests carry an id and resolve with their reply's `result` (or reject with a
// ThrumError); real-time values go without one; everything else the service sends is dispatched:
//
//   'open', 'close' (detail: {code, reason}),
//   'event'  (detail: an event message: {type: "event", event, time, ...}),
//   'error'  (detail: an error message that answers no pending request, e.g. a real-time value's).

/** An error reply: `code` (bad_request, unknown_id, …), `message`, `field` when one is at fault. */
export class ThrumError extends Error {
  constructor(error = {}, request = null) {
    super(`${request ?? 'request'}: ${error.code ?? 'unknown'}: ${error.message ?? ''}`);
    this.name = 'ThrumError';
    this.code = error.code ?? 'unknown';
    this.field = error.field ?? null;
    this.details = error.details ?? {};
    this.request = request;
  }
}

/** The page's token (`?token=` in its address, as `thrum serve` prints it), or null. */
export function pageToken(location = window.location) {
  return new URLSearchParams(location.search).get('token');
}

/** The service's WebSocket address for a page it served: same host, `/ws`, the page's token. */
export function serviceSocketURL(location = window.location) {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const token = pageToken(location);
  return `${scheme}//${location.host}/ws${token ? `?token=${encodeURIComponent(token)}` : ''}`;
}

/** `fetch` of the service's HTTP API (`/api/...`), with the page's token as a bearer token. */
export function apiFetch(path, init = {}) {
  const token = pageToken();
  const headers = new Headers(init.headers ?? {});
  if (token) headers.set('Authorization', `Bearer ${token}`);
  return fetch(path, { ...init, headers });
}

export class ThrumClient extends EventTarget {
  #socket = null;
  #pending = new Map();
  #nextID = 1;

  /** `timeout`: milliseconds a request waits for its reply. */
  constructor({ name = 'browser', timeout = 10000 } = {}) {
    super();
    this.name = name;
    this.timeout = timeout;
    /** `hello`'s result: `client` (this client's id), `now`, `boards`. */
    this.info = null;
  }

  get connected() {
    return this.#socket?.readyState === WebSocket.OPEN;
  }

  /** Opens the WebSocket and says hello; resolves with hello's result. */
  async connect(url = serviceSocketURL()) {
    this.close();
    const socket = new WebSocket(url);
    this.#socket = socket;
    await new Promise((resolve, reject) => {
      socket.addEventListener('open', resolve, { once: true });
      socket.addEventListener('close', () => reject(new Error(`cannot connect to ${url}`)), { once: true });
    });
    socket.addEventListener('message', (message) => this.#receive(message.data));
    socket.addEventListener('close', (close) => {
      if (this.#socket !== socket) return;
      this.#socket = null;
      for (const { reject, timer } of this.#pending.values()) {
        clearTimeout(timer);
        reject(new Error('the connection closed'));
      }
      this.#pending.clear();
      this.dispatchEvent(new CustomEvent('close', { detail: { code: close.code, reason: close.reason } }));
    });
    this.dispatchEvent(new CustomEvent('open'));
    this.info = await this.request('hello', { version: 1, client: this.name });
    return this.info;
  }

  close() {
    this.#socket?.close();
  }

  /** Sends request `type` with `fields`; resolves with the reply's `result`. */
  request(type, fields = {}) {
    const id = this.#nextID++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error(`${type}: no reply within ${this.timeout} ms`));
      }, this.timeout);
      this.#pending.set(id, { resolve, reject, timer });
      try {
        this.#send({ id, type, ...fields });
      } catch (error) {
        clearTimeout(timer);
        this.#pending.delete(id);
        reject(error);
      }
    });
  }

  /** Sends a message with no id: no reply on success (an error still comes, as an 'error' event). */
  sendRealtime(type, fields = {}) {
    this.#send({ type, ...fields });
  }

  #send(message) {
    if (!this.connected) throw new Error('not connected to the service');
    this.#socket.send(JSON.stringify(message));
  }

  #receive(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    const pending = message.type === 'reply' || message.type === 'error' ? this.#pending.get(message.id) : undefined;
    if (pending) {
      this.#pending.delete(message.id);
      clearTimeout(pending.timer);
      if (message.type === 'reply') pending.resolve(message.result ?? {});
      else pending.reject(new ThrumError(message.error, message.request));
    } else if (message.type === 'event') {
      this.dispatchEvent(new CustomEvent('event', { detail: message }));
    } else if (message.type === 'error') {
      this.dispatchEvent(new CustomEvent('error', { detail: message }));
    }
  }

  // Requests by name (SERVICE.md §6).

  loadPattern(text, name = 'pattern') {
    return this.request('pattern.load', { text, name });
  }

  async createPlayer(pattern, locality = undefined) {
    return (await this.request('player.create', { pattern, locality })).player;
  }

  start(player, at = undefined) {
    return this.request('player.start', { player, at });
  }

  stop(player, at = undefined) {
    return this.request('player.stop', { player, at });
  }

  /** Real-time dynamic parameters ({intensity: 0.5}): newest wins, no reply (SERVICE.md §7). */
  parameters(player, values) {
    this.sendRealtime('player.parameters', { player, parameters: values });
  }

  subscribeTrace(rate = undefined) {
    return this.request('trace.subscribe', { rate });
  }
}
