// The board and the connection, the link's figures (round trip, retransmissions) and the events
// the service sends (faults, boards leaving and coming back, the engine, late commands), newest first.

const maxEntries = 100;

export class StatusView {
  constructor(root, log) {
    this.root = root;
    this.log = log;
    this.connection = root.querySelector('[data-role="connection"]');
    this.board = root.querySelector('[data-role="board"]');
    this.link = root.querySelector('[data-role="link"]');
  }

  setConnection(state, text) {
    this.connection.dataset.state = state;
    this.root.dataset.state = state;
    this.connection.textContent = text;
  }

  setBoards(boards = []) {
    this.board.textContent = boards
      .map((b) => `${b.name}${b.firmware ? ` (${b.firmware})` : ''}${b.present === false ? ' — absent' : ''}`)
      .join(', ');
  }

  /** `status`'s result and the clock's round trip (seconds). */
  setFigures(status, roundTrip) {
    const links = status?.links ?? [];
    const parts = [];
    if (roundTrip != null) parts.push(`round trip ${(roundTrip * 1000).toFixed(1)} ms`);
    for (const link of links) {
      parts.push(`${link.board ?? 'board'}: ${link.framesSent ?? 0} frames out, ${link.framesReceived ?? 0} in, ${link.retransmissions ?? 0} retransmissions`);
    }
    this.link.textContent = parts.join(' · ');
  }

  /** One line in the event log; `kind`: event, error, warning, info. */
  add(kind, title, detail = '', name = null) {
    const item = document.createElement('li');
    item.className = `log-${kind}`;
    if (name) item.dataset.event = name;
    const stamp = document.createElement('span');
    stamp.className = 'log-time';
    stamp.textContent = new Date().toLocaleTimeString();
    const head = document.createElement('span');
    head.className = 'log-title';
    head.textContent = title;
    item.append(stamp, ' ', head, detail ? ` ${detail}` : '');
    this.log.prepend(item);
    while (this.log.childElementCount > maxEntries) this.log.lastElementChild.remove();
  }
}
