// The boards' channels by name, the locality picker (a channel, a rig's locality, or every
// channel) and the pan (SERVICE.md §6.5: 0 the locality's first channel … 1 its last), sent as
// real-time values to the studio's players.

export class ChannelsView {
  constructor({ list, locality, pan, panValue, onLocality, onPan }) {
    this.list = list;
    this.locality = locality;
    this.pan = pan;
    this.panValue = panValue;
    locality.addEventListener('change', () => onLocality(locality.value));
    pan.addEventListener('input', () => {
      panValue.textContent = Number(pan.value).toFixed(2);
      onPan(Number(pan.value));
    });
  }

  /** Plot lanes: one per channel of every board ({key: "board/channel", label}). */
  show(boards = []) {
    this.list.replaceChildren();
    const lanes = [];
    const keep = this.locality.value;
    this.locality.replaceChildren(new Option('every channel', ''));
    for (const board of boards) {
      for (const channel of board.channels ?? []) {
        const label = channel.name ?? `channel ${channel.index}`;
        const key = `${board.name}/${channel.index}`;
        lanes.push({ key, label: boards.length > 1 ? `${board.name}: ${label}` : label });
        const item = document.createElement('li');
        item.dataset.channel = key;
        item.textContent = `${label} (${channel.kind ?? 'actuator'})`;
        if (channel.fault) {
          item.classList.add('fault');
          item.append(` — ${channel.fault}`);
        }
        this.list.append(item);
        if (boards.length === 1) this.locality.append(new Option(label, channel.name ?? String(channel.index)));
      }
      for (const name of Object.keys(board.localities ?? {})) {
        // A rig's boards share its localities: each once.
        if (![...this.locality.options].some((o) => o.value === name)) this.locality.append(new Option(name, name));
      }
    }
    if ([...this.locality.options].some((o) => o.value === keep)) this.locality.value = keep;
    return lanes;
  }

  get position() {
    return Number(this.pan.value);
  }
}
