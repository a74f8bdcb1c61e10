// The live panel of the service's page: connect, load a pattern, play and stop it, stream the
// intensity slider as real-time parameters, draw the trace and log what the service sends.
import { ThrumClient, ThrumError, apiFetch, serviceSocketURL } from './thrum-client.js';
import { examples } from './examples.js';
import { TraceView } from './trace-view.js';

const element = (testID) => document.querySelector(`[data-testid="${testID}"]`);
const ui = {
  connection: element('connection'),
  boards: element('boards'),
  socketURL: element('ws-url'),
  example: element('example'),
  file: element('pattern-file'),
  text: element('pattern-text'),
  load: element('load'),
  diagnostics: element('diagnostics'),
  summary: element('pattern-summary'),
  plot: element('plot'),
  play: element('play'),
  stop: element('stop'),
  loop: element('loop'),
  intensity: element('intensity'),
  intensityValue: element('intensity-value'),
  realtimeCount: element('realtime-count'),
  trace: element('trace'),
  log: element('event-log'),
  clearLog: element('clear-log'),
};

const client = new ThrumClient({ name: 'web page' });
const traceView = new TraceView(ui.trace);
const state = { pattern: null, player: null, fileName: null, clockOffset: null, realtimeSent: 0, plotURL: null, retry: 1000 };
const maxLogEntries = 200;

// -- the event log ------------------------------------------------------------------------------

/** Adds a line to the log, newest first. `kind`: event, request, reply, error. */
function log(kind, title, detail = '', { event = null, time = null } = {}) {
  const item = document.createElement('li');
  item.className = `log-${kind}`;
  if (event) item.dataset.event = event;
  const stamp = document.createElement('span');
  stamp.className = 'log-time';
  // Stamped on the service's clock: an event's own time, else an estimate from hello's `now`.
  const stamped = time ?? (state.clockOffset == null ? null : performance.now() / 1000 + state.clockOffset);
  stamp.textContent = stamped == null ? new Date().toLocaleTimeString() : `${stamped.toFixed(3)} s`;
  const name = document.createElement('span');
  name.className = 'log-title';
  name.textContent = title;
  item.append(stamp, ' ', name);
  if (detail) item.append(' ', detail);
  ui.log.prepend(item);
  while (ui.log.childElementCount > maxLogEntries) ui.log.lastElementChild.remove();
}

function describeFields(message, omit) {
  return Object.entries(message)
    .filter(([key]) => !omit.includes(key))
    .map(([key, value]) => `${key} ${typeof value === 'object' ? JSON.stringify(value) : value}`)
    .join(', ');
}

function logError(error, request) {
  if (error instanceof ThrumError) {
    log('error', `${error.request ?? request}: ${error.code}`, error.message.replace(/^[^:]*: [^:]*: /, '') + (error.field ? ` (field ${error.field})` : ''));
  } else {
    log('error', request, String(error.message ?? error));
  }
}

// -- connection ---------------------------------------------------------------------------------

function showConnection(stateName, text) {
  ui.connection.dataset.state = stateName;
  ui.connection.textContent = text;
}

function describeBoards(boards) {
  if (!boards?.length) return 'no board';
  return boards
    .map((board) => {
      const channels = (board.channels ?? []).map((channel) => channel.name ?? `${channel.kind} ${channel.index}`).join(', ');
      const what = board.present ? `${board.board ?? 'board'} (${board.firmware ?? '?'})` : 'absent';
      return `${board.name}: ${what}, ${board.players ?? '?'} players, channels ${channels || 'none'}`;
    })
    .join(' · ');
}

async function connect() {
  showConnection('connecting', 'Connecting…');
  try {
    const info = await client.connect();
    state.retry = 1000;
    state.clockOffset = info.now - performance.now() / 1000;
    showConnection('connected', `Connected: client ${info.client}, protocol ${info.protocol}`);
    ui.boards.textContent = describeBoards(info.boards);
    log('reply', 'hello', `client ${info.client}, service clock ${info.now.toFixed(3)} s`);
    ui.load.disabled = false;
    try {
      const trace = await client.subscribeTrace(30);
      log('reply', 'trace.subscribe', `${trace.channels.length} channel(s) at ${trace.rate}/s`);
    } catch (error) {
      logError(error, 'trace.subscribe');
    }
  } catch (error) {
    showConnection('closed', `Not connected: ${error.message}. Retrying…`);
    scheduleReconnect();
  }
}

function scheduleReconnect() {
  setTimeout(connect, state.retry);
  state.retry = Math.min(state.retry * 2, 10000);
}

client.addEventListener('close', (event) => {
  showConnection('closed', `Disconnected${event.detail.reason ? `: ${event.detail.reason}` : ''}. Reconnecting…`);
  log('error', 'connection closed', `code ${event.detail.code}`);
  // The service stopped this client's players and freed its patterns.
  state.pattern = state.player = null;
  setPlayerControls();
  ui.load.disabled = true;
  scheduleReconnect();
});

client.addEventListener('event', ({ detail: message }) => {
  if (message.event === 'trace') {
    traceView.add(message);
    return;
  }
  log('event', message.event, describeFields(message, ['type', 'event', 'time']), { event: message.event, time: message.time });
});

client.addEventListener('error', ({ detail: message }) => {
  const error = message.error ?? {};
  log('error', `${message.request ?? 'message'}: ${error.code}`, `${error.message}${error.field ? ` (field ${error.field})` : ''}`);
});

// -- pattern ------------------------------------------------------------------------------------

function setPlayerControls() {
  const ready = state.player != null;
  ui.play.disabled = ui.stop.disabled = ui.loop.disabled = ui.intensity.disabled = !ready;
}

function showDiagnostics(diagnostics, failed) {
  ui.diagnostics.replaceChildren();
  ui.diagnostics.dataset.state = failed ? 'errors' : diagnostics.length ? 'warnings' : 'clean';
  if (!diagnostics.length) {
    const item = document.createElement('li');
    item.textContent = failed ? 'The pattern has errors.' : 'No diagnostics: the pattern is clean.';
    ui.diagnostics.append(item);
    return;
  }
  for (const diagnostic of diagnostics) {
    const item = document.createElement('li');
    item.className = `diagnostic-${diagnostic.severity}`;
    const where = diagnostic.line ? ` (line ${diagnostic.line}, column ${diagnostic.column})` : '';
    item.textContent = `${diagnostic.severity}: ${diagnostic.location}: ${diagnostic.message}${where}`;
    ui.diagnostics.append(item);
  }
}

function showSummary(summary) {
  if (!summary) {
    ui.summary.textContent = '';
    return;
  }
  const kinds = {};
  for (const event of summary.events) kinds[event.type] = (kinds[event.type] ?? 0) + 1;
  const events = Object.entries(kinds).map(([type, count]) => `${count} ${type}`).join(', ') || 'no events';
  ui.summary.textContent =
    `${summary.name} (${summary.format}): ${summary.duration} s (${summary.renderedDuration} s rendered), ` +
    `${events}, ${summary.curves.length} curve(s), ${summary.timelineBytes} bytes compiled`;
}

async function showPlot(text, name) {
  if (state.plotURL) URL.revokeObjectURL(state.plotURL);
  state.plotURL = null;
  ui.plot.parentElement.hidden = true;
  try {
    const response = await apiFetch(`/api/plot?name=${encodeURIComponent(name)}`, { method: 'POST', body: text });
    if (!response.ok) return;
    state.plotURL = URL.createObjectURL(await response.blob());
    ui.plot.src = state.plotURL;
    ui.plot.alt = `Plot of ${name}: its events and intensity curve, and the simulated actuator's response`;
    ui.plot.parentElement.hidden = false;
  } catch {
    // The plot is a nicety: the panel works without it.
  }
}

async function loadPattern() {
  ui.load.disabled = true;
  try {
    if (state.player != null) await client.request('player.destroy', { player: state.player }).catch(() => {});
    if (state.pattern != null) await client.request('pattern.free', { pattern: state.pattern }).catch(() => {});
    state.pattern = state.player = null;
    setPlayerControls();
    const text = ui.text.value;
    // Named after its file or its example, unless edited since.
    const example = examples.find((candidate) => candidate.key === ui.example.value);
    const name = state.fileName ?? (example?.text === text ? example.key : 'pattern');
    let loaded;
    try {
      loaded = await client.loadPattern(text, name);
    } catch (error) {
      if (error instanceof ThrumError && error.code === 'invalid_pattern') {
        showDiagnostics(error.details.diagnostics ?? [], true);
        showSummary(null);
        ui.plot.parentElement.hidden = true;
      }
      logError(error, 'pattern.load');
      return;
    }
    state.pattern = loaded.pattern;
    showDiagnostics(loaded.diagnostics, false);
    showSummary(loaded.summary);
    state.player = await client.createPlayer(loaded.pattern);
    log('reply', 'pattern.load', `${name}: pattern ${loaded.pattern}, player ${state.player}`);
    setPlayerControls();
    if (ui.loop.checked) await client.request('player.loop', { player: state.player, enabled: true });
    showPlot(text, name);
  } catch (error) {
    logError(error, 'pattern.load');
  } finally {
    ui.load.disabled = !client.connected;
  }
}

// -- controls -----------------------------------------------------------------------------------

async function play() {
  try {
    traceView.resetPeak();
    // The slider's value applies from the start.
    client.parameters(state.player, { intensity: Number(ui.intensity.value) });
    await client.start(state.player);
    log('request', 'player.start', `player ${state.player}`);
  } catch (error) {
    logError(error, 'player.start');
  }
}

async function stop() {
  try {
    await client.stop(state.player);
    log('request', 'player.stop', `player ${state.player}`);
  } catch (error) {
    logError(error, 'player.stop');
  }
}

async function setLoop() {
  try {
    await client.request('player.loop', { player: state.player, enabled: ui.loop.checked });
    log('request', 'player.loop', ui.loop.checked ? 'on' : 'off');
  } catch (error) {
    logError(error, 'player.loop');
  }
}

function streamIntensity() {
  const value = Number(ui.intensity.value);
  ui.intensityValue.textContent = value.toFixed(2);
  if (state.player == null || !client.connected) return;
  client.parameters(state.player, { intensity: value });
  state.realtimeSent += 1;
  ui.realtimeCount.textContent = String(state.realtimeSent);
}

function chooseExample() {
  const example = examples.find((candidate) => candidate.key === ui.example.value);
  if (!example) return;
  ui.text.value = example.text;
  state.fileName = null;
  ui.file.value = '';
}

async function readFile() {
  const file = ui.file.files[0];
  if (!file) return;
  ui.text.value = await file.text();
  state.fileName = file.name.replace(/\.[^.]*$/, '');
}

// -- start --------------------------------------------------------------------------------------

for (const example of examples) ui.example.add(new Option(example.title, example.key));
ui.text.value = examples[0].text;
ui.socketURL.textContent = serviceSocketURL().replace(/token=[^&]+/, 'token=…');
ui.intensityValue.textContent = Number(ui.intensity.value).toFixed(2);
setPlayerControls();
ui.load.disabled = true;

ui.example.addEventListener('change', chooseExample);
ui.file.addEventListener('change', readFile);
ui.load.addEventListener('click', loadPattern);
ui.play.addEventListener('click', play);
ui.stop.addEventListener('click', stop);
ui.loop.addEventListener('change', setLoop);
ui.intensity.addEventListener('input', streamIntensity);
ui.clearLog.addEventListener('click', () => ui.log.replaceChildren());
window.addEventListener('resize', () => traceView.draw());
traceView.draw();
connect();
