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
import { liveLink } from './liverec.js';

export { onLiveMessage, renderLive, barWords } from './liverec.js'; // the page's hooks (app.js)

const $ = (id) => document.getElementById(id);

let extra = () => ({});

/** initShare wires the share and export panel: tl draws the exports, link
 * asks the server for the run as YAML, view() gives what else a link
 * carries of the view (Side by side, a search's result). */
export function initShare(link, tl, view) {
  if (view) extra = view;
  const copy = (ev) => {
    ev.preventDefault();
    const url = shareURL();
    $('share-link').href = url;
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(url).then(() => toast(t('linkCopied', state.lang)), () => toast(t('linkShown', state.lang)));
    } else toast(t('linkShown', state.lang));
  };
  $('share-link').onclick = copy;
  $('compare-share').onclick = copy; // Side by side covers the side panel: its bar offers the link too
  // A slide of the rows in view, or of a range of events (prefilled with
  // the rows in view when chosen).
  $('export-rows').onchange = () => {
    const range = $('export-rows').value === 'range';
    $('export-range').hidden = !range;
    const m = state.model, v = tl.rowsInView();
    if (range && m.rows[v.r0] && !$('export-from').value) {
      $('export-from').value = String(m.rows[v.r0].seq);
      $('export-to').value = String(m.rows[v.r1].seq);
    }
  };
  const slide = (draw) => {
    const r = rowsToExport(tl);
    if (!r) return;
    const m = state.model;
    draw(fileBase() + '-rows' + m.rows[r.r0].seq + '-' + m.rows[r.r1].seq, r);
  };
  $('export-svg').onclick = () => slide((name, r) => download(name + '.svg', tl.svg(caption(), r.r0, r.r1), 'image/svg+xml'));
  $('export-png').onclick = () => slide(async (name, r) => download(name + '.png', await tl.png(caption(), r.r0, r.r1), 'image/png'));
  $('export-json').onclick = () => {
    const s = state.snap || {};
    const doc = { protocol: 1, scenario: s.scenario, seed: s.seed, step: s.step, actions: s.actions, verdicts: s.verdicts, events: state.model.events };
    download(fileBase() + '.json', JSON.stringify(doc, null, 1), 'application/json');
  };
  $('save-yaml').onclick = () => link.send('export-yaml');
}

/** rowsToExport gives the rows a slide shows, {r0, r1}: those in view, or
 * those of the chosen range of events; null (and a word why) when there
 * are none. */
function rowsToExport(tl) {
  const m = state.model;
  if (!m.rows.length) return null;
  if ($('export-rows').value !== 'range') return tl.rowsInView();
  let a = Number($('export-from').value), b = Number($('export-to').value);
  if (!Number.isFinite(a) || a < 1) a = 1;
  if (!Number.isFinite(b) || b < 1) b = m.rows[m.rows.length - 1].seq;
  if (a > b) [a, b] = [b, a];
  const r0 = m.rows.findIndex((e) => e.seq >= a);
  let r1 = -1;
  for (let r = m.rows.length - 1; r >= 0; r--) if (m.rows[r].seq <= b) { r1 = r; break; }
  if (r0 < 0 || r1 < r0) {
    toast(fill('exportBadRange', state.lang, { a, b }), true);
    return null;
  }
  return { r0, r1 };
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
 * what view() adds, and r, a live run's recording (liverec.js): cmp (Side by side's choice, '' its canonical pair),
 * f (a search's result: v the verdict, n schedules, m moves, k the marked
 * events); e (1) the run was over at c, else n the step it ends at, when
 * known. */
export function shareURL() {
  const s = state.snap;
  if (!s) return location.href;
  const run = { seed: s.seed, a: s.actions, c: s.step, l: state.lang };
  if (s.ended) run.e = 1; // a run learns its end by a step that finds none: the receiver takes it too
  else if (state.endStep != null) run.n = state.endStep; // where this branch ends, known from having been there
  if (s.custom) {
    run.y = state.customYAML;
    if (s.file && s.file.length > 1) run.s = s.scenario; // which scenario of the file
  } else run.s = s.scenario;
  if (state.timeScale) run.t = 1;
  if (state.selected != null) run.sel = state.selected;
  Object.assign(run, extra(), liveLink(s)); // r: a live run's recording
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
