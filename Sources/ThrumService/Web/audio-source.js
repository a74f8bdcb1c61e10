// Sound to touch in the studio: an audio file (picked, or dropped on the page) goes to the service's
// POST /api/convert (Protocol/SERVICE.md §10), which answers with the AHAP it derived, what the
// analysis found and the sound's waveform. The page keeps the file to play it beside the board.
import { apiFetch } from './thrum-client.js';

const audioExtensions = /\.(wav|wave|flac|ogg|oga|opus|mp3|aif|aiff|au|caf)$/i;

/** Whether `file` is a sound to convert rather than a pattern to open. */
export function isAudioFile(file) {
  return audioExtensions.test(file.name) || file.type.startsWith('audio/');
}

/** Converts `file`: resolves with {name, ahap, summary, report, waveform}; rejects naming the file and why. */
export async function convertAudio(file) {
  const response = await apiFetch(`/api/convert?name=${encodeURIComponent(file.name)}`, { method: 'POST', body: file });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(answer.error?.message ?? `cannot convert ${file.name}: HTTP ${response.status}`);
  return answer;
}

/** Wires the audio picker; dropped audio files come through `attachSources`' `openAudio`. */
export function attachAudioSource({ input, openAudio }) {
  input.addEventListener('change', () => {
    const file = input.files?.[0];
    if (file) openAudio(file);
  });
}
