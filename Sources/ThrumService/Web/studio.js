// Thrum Studio: the page at `/`. Wires the modules together: the connection and the clock, the
// pattern's sources and editor, the plot and the transport, the live trace, the palette, the
// channels and the status. Each module does one thing; this file only routes between them.
import { ThrumClient, ThrumError, apiFetch } from './thrum-client.js';
import { ServiceClock } from './clock.js';
import { attachSources, listExamples } from './pattern-source.js';
import { Editor } from './editor.js';
import { showDiagnostics, showProblem } from './diagnostics-view.js';
import { PlotView } from './plot-view.js';
import { Transport } from './transport.js';
import { TraceView } from './trace-view.js';
import { Recorder } from './recorder.js';
import { Palette } from './palette.js';
import { ChannelsView } from './channels-view.js';
import { StatusView } from './status-view.js';
import { addEvent, deleteEvent, editCurvePoint, editEvent } from './ahap-edit.js';
import { saveText, watchedFile } from './save.js';
import { attachAudioSource, convertAudio } from './audio-source.js';
import { SoundPlayer } from './sound-player.js';

const element = (testID) => document.querySelector(`[data-testid="${testID}"]`);

const client = new ThrumClient({ name: 'studio' });
const clock = new ServiceClock(client);
const transport = new Transport(client, clock);
const status = new StatusView(element('status'), element('event-log'));
const traceView = new TraceView(element('trace'));
const recorder = new Recorder(transport, clock);
const sound = new SoundPlayer(element('sound-audio'));
const state = { pattern: null, summary: null, name: 'pattern.ahap', loadedText: null, panTouched: false, watched: null, retry: 1000 };

const plot = new PlotView(element('plot'), {
  onEdit: (edit) => applyEdit(edit),
  onSeek: (time) => {
    sound.seek(time);
    transport.seek(time).catch(report('player.seek'));
  },
});
const diagnostics = element('diagnostics');
const editor = new Editor(element('editor'), {
  onValidated: (found, valid) => {
    showDiagnostics(diagnostics, found);
    element('apply').disabled = !valid;
  },
  onPlay: () => playEdit(),
});
const palette = new Palette(element('palette'), {
  readout: element('palette-value'),
  transientButton: element('transient'),
  client,
  locality: () => transport.locality,
  onPlayer: (players) => {
    if (state.panTouched) for (const player of Object.values(players)) sendPan(player);
  },
});
const channels = new ChannelsView({
  list: element('channels'),
  locality: element('locality'),
  pan: element('pan'),
  panValue: element('pan-value'),
  onLocality: (locality) => setLocality(locality),
  onPan: () => {
    state.panTouched = true;
    for (const player of players()) sendPan(player);
  },
});

function report(request) {
  return (error) => {
    const text = error instanceof ThrumError ? `${error.code}: ${error.message.replace(/^[^:]*: [^:]*: /, '')}` : String(error.message ?? error);
    status.add('error', request, text);
  };
}

function players() {
  return [transport.player, ...(palette.players ? Object.values(palette.players) : [])].filter((p) => p != null);
}

function sendPan(player) {
  if (client.connected) client.sendRealtime('player.pan', { player, position: channels.position });
}

async function setLocality(locality) {
  await transport.setLocality(locality).catch(report('player.locality'));
  for (const player of palette.players ? Object.values(palette.players) : []) {
    await client.request('player.locality', { player, locality: locality || 'all' }).catch(report('player.locality'));
  }
}

// -- patterns -----------------------------------------------------------------------------------

/** A pattern from a file, an example or the watched file: into the editor, then loaded. A pattern
 *  converted from a sound keeps that sound (`file`) and its waveform; any other forgets them. */
async function open(text, name, { file = null, waveform = null } = {}) {
  sound.load(file);
  plot.setWaveform(waveform);
  element('sound').closest('label').hidden = file == null;
  if (file == null) element('audio-report').hidden = true;
  state.name = name;
  element('file-name').textContent = name;
  editor.text = text;
  return load();
}

/** Loads the editor's text: diagnostics, the plot (the reference rendering), a player. */
async function load() {
  const text = editor.text;
  state.loadedText = text;
  const previous = state.pattern;
  try {
    const result = await client.loadPattern(text, state.name);
    showDiagnostics(diagnostics, result.diagnostics ?? []);
    const response = await apiFetch(`/api/render?rate=1000&name=${encodeURIComponent(state.name)}`, { method: 'POST', body: text });
    const rendering = response.ok ? await response.json() : null;
    state.pattern = result.pattern;
    state.summary = result.summary;
    const summary = result.summary;
    element('summary').textContent = `${summary.name}: ${summary.events.length} events, ${summary.curves.length} curves, ${summary.renderedDuration.toFixed(3)} s`;
    plot.setPattern(summary, rendering);
    recorder.reset(summary.renderedDuration);
    plot.clearTraces();
    await transport.setPattern(result.pattern, summary.duration > 0 ? summary.duration : summary.renderedDuration);
    if (state.panTouched) sendPan(transport.player);
    setButtons();
    return true;
  } catch (error) {
    if (error instanceof ThrumError && error.code === 'invalid_pattern') {
      showDiagnostics(diagnostics, error.details.diagnostics ?? []);
    } else {
      showProblem(diagnostics, String(error.message ?? error));
    }
    // A broken pattern plays nothing: the last good one's player goes too.
    state.pattern = null;
    state.summary = null;
    element('summary').textContent = '';
    plot.setPattern(null, null);
    plot.clearTraces();
    await transport.setPattern(null, 0).catch(() => {});
    setButtons();
    return false;
  } finally {
    if (previous != null && previous !== state.pattern) client.request('pattern.free', { pattern: previous }).catch(() => {});
  }
}

async function play() {
  if (editor.text !== state.loadedText && !(await load())) return;
  if (state.pattern == null) return;
  plot.clearTraces();
  traceView.resetPeak();
  recorder.reset(state.summary.renderedDuration);
  const from = transport.cue;
  await transport.play().catch(report('player.start'));
  // The sound starts at the board's start time, from the same place.
  if (transport.playing) sound.play(from, transport.startedAt - clock.now(), transport.rate);
}

/** A sound picked or dropped: converted by the service, then opened with its waveform. */
async function openAudio(file) {
  const line = element('audio-report');
  line.hidden = false;
  line.textContent = `Converting ${file.name}…`;
  try {
    const converted = await convertAudio(file);
    line.textContent = converted.summary ?? '';
    status.add('info', 'convert', converted.summary ?? file.name);
    await open(converted.ahap, converted.name, { file, waveform: converted.waveform });
  } catch (error) {
    line.textContent = '';
    line.hidden = true;
    showProblem(diagnostics, String(error.message ?? error));
  }
}

/** Ctrl/Cmd+Enter in the editor: load the edit and play it. */
async function playEdit() {
  if (await load()) await play();
}

async function applyEdit(edit) {
  if (state.summary?.format !== 'ahap') {
    status.add('error', 'edit', 'the plot edits AHAP files; edit this one in the text pane');
    return;
  }
  try {
    const text = editor.text;
    editor.text =
      edit.kind === 'add' ? addEvent(text, edit)
      : edit.kind === 'delete' ? deleteEvent(text, edit.index)
      : edit.kind === 'curve' ? editCurvePoint(text, edit.curve, edit.point, edit)
      : editEvent(text, edit.index, edit);
  } catch (error) {
    status.add('error', 'edit', String(error.message ?? error));
    return;
  }
  const wasPlaying = transport.playing;
  const selected = plot.selected;
  await load();
  if (selected && edit.kind !== 'delete') refocus(selected);
  if (wasPlaying) await play();
}

/** Focus the handle that was edited again (the plot redraws), so arrow keys keep working. */
function refocus(target) {
  const svg = element('plot');
  const node =
    target.kind === 'curve' ? svg.querySelector(`.curve-point[data-curve="${target.curve}"][data-point="${target.point}"]`)
    : svg.querySelector(`.event[data-index="${target.index}"] ${target.sharpness ? '.sharpness-handle' : 'circle.handle'}`);
  node?.focus();
}

function setButtons() {
  const ready = state.pattern != null && client.connected;
  element('play').disabled = !ready;
  element('stop').disabled = !ready;
  element('add-event').disabled = !ready;
  element('delete-event').disabled = !(ready && plot.selected?.kind === 'event');
}

// -- connection ---------------------------------------------------------------------------------

async function connect() {
  status.setConnection('connecting', 'Connecting…');
  try {
    const info = await client.connect();
    state.retry = 1000;
    status.setConnection('connected', `Connected (client ${info.client})`);
    status.setBoards(info.boards);
    plot.setChannels(channels.show(info.boards));
    await clock.sync();
    const trace = await client.subscribeTrace(60).catch((error) => {
      report('trace.subscribe')(error);
      return null;
    });
    if (trace) status.add('info', 'trace.subscribe', `${trace.channels.length} channel(s) at ${trace.rate}/s`);
    // `thrum serve --watch FILE`: the studio opens the watched file (once).
    const watched = state.watched ? null : await watchedFile().catch(() => null);
    if (watched) {
      state.watched = watched.name;
      status.add('info', 'watching', watched.name);
      await open(watched.text, watched.name);
    } else if (editor.text.trim()) {
      await load();
    }
    setButtons();
  } catch (error) {
    status.setConnection('disconnected', `Not connected: ${error.message}; retrying`);
    setTimeout(connect, state.retry);
    state.retry = Math.min(state.retry * 2, 10000);
  }
}

client.addEventListener('close', () => {
  status.setConnection('disconnected', 'Disconnected; reconnecting');
  palette.reset();
  transport.player = null;
  state.pattern = null;
  setButtons();
  setTimeout(connect, state.retry);
});

client.addEventListener('event', ({ detail: message }) => {
  switch (message.event) {
    case 'trace':
      traceView.add(message);
      recorder.add(message, plot);
      return;
    case 'pattern.changed':
      status.add('event', 'pattern.changed', message.name ?? '', message.event);
      // Our own save comes back too: that text is already the editor's.
      if (message.text !== editor.text) open(message.text, message.name ?? state.name).then((ok) => ok && play());
      return;
    case 'engine.started':
    case 'engine.stopped':
    case 'board.left':
    case 'board.rejoined':
      client.request('boards').then(({ boards }) => {
        status.setBoards(boards);
        plot.setChannels(channels.show(boards));
      }).catch(() => {});
      break;
  }
  const { type, event, time, ...fields } = message;
  // A fault is an error; a late command still ran (at once), so it is a warning.
  status.add(event === 'fault' ? 'error' : event === 'late' ? 'warning' : 'event', event,
    Object.entries(fields).map(([k, v]) => `${k} ${typeof v === 'object' ? JSON.stringify(v) : v}`).join(', '), event);
});

client.addEventListener('error', ({ detail }) => report(detail.request ?? 'request')(new ThrumError(detail.error, detail.request)));

// The link's figures, every two seconds.
setInterval(async () => {
  if (!client.connected) return;
  try {
    await clock.sync(1);
    status.setFigures(await client.request('status'), clock.roundTrip);
  } catch {
    // The next round tries again.
  }
}, 2000);

// -- controls -----------------------------------------------------------------------------------

element('play').addEventListener('click', () => play());
element('stop').addEventListener('click', () => {
  sound.stop();
  transport.stop().then(() => recorder.stopped()).catch(report('player.stop'));
});
element('loop').addEventListener('change', (event) => {
  sound.setLoop(event.target.checked);
  transport.setLoop(event.target.checked).catch(report('player.loop'));
});
element('rate').addEventListener('change', (event) => {
  sound.setRate(Number(event.target.value));
  transport.setRate(Number(event.target.value)).catch(report('player.rate'));
});
element('sound').addEventListener('change', (event) => {
  sound.enabled = event.target.checked;
  if (!sound.enabled) sound.stop();
});
element('apply').addEventListener('click', () => load());
element('save').addEventListener('click', () => saveText(editor.text, state.name, { watched: state.watched != null && state.name === state.watched }).then((where) => status.add('info', 'saved', where)).catch(report('save')));
element('add-event').addEventListener('click', () => applyEdit({ kind: 'add', time: transport.position() ?? 0, intensity: 1 }));
element('delete-event').addEventListener('click', () => {
  if (plot.selected?.kind === 'event') applyEdit({ kind: 'delete', index: plot.selected.index });
});
element('plot').addEventListener('select', () => setButtons());
transport.addEventListener('change', () => {
  element('play').classList.toggle('active', transport.playing);
  if (!transport.playing) {
    recorder.stopped();
    sound.stop();
  }
});

attachSources({
  fileInput: element('open-file'),
  examples: element('examples'),
  dropTarget: document.body,
  open: (text, name) => open(text, name),
  openAudio: (file) => openAudio(file),
  fail: (message) => showProblem(diagnostics, message),
});
attachAudioSource({ input: element('open-audio'), openAudio: (file) => openAudio(file) });

// The playhead follows the board's time: a frame at a time while playing, once for each change
// while stopped (a cue set by a seek), so an idle page does no work.
let frameRequested = false;
function frame() {
  frameRequested = false;
  const position = transport.position();
  plot.setPlayhead(position);
  element('position').textContent = `${(position ?? 0).toFixed(3)} s${transport.playing ? ' ▶' : ''}`;
  if (transport.playing) requestFrame();
}
function requestFrame() {
  if (frameRequested) return;
  frameRequested = true;
  requestAnimationFrame(frame);
}
transport.addEventListener('change', requestFrame);
requestFrame();
window.addEventListener('resize', () => traceView.draw());
traceView.draw();

// Test hooks (Tests/ServiceClients/studio_e2e.py): what was recorded of the last play, and the
// trace view's recent samples.
window.thrumStudio = {
  recording: () => recorder.raw(),
  recent: (seconds) =>
    Object.fromEntries([...traceView.channels.entries()].map(([key, c]) => [key, c.samples.slice(-Math.round(seconds / c.tick))])),
  now: () => clock.now(),
  since: (time) =>
    Object.fromEntries([...traceView.channels.entries()].map(([key, c]) => [key, c.samples.slice(Math.max(0, Math.ceil((time - c.start) / c.tick)))])),
  state: () => ({ pattern: state.pattern, playing: transport.playing, player: transport.player }),
  sound: () => ({ loaded: sound.loaded, playing: !element('sound-audio').paused, time: element('sound-audio').currentTime, problem: sound.problem, src: element('sound-audio').getAttribute('src'), error: element('sound-audio').error?.message ?? null }),
};

listExamples(element('examples')).catch(report('GET /api/examples'));
connect();
