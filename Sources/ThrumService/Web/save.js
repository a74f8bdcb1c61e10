// Saving the edited AHAP: to the watched file when the service has one (`thrum serve --watch FILE`,
// PUT /api/watch), else as a download under the pattern's name.
import { apiFetch } from './thrum-client.js';

/** The watched file ({name, text}), or null when the service watches none. */
export async function watchedFile() {
  const response = await apiFetch('/api/watch');
  const watched = response.ok ? await response.json() : null;
  return watched?.watching ? watched : null;
}

export async function saveText(text, name, { watched = false } = {}) {
  if (watched) {
    const response = await apiFetch('/api/watch', { method: 'PUT', body: text });
    const result = await response.json();
    if (!response.ok) throw new Error(result.error?.message ?? `HTTP ${response.status}`);
    return `saved ${result.name} (${result.bytes} bytes)`;
  }
  const file = /\.(ahap|haptic|json)$/i.test(name) ? name : `${name}.ahap`;
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = file;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
  return `downloaded ${file}`;
}
