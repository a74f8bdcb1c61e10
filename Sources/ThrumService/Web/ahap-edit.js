// Edits of an AHAP text, as the plot makes them: an event's time, intensity and sharpness, a new or
// deleted event, a moved curve point. Pure functions: text in, text out (pretty-printed JSON). The
// k-th event of the service's summary is the k-th `Event` entry of `Pattern`, and the same for
// `ParameterCurve` (the reader keeps the file's order).

const round = (value) => Math.round(value * 1000) / 1000;
const clamp = (value, low, high) => Math.min(high, Math.max(low, value));

function parse(text) {
  const ahap = JSON.parse(text);
  if (!ahap || !Array.isArray(ahap.Pattern)) throw new Error('not an AHAP file (no Pattern array)');
  return ahap;
}

const print = (ahap) => `${JSON.stringify(ahap, null, 4)}\n`;

/** The `Pattern` entries holding `key` (Event, ParameterCurve), in order. */
function entries(ahap, key) {
  return ahap.Pattern.filter((entry) => entry && typeof entry === 'object' && entry[key]).map((entry) => entry[key]);
}

function setParameter(event, id, value) {
  event.EventParameters ??= [];
  const parameter = event.EventParameters.find((p) => p.ParameterID === id);
  if (parameter) parameter.ParameterValue = round(value);
  else event.EventParameters.push({ ParameterID: id, ParameterValue: round(value) });
}

/** Sets event `index`'s `time`, `intensity`, `sharpness` (any of them). */
export function editEvent(text, index, { time, intensity, sharpness } = {}) {
  const ahap = parse(text);
  const event = entries(ahap, 'Event')[index];
  if (!event) throw new Error(`no event ${index}`);
  if (time !== undefined) event.Time = round(Math.max(0, time));
  if (intensity !== undefined) setParameter(event, 'HapticIntensity', clamp(intensity, 0, 1));
  if (sharpness !== undefined) setParameter(event, 'HapticSharpness', clamp(sharpness, 0, 1));
  return print(ahap);
}

/** Adds a transient at `time`. */
export function addEvent(text, { time, intensity = 1, sharpness = 0.5 }) {
  const ahap = parse(text);
  const event = {
    Time: round(Math.max(0, time)),
    EventType: 'HapticTransient',
    EventParameters: [
      { ParameterID: 'HapticIntensity', ParameterValue: round(clamp(intensity, 0, 1)) },
      { ParameterID: 'HapticSharpness', ParameterValue: round(clamp(sharpness, 0, 1)) },
    ],
  };
  ahap.Pattern.push({ Event: event });
  return print(ahap);
}

/** Removes event `index`. */
export function deleteEvent(text, index) {
  const ahap = parse(text);
  const event = entries(ahap, 'Event')[index];
  if (!event) throw new Error(`no event ${index}`);
  ahap.Pattern = ahap.Pattern.filter((entry) => entry?.Event !== event);
  return print(ahap);
}

/** Moves point `point` of curve `curve` to pattern time `time` and `value`. */
export function editCurvePoint(text, curve, point, { time, value }) {
  const ahap = parse(text);
  const entry = entries(ahap, 'ParameterCurve')[curve];
  const points = entry?.ParameterCurveControlPoints;
  if (!points?.[point]) throw new Error(`no point ${point} of curve ${curve}`);
  const start = Number(entry.Time ?? 0);
  if (time !== undefined) {
    const low = point > 0 ? Number(points[point - 1].Time) : 0;
    const high = point + 1 < points.length ? Number(points[point + 1].Time) : Infinity;
    points[point].Time = round(clamp(time - start, point > 0 ? low : 0, high));
  }
  if (value !== undefined) points[point].ParameterValue = round(clamp(value, -1, 1));
  return print(ahap);
}
