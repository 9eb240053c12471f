// Share links and downloads. A link carries the whole view in its hash
// (#run=base64url(JSON)): the scenario (an id, or the YAML text of a custom
// one), the seed, the recorded actions and the cursor. The server replays
// it; the same inputs give the same log, so the view is the same.

/** encodeRun makes the hash for a view. */
export function encodeRun(run) {
  const json = JSON.stringify({ v: 1, ...run });
  const bytes = new TextEncoder().encode(json);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return '#run=' + btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** decodeRun reads a hash made by encodeRun, or returns null. */
export function decodeRun(hash) {
  const m = /^#run=([A-Za-z0-9_-]+)$/.exec(hash || '');
  if (!m) return null;
  try {
    const bin = atob(m[1].replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
    const run = JSON.parse(new TextDecoder().decode(bytes));
    return run && run.v === 1 ? run : null;
  } catch {
    return null;
  }
}

/** download saves data under name. */
export function download(name, data, type) {
  const blob = data instanceof Blob ? data : new Blob([data], { type });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}
