// The diagnostics of the pattern being edited, as `thrum validate` reports them (SERVICE.md §6.3):
// severity, location, message, line and column. `data-state`: clean, warnings, errors or empty.

export function showDiagnostics(list, diagnostics) {
  list.replaceChildren();
  const errors = diagnostics.filter((d) => d.severity === 'error');
  list.dataset.state = errors.length ? 'errors' : diagnostics.length ? 'warnings' : 'clean';
  if (!diagnostics.length) {
    const item = document.createElement('li');
    item.className = 'diagnostic-ok';
    item.textContent = 'No errors, no warnings.';
    list.append(item);
    return;
  }
  for (const diagnostic of diagnostics) {
    const item = document.createElement('li');
    item.className = `diagnostic-${diagnostic.severity}`;
    const where = diagnostic.line ? `line ${diagnostic.line}:${diagnostic.column ?? 1}, ` : '';
    const head = document.createElement('strong');
    head.textContent = `${diagnostic.severity}`;
    const place = document.createElement('code');
    place.textContent = `${where}${diagnostic.location}`;
    item.append(head, ' ', place, ' ', diagnostic.message);
    list.append(item);
  }
}

/** A problem of the page's own (no connection, not JSON) shown as one error. */
export function showProblem(list, message) {
  showDiagnostics(list, [{ severity: 'error', location: '', message }]);
}
