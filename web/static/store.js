// The page's store: the event log, the server's snapshot at the cursor and
// the view's choices, in one object; reduce folds a server's state message
// into it; changed() asks for a render. Every module reads state from here
// and calls changed() after changing it: nothing draws on its own.

import { newModel, append, truncate } from './derive.js';

/** firstLanguage is the page's language on a visit: the one chosen before
 * (stored), else the first of the browser's languages (navigator.languages)
 * that the page speaks, else English. */
function firstLanguage(stored, langs) {
  if (stored === 'zh' || stored === 'en') return stored;
  for (const l of langs || []) {
    const s = String(l).toLowerCase();
    if (s === 'zh' || s.startsWith('zh-')) return 'zh';
    if (s === 'en' || s.startsWith('en-')) return 'en';
  }
  return 'en';
}

export const state = {
  // the language chosen before, else the browser's (a first visit from a
  // browser set to Chinese opens in Chinese)
  lang: firstLanguage(localStorage.getItem('lockstep.lang'), navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language]),
  presenter: false,
  timeScale: localStorage.getItem('lockstep.time') === 'on', // the time view: rows placed by virtual time
  model: newModel(),
  gen: 0,
  snap: null,
  pending: [],
  highlight: new Set(),
  saySeqs: new Set(),
  selected: null,
  endStep: null,
  maxStep: 0,
  catalog: [],
  limits: { max_steps: 50000 },
  faults: [], // the fault kinds of the welcome message (docs/protocol.md)
  customYAML: '',
  errors: [],
  warnings: [], // the good file's warnings (checked)
  real: '', // the real Redis servers runs are placed on ('': embedded)
  branch: [], // the recorded actions of the branch whose end is endStep
  lastError: null, // the last error message, re-rendered on a language change
  taken: false, // another tab took this session over
  playStopped: false, // play stopped by itself at this state (paced play's stop at a chapter)
  pausing: false, // the user asked play to pause
};

let render = () => {};

/** onChange sets the render that changed() calls (the page has one). */
export function onChange(f) { render = f; }

/** changed renders the page from the state. */
export function changed() { render(); }

/** reduce folds a state message (a snapshot and the events from `from`
 * on) into the store; it returns true when a new run began, so that the
 * timeline starts following again. */
export function reduce(m) {
  const snap = m.snap;
  const from = m.from || 0;
  // What the page keeps between state messages travels only when it
  // changes (docs/protocol.md, Snapshot): the recorded actions after the
  // first actionsFrom, the file's scenarios and the chapters when the run
  // starts over.
  const prev = state.snap;
  if (snap.actionsFrom != null) snap.actions = ((prev && prev.actions) || []).slice(0, snap.actionsFrom).concat(snap.actions || []);
  delete snap.actionsFrom;
  if (from > 0 && prev) {
    if (snap.file === undefined) snap.file = prev.file;
    if (snap.chapters === undefined) snap.chapters = prev.chapters;
  }
  const nodes = snap.nodes.map((n) => n.name);
  let fresh = false;
  if (from === 0) {
    state.model = newModel(snap.clients, nodes);
    state.gen++;
    state.maxStep = snap.step;
    state.endStep = null;
    state.selected = null;
    state.branch = snap.actions || [];
    fresh = true;
  } else if (from < state.model.events.length) {
    state.model = truncate(state.model, from, snap.clients, nodes);
    state.gen++;
  }
  append(state.model, m.events || []);
  // Play that stopped by itself (at a chapter, or the run's end), not by
  // the user's Pause nor because the user stepped by hand.
  state.playStopped = !!(state.snap && state.snap.playing) && !snap.playing && !snap.ended && !state.pausing;
  state.pausing = false;
  state.snap = snap;
  state.pending = snap.ended ? [] : snap.pending;
  // A hand move or a fault after stepping back starts another branch: its
  // end, and so the scrubber's length, is not known yet.
  const acts = snap.actions || [];
  const key = (a) => JSON.stringify(a);
  const prefix = (a, b) => a.length <= b.length && a.every((x, i) => key(x) === key(b[i]));
  if (!prefix(acts, state.branch) && !prefix(state.branch, acts)) { state.endStep = null; state.maxStep = snap.step; }
  if (acts.length >= state.branch.length) state.branch = acts;
  state.maxStep = Math.max(state.maxStep, snap.step);
  if (snap.ended) state.endStep = snap.step;
  if (!snap.custom) state.customYAML = '';
  return fresh;
}

/** focus picks the events to highlight: the verdicts' causes at the end,
 * else what the latest narration points at, else the selection's refs. */
export function focus() {
  const m = state.model;
  const hl = new Set();
  const sel = state.selected != null ? m.events.find((e) => e.seq === state.selected) : null;
  if (sel && sel.refs) sel.refs.forEach((r) => hl.add(r));
  else if (m.verdicts.length) m.verdicts.forEach((v) => (v.refs || []).forEach((r) => hl.add(r)));
  else if (m.says.length) (m.says[m.says.length - 1].refs || []).forEach((r) => hl.add(r));
  state.highlight = hl;
  state.saySeqs = new Set(m.says.flatMap((s) => s.refs || []));
}

/** verdictsOf lists a run's distinct verdicts, sorted, as the page shows them. */
export function verdictsOf(names) {
  return '[' + [...new Set(names)].sort().join(', ') + ']';
}
