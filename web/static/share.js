// Share links and downloads. A link carries the whole view in its hash
// (#run=base64url(JSON)): the scenario (an id, or the YAML text of a custom
// one: a file, or a run a search found), the seed, the recorded actions and
// the cursor, which the server replays (the same inputs give the same log);
// and what the page shows of it: the language, the time view, the selected
// event, Side by side and its choice, a search's result and its marks.
// Exports (SVG, PNG, the event log, the run as YAML) carry a caption and a
// name that says which view they show.

import { state } from './store.js';
import { t, fill, pick, verdictNames } from './i18n.js';
import { toast } from './toast.js';

const $ = (id) => document.getElementById(id);

let extra = () => ({});

/** initShare wires the share and export panel: tl draws the exports, link
 * asks the server for the run as YAML, view() gives what else a link
 * carries of the view (Side by side, a search's result). */
export function initShare(link, tl, view) {
  if (view) extra = view;
  $('share-link').onclick = (ev) => {
    ev.preventDefault();
    const url = shareURL();
    $('share-link').href = url;
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(url).then(() => toast(t('linkCopied', state.lang)), () => toast(t('linkShown', state.lang)));
    } else toast(t('linkShown', state.lang));
  };
  $('export-svg').onclick = () => download(fileBase() + '.svg', tl.svg(caption()), 'image/svg+xml');
  $('export-png').onclick = async () => download(fileBase() + '.png', await tl.png(caption()), 'image/png');
  $('export-json').onclick = () => {
    const s = state.snap || {};
    const doc = { protocol: 1, scenario: s.scenario, seed: s.seed, step: s.step, actions: s.actions, verdicts: s.verdicts, events: state.model.events };
    download(fileBase() + '.json', JSON.stringify(doc, null, 1), 'application/json');
  };
  $('save-yaml').onclick = () => link.send('export-yaml');
}

/** caption is the line exports carry: lesson, seed, step and verdict. */
function caption() {
  const s = state.snap;
  if (!s) return 'Lockstep';
  const v = state.model.verdicts.length ? verdictNames([...new Set(state.model.verdicts.map((x) => x.name))], state.lang) : t('noVerdictYet', state.lang);
  return fill('caption', state.lang, { title: pick(s.title, state.lang) || s.scenario, seed: s.seed, step: s.step, verdict: v });
}

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

/** shareURL is the link to the current view: {s | y, seed, a, c} the
 * run, l the language, t the time view (1), sel the selected event, and
 * what view() adds: cmp (Side by side's choice, '' its canonical pair),
 * f (a search's result: v the verdict, n schedules, m moves, k the marked
 * events). */
export function shareURL() {
  const s = state.snap;
  if (!s) return location.href;
  const run = { seed: s.seed, a: s.actions, c: s.step, l: state.lang };
  if (s.custom) {
    run.y = state.customYAML;
    if (s.file && s.file.length > 1) run.s = s.scenario; // which scenario of the file
  } else run.s = s.scenario;
  if (state.timeScale) run.t = 1;
  if (state.selected != null) run.sel = state.selected;
  Object.assign(run, extra());
  return location.origin + location.pathname + encodeRun(run);
}

/** fileBase names an export by scenario, seed, step and (after a hand
 * move or a fault) a hash of the actions, so that a second save of
 * another view does not overwrite the first. */
export function fileBase() {
  const s = state.snap;
  if (!s) return 'lockstep';
  return s.scenario + '-seed' + s.seed + '-step' + s.step + (s.actions.length ? '-' + hash(JSON.stringify(s.actions)) : '');
}

/** hash is a short FNV-1a hash of s in base 36. */
function hash(s) {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return (h >>> 0).toString(36);
}
