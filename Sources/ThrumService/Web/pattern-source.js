// Where patterns come from: the file picker, a file dropped on the page, and the service's bundled
// examples (GET /api/examples). Each calls `open(text, name)`; a sound dropped on the page is
// converted instead (audio-source.js).
import { apiFetch } from './thrum-client.js';
import { isAudioFile } from './audio-source.js';

export async function listExamples(select) {
  const response = await apiFetch('/api/examples');
  const { examples = [] } = await response.json();
  for (const example of examples) {
    const option = document.createElement('option');
    option.value = example.name;
    option.textContent = example.name.replace(/\.ahap$/, '');
    select.append(option);
  }
  return examples;
}

export async function exampleText(name) {
  const response = await apiFetch(`/api/examples/${encodeURIComponent(name)}`);
  if (!response.ok) throw new Error(`no example ${name}`);
  return response.text();
}

/** Wires the picker, the examples and dropping onto `dropTarget`; a dropped sound goes to `openAudio`. */
export function attachSources({ fileInput, examples, dropTarget, open, openAudio, fail }) {
  const read = (file) =>
    isAudioFile(file) ? openAudio(file)
    : file.text().then((text) => open(text, file.name)).catch((error) => fail(`cannot read ${file.name}: ${error.message}`));
  fileInput.addEventListener('change', () => {
    const file = fileInput.files?.[0];
    if (file) read(file);
  });
  examples.addEventListener('change', () => {
    const name = examples.value;
    if (name) exampleText(name).then((text) => open(text, name)).catch((error) => fail(error.message));
  });
  dropTarget.addEventListener('dragover', (event) => {
    event.preventDefault();
    dropTarget.classList.add('dropping');
  });
  dropTarget.addEventListener('dragleave', () => dropTarget.classList.remove('dropping'));
  dropTarget.addEventListener('drop', (event) => {
    event.preventDefault();
    dropTarget.classList.remove('dropping');
    const file = event.dataTransfer?.files?.[0];
    if (file) read(file);
  });
}
