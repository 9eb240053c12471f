// Lockstep's page: a store (the event log, the server's snapshot at the
// cursor, view choices) and a render(state) that every change goes
// through. The server owns the world; the page asks it to step, seek,
// fork and replay, and draws what it answers.

import { Link } from './socket.js';
import { newModel, append, truncate } from './derive.js';
import { Timeline } from './timeline.js';
import { renderNarration, renderVerdict, renderKeys, renderPending, renderTargets, renderDetail, renderCounters, renderFaults } from './panels.js';
import { t, pick, apply, fill, serverError, problem, KEYS } from './i18n.js';
import { encodeRun, decodeRun, download } from './share.js';
import { Explore } from './explore.js';
import { Compare } from './compare.js';

const $ = (id) => document.getElementById(id);

const state = {
  lang: localStorage.getItem('lockstep.lang') === 'zh' ? 'zh' : 'en',
  presenter: false,
  model: newModel(),
  gen: 0,
  snap: null,
  pending: [],
  ended: false,
  highlight: new Set(),
  saySeqs: new Set(),
  selected: null,
  endStep: null,
  maxStep: 0,
  catalog: [],
  limits: { max_steps: 50000 },
  customYAML: '',
  errors: [],
  masters: [], // nodes with a replica (the fault menu's Fail over)
  downNodes: [],
  real: '', // the real Redis servers runs are placed on ('': embedded)
  branch: [], // the recorded actions of the branch whose end is endStep
  lastError: null, // the last error message, re-rendered on a language change
  taken: false, // another tab took this session over
};

const link = new Link(onMessage, onStatus);
const explorer = new Explore(link, () => state.lang);
const comparer = new Compare(link, () => state, (step) => link.send('seek', { step }));
const tl = new Timeline({
  root: $('timeline'), canvas: $('tl-canvas'), scroll: $('tl-scroll'), spacer: $('tl-spacer'),
  list: $('tl-events'), lanes: $('lanes'),
  onPick: (seq) => { state.selected = seq; render(); },
  onMove: (c) => link.send('step-client', { client: c }),
  onFollow: (on) => { $('follow').hidden = on; },
});

let shared = decodeRun(location.hash);
let wantEditor = false;

let connStatus = 'closed';
function onStatus(s, code) {
  connStatus = s;
  state.taken = s === 'closed' && code === 4000;
  renderConn();
}

function renderConn() {
  $('conn').textContent = connStatus === 'open' || state.taken ? t('connected', state.lang) : t('reconnecting', state.lang);
  $('conn').className = 'conn ' + connStatus;
  $('taken').hidden = !state.taken;
  document.body.classList.toggle('taken', state.taken);
}

function onMessage(m) {
  if (explorer.onMessage(m)) return;
  if (comparer.onMessage(m)) return;
  switch (m.type) {
    case 'welcome':
      state.catalog = m.catalog || [];
      fillLabs();
      state.limits = m.limits || state.limits;
      state.real = m.real || '';
      render();
      if (shared) {
        const run = shared;
        shared = null;
        history.replaceState(null, '', location.pathname + location.search);
        if (run.y) state.customYAML = run.y;
        link.send('load', { scenario: run.s || '', yaml: run.y || '', seed: run.seed, actions: run.a || [], step: run.c || 0 });
      } else if (!m.loaded) {
        link.send('load', { scenario: $('scenario').value === '__custom' ? state.catalog[0].id : $('scenario').value });
      }
      break;
    case 'state':
      onState(m);
      break;
    case 'error':
      state.lastError = m;
      toast(errText(m), true);
      if (m.errors) { state.errors = m.errors; renderErrors(); }
      break;
    case 'checked':
      state.errors = m.errors || [];
      renderErrors();
      break;
    case 'yaml':
      if (wantEditor) { wantEditor = false; if (!$('editor').value) $('editor').value = m.text; gutter(); } else download(m.name, m.text, 'text/yaml');
      break;
  }
}

function onState(m) {
  const snap = m.snap;
  const from = m.from || 0;
  if (from === 0) {
    state.model = newModel(snap.clients, snap.nodes.map((n) => n.name));
    state.gen++;
    state.maxStep = snap.step;
    state.endStep = null;
    state.selected = null;
    state.branch = snap.actions || [];
    tl.reset();
  } else if (from < state.model.events.length) {
    state.model = truncate(state.model, from, snap.clients, snap.nodes.map((n) => n.name));
    state.gen++;
  }
  append(state.model, m.events || []);
  state.snap = snap;
  state.pending = snap.ended ? [] : snap.pending;
  state.ended = snap.ended;
  // A hand move or a fault after stepping back starts another branch: its
  // end, and so the scrubber's length, is not known yet.
  const acts = snap.actions || [];
  const key = (a) => JSON.stringify(a);
  const prefix = (a, b) => a.length <= b.length && a.every((x, i) => key(x) === key(b[i]));
  if (!prefix(acts, state.branch) && !prefix(state.branch, acts)) { state.endStep = null; state.maxStep = snap.step; }
  if (acts.length >= state.branch.length) state.branch = acts;
  state.maxStep = Math.max(state.maxStep, snap.step);
  if (snap.ended) state.endStep = snap.step;
  if (snap.ended && snap.custom) checkExpect();
  if (!snap.custom) state.customYAML = '';
  render();
}

/** focusRefs picks the events to highlight: the verdicts' causes at the
 * end, else what the latest narration points at, else the selection. */
function focusRefs() {
  const m = state.model;
  const hl = new Set();
  const sel = state.selected != null ? m.events.find((e) => e.seq === state.selected) : null;
  if (sel && sel.refs) sel.refs.forEach((r) => hl.add(r));
  else if (m.verdicts.length) m.verdicts.forEach((v) => (v.refs || []).forEach((r) => hl.add(r)));
  else if (m.says.length) (m.says[m.says.length - 1].refs || []).forEach((r) => hl.add(r));
  state.highlight = hl;
  state.saySeqs = new Set(m.says.flatMap((s) => s.refs || []));
}

function render() {
  const banner = $('real-banner');
  banner.hidden = !state.real;
  if (state.real) banner.textContent = t('realBanner', state.lang).replace('{urls}', state.real);
  const st = state, snap = st.snap;
  focusRefs();
  document.body.classList.toggle('presenter', st.presenter);
  document.body.classList.toggle('selecting', st.selected != null);
  $('presenter').setAttribute('aria-pressed', String(st.presenter));
  if (snap) {
    $('title').textContent = pick(snap.title, st.lang) || snap.scenario;
    $('lesson-text').textContent = pick(snap.lesson, st.lang);
    $('expect').textContent = (snap.expect || []).join(', ') || '—';
    $('real-why').textContent = snap.realWhy ? '— ' + t('onReal', st.lang) + ' ' + pick(snap.realWhy, st.lang) : '';
    renderPicker();
    if (document.activeElement !== $('seed')) $('seed').value = String(snap.seed);
    const max = st.endStep ?? st.maxStep + 10;
    $('scrubber').max = String(max);
    if (!scrubbing) $('scrubber').value = String(snap.step);
    $('cursor').textContent = `${t('stepOf', st.lang)} ${snap.step}${t('stepSuffix', st.lang)}${st.endStep != null ? ' / ' + st.endStep : ''} · ${fill('eventsCount', st.lang, { n: st.model.events.length })} · ${fmt(snap.t)}`;
    $('play').querySelector('[data-i18n]').dataset.i18n = snap.playing ? 'pause' : 'play';
    $('play').setAttribute('aria-pressed', String(snap.playing));
    $('step').disabled = $('end').disabled = snap.ended;
    $('back').disabled = snap.step === 0;
    renderTargets($('fault-client'), snap.clients);
    renderTargets($('fault-node'), snap.nodes.map((n) => n.name));
    renderFaults(st, $);
    $('share-link').href = shareURL();
  }
  for (const opt of $('scenario').options) {
    const c = st.catalog.find((x) => x.id === opt.value) || ((snap && snap.file) || []).find((x) => 'file:' + x.id === opt.value);
    if (c) opt.textContent = pick(c.title, st.lang);
  }
  apply(document, st.lang);
  explorer.relabel();
  comparer.render();
  renderConn();
  $('follow').hidden = tl.follow;
  if (st.lastError && $('toast').classList.contains('show')) $('toast').textContent = errText(st.lastError);
  $('lang').textContent = st.lang === 'zh' ? 'English' : '中文';
  renderHelp();
  renderNarration($('narration'), $('narration-history'), st, goTo);
  renderVerdict($('verdict'), st, goTo);
  renderKeys($('keys'), st);
  renderPending($('pending'), st, (c) => link.send('step-client', { client: c }));
  renderDetail($('detail'), st, goTo);
  $('counters-panel').hidden = !renderCounters($('counters'), st);
  tl.set({ ...st });
}

/** errText is an error message from the server in the chosen language. */
function errText(m) {
  if (m.code === 'yaml' && m.errors) {
    const detail = m.errors.map((e) => (e.line ? `${t('line', state.lang)} ${e.line}: ` : '') + problem(e.msg, state.lang)).join('; ');
    return serverError({ ...m, args: { detail } }, state.lang);
  }
  return serverError(m, state.lang);
}

/** fillLabs lists the labs (catalog entries marked lab) in the picker. */
function fillLabs() {
  const g = $('group-labs');
  g.textContent = '';
  for (const c of state.catalog.filter((x) => x.lab)) {
    const o = document.createElement('option');
    o.value = c.id;
    o.textContent = pick(c.title, state.lang);
    g.append(o);
  }
  g.hidden = !g.children.length;
}

/** renderPicker shows what is loaded: a built-in lesson or lab by its id,
 * a scenario of the user's own file by its title, with the file's other
 * scenarios beside it. */
function renderPicker() {
  const snap = state.snap, sel = $('scenario'), g = $('group-file');
  const file = snap.custom ? snap.file || [{ id: snap.scenario, title: snap.title }] : [];
  const key = file.map((f) => f.id).join('|');
  if (g.dataset.key !== key) {
    g.dataset.key = key;
    g.textContent = '';
    for (const f of file) {
      const o = document.createElement('option');
      o.value = 'file:' + f.id;
      o.textContent = pick(f.title, state.lang) || f.id;
      g.append(o);
    }
    g.hidden = !file.length;
  }
  const want = snap.custom ? 'file:' + snap.scenario : snap.scenario;
  if (sel.value !== want && document.activeElement !== sel) sel.value = want;
}

/** checkExpect flags, in the editor, an expect: that the run contradicts. */
function checkExpect() {
  const s = state.snap;
  if (!s.expect || !s.expect.length) return;
  const got = [...new Set(s.verdicts)].sort().join(', '), want = [...new Set(s.expect)].sort().join(', ');
  if (got === want) return;
  const text = state.customYAML || $('editor').value;
  const lines = text.split('\n');
  let line = 0;
  // The expect: of the scenario that ran: the first one after its id.
  const at = lines.findIndex((l) => new RegExp('id:\\s*["\']?' + s.scenario.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '\\b').test(l));
  for (let i = Math.max(at, 0); i < lines.length; i++) if (/^\s*expect\s*:/.test(lines[i])) { line = i + 1; break; }
  state.errors = [{ line, col: 1, msg: fill('expectContradicted', state.lang, { want: '[' + want + ']', got: '[' + got + ']' }), expect: true }];
  renderErrors();
}

function fmt(ns) {
  return (ns / 1e9).toFixed(3).replace(/\.?0+$/, '') + 's';
}

function goTo(seq) {
  if (seq == null) return;
  const r = state.model.rowOfSeq.get(seq);
  if (r !== undefined) tl.scrollToRow(r);
  state.selected = seq;
  render();
}

/** selectBy moves the selection by d rows and shows the row. */
function selectBy(d) {
  const m = state.model;
  if (!m.rows.length) return;
  let r = state.selected != null ? m.rowOfSeq.get(state.selected) : undefined;
  r = r === undefined ? (d > 0 ? 0 : m.rows.length - 1) : Math.max(0, Math.min(m.rows.length - 1, r + d));
  state.selected = m.rows[r].seq;
  tl.reveal(r);
  render();
}

function shareURL() {
  const s = state.snap;
  if (!s) return location.href;
  const run = { seed: s.seed, a: s.actions, c: s.step };
  if (s.custom) run.y = state.customYAML; else run.s = s.scenario;
  return location.origin + location.pathname + encodeRun(run);
}

let toastTimer = 0;
function toast(text, bad = false) {
  const el = $('toast');
  el.textContent = text;
  el.className = 'toast show' + (bad ? ' bad' : '');
  el.setAttribute('data-testid', bad ? 'error' : 'toast');
  clearTimeout(toastTimer);
  // Out of the timeline's way (over the side panel), brief, and gone on a click.
  toastTimer = setTimeout(() => { el.className = 'toast'; }, Math.min(4000, 1500 + text.length * 40));
}
$('toast').onclick = () => { clearTimeout(toastTimer); $('toast').className = 'toast'; };

function renderHelp() {
  const dl = $('help-keys');
  dl.textContent = '';
  for (const [k, key] of KEYS) {
    const dt = document.createElement('dt');
    dt.textContent = k;
    const dd = document.createElement('dd');
    dd.textContent = t(key, state.lang);
    dl.append(dt, dd);
  }
}

function renderErrors() {
  const ul = $('editor-errors');
  ul.textContent = '';
  const lines = new Set(state.errors.map((e) => e.line).filter(Boolean));
  if (!state.errors.length) {
    const li = document.createElement('li');
    li.className = 'ok';
    li.textContent = t('errorsNone', state.lang);
    ul.append(li);
  }
  for (const e of state.errors) {
    const li = document.createElement('li');
    li.textContent = (e.line ? `${t('line', state.lang)} ${e.line}${e.col ? ':' + e.col : ''} — ` : '') + (e.expect ? fill('expectContradicted', state.lang, { want: '[' + [...new Set(state.snap.expect)].sort().join(', ') + ']', got: '[' + [...new Set(state.snap.verdicts)].sort().join(', ') + ']' }) : problem(e.msg, state.lang));
    li.dataset.line = String(e.line || 0);
    li.addEventListener('click', () => selectLine(e.line));
    ul.append(li);
  }
  gutter(lines);
}

function gutter(bad = new Set(state.errors.map((e) => e.line))) {
  const n = $('editor').value.split('\n').length;
  const out = [];
  for (let i = 1; i <= n; i++) out.push(bad.has(i) ? `▶${i}` : String(i));
  $('editor-gutter').textContent = out.join('\n');
}

function selectLine(line) {
  if (!line) return;
  const ta = $('editor');
  const lines = ta.value.split('\n');
  const start = lines.slice(0, line - 1).join('\n').length + (line > 1 ? 1 : 0);
  ta.focus();
  ta.setSelectionRange(start, start + (lines[line - 1] || '').length);
}

// Controls.
const step = () => { if (state.snap && !state.snap.ended) link.send('step'); };
const back = () => link.send('back');
const togglePlay = () => link.send(state.snap && state.snap.playing ? 'pause' : 'play', { speed: Number($('speed').value) });
const toEnd = () => link.send('seek', { step: state.limits.max_steps });
const reset = () => link.send('reset');
const toggleLang = () => { state.lang = state.lang === 'zh' ? 'en' : 'zh'; localStorage.setItem('lockstep.lang', state.lang); render(); if ($('editor-errors').children.length) renderErrors(); };
const togglePresenter = () => { state.presenter = !state.presenter; render(); };
const help = (show) => { $('help').hidden = !show; if (show) $('help-close').focus(); };

$('step').onclick = step;
$('back').onclick = back;
$('play').onclick = togglePlay;
$('end').onclick = toEnd;
$('reset').onclick = reset;
$('lang').onclick = toggleLang;
$('presenter').onclick = togglePresenter;
$('help-btn').onclick = () => help(true);
$('help-close').onclick = () => help(false);
$('follow').onclick = () => { tl.followNewest(); $('timeline').focus(); };
$('take-back').onclick = () => { state.taken = false; renderConn(); link.connect(); };
$('speed').onchange = () => { if (state.snap && state.snap.playing) link.send('play', { speed: Number($('speed').value) }); };
$('seed').onchange = () => {
  const v = Number($('seed').value);
  if (Number.isSafeInteger(v)) link.send('seed', { seed: v });
};
let scrubbing = false;
let scrubTimer = 0;
$('scrubber').addEventListener('input', () => {
  scrubbing = true;
  clearTimeout(scrubTimer);
  scrubTimer = setTimeout(() => { link.send('seek', { step: Number($('scrubber').value) }); }, 60);
});
$('scrubber').addEventListener('change', () => {
  clearTimeout(scrubTimer);
  scrubbing = false;
  link.send('seek', { step: Number($('scrubber').value) });
});
$('scenario').onchange = () => {
  const v = $('scenario').value;
  if (v === '__custom') {
    openEditor();
    $('editor').focus();
    return;
  }
  if (v.startsWith('file:')) link.send('load', { yaml: state.customYAML, scenario: v.slice(5) });
  else link.send('load', { scenario: v });
  // Leave the picker, so that the arrows and the space bar step the run.
  $('scenario').blur();
  $('timeline').focus();
};
function openEditor() {
  $('editor-panel').open = true;
  if (!$('editor').value) {
    if (state.customYAML) { $('editor').value = state.customYAML; gutter(); } else { wantEditor = true; link.send('export-yaml'); }
  }
}
$('editor-panel').addEventListener('toggle', () => { if ($('editor-panel').open) openEditor(); });
for (const b of document.querySelectorAll('[data-fault]')) {
  b.onclick = () => {
    const kind = b.dataset.fault;
    const f = { do: kind };
    if (['crash', 'pause', 'drop-reply', 'drop-request'].includes(kind)) f.client = $('fault-client').value;
    else f.node = $('fault-node').value;
    if (kind === 'failover' && !state.masters.includes(f.node)) f.node = state.masters[0];
    if (kind === 'node-restart' && !state.downNodes.includes(f.node)) f.node = state.downNodes[0];
    if (kind === 'pause') f.for = '1s';
    if (kind === 'partition') f.for = '2s';
    if (kind === 'clock-jump') f.by = '5s';
    link.send('inject', { fault: f });
  };
}
$('share-link').onclick = (ev) => {
  ev.preventDefault();
  const url = shareURL();
  $('share-link').href = url;
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(url).then(() => toast(t('linkCopied', state.lang)), () => toast(t('linkShown', state.lang)));
  } else toast(t('linkShown', state.lang));
};
const base = () => (state.snap ? state.snap.scenario + '-seed' + state.snap.seed + '-step' + state.snap.step + (state.snap.actions.length ? '-' + hash(JSON.stringify(state.snap.actions)) : '') : 'lockstep');
function hash(s) {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return (h >>> 0).toString(36);
}
/** caption is the line exports carry: lesson, seed, step and verdict. */
function caption() {
  const s = state.snap;
  if (!s) return 'Lockstep';
  const v = state.model.verdicts.length ? [...new Set(state.model.verdicts.map((x) => x.name))].join(', ') : t('noVerdictYet', state.lang);
  return fill('caption', state.lang, { title: pick(s.title, state.lang) || s.scenario, seed: s.seed, step: s.step, verdict: v });
}
$('export-svg').onclick = () => download(base() + '.svg', tl.svg(caption()), 'image/svg+xml');
$('export-png').onclick = async () => download(base() + '.png', await tl.png(caption()), 'image/png');
$('export-json').onclick = () => {
  const s = state.snap || {};
  const doc = { protocol: 1, scenario: s.scenario, seed: s.seed, step: s.step, actions: s.actions, verdicts: s.verdicts, events: state.model.events };
  download(base() + '.json', JSON.stringify(doc, null, 1), 'application/json');
};
$('save-yaml').onclick = () => link.send('export-yaml');
$('upload-yaml').onchange = async () => {
  const f = $('upload-yaml').files[0];
  if (!f) return;
  const text = await f.text();
  $('editor').value = text;
  gutter();
  state.customYAML = text;
  link.send('load', { yaml: text });
  $('upload-yaml').value = '';
};
// The editor validates as you type: 400ms after the last keystroke the text
// goes to the server's checker, which answers with every problem and its
// line. A text over the file limit is refused here, not sent: the socket
// takes messages of at most 64 KiB.
const MAX_YAML = 64 * 1024;
let checkTimer = 0;
function check() {
  clearTimeout(checkTimer);
  const text = $('editor').value;
  const size = new TextEncoder().encode(text).length;
  if (size > MAX_YAML) {
    state.errors = [{ line: 1, col: 1, msg: t('tooBig', state.lang).replace('{n}', (size / 1024).toFixed(1)) }];
    renderErrors();
    return;
  }
  link.send('check', { yaml: text });
}
$('editor').addEventListener('input', () => {
  gutter();
  clearTimeout(checkTimer);
  checkTimer = setTimeout(check, 400);
});
$('editor').addEventListener('scroll', () => { $('editor-gutter').scrollTop = $('editor').scrollTop; });
$('editor-check').onclick = check;
$('editor-run').onclick = () => {
  state.customYAML = $('editor').value;
  tl.reset();
  state.errors = [];
  renderErrors();
  link.send('load', { yaml: state.customYAML });
};

document.addEventListener('keydown', (ev) => {
  const tag = ev.target.tagName;
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.key === 'Escape') {
    if (!$('help').hidden) help(false);
    else if (state.selected != null) { state.selected = null; render(); }
    return;
  }
  if (state.taken) return;
  if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') return;
  const k = ev.key;
  // Space and Enter press a focused button, link or summary, as anywhere else.
  if ((k === ' ' || k === 'Enter') && (tag === 'BUTTON' || tag === 'A' || tag === 'SUMMARY')) return;
  if (ev.target === $('timeline') && (k === 'ArrowUp' || k === 'ArrowDown')) {
    ev.preventDefault();
    selectBy(k === 'ArrowUp' ? -1 : 1);
    return;
  }
  const acts = {
    ' ': step, ArrowRight: step, '.': step, PageDown: step, ArrowLeft: back, PageUp: back,
    p: togglePlay, P: togglePlay, Home: reset, End: toEnd, f: togglePresenter, F: togglePresenter,
    l: toggleLang, L: toggleLang, '?': () => help($('help').hidden),
  };
  if (acts[k]) {
    ev.preventDefault();
    acts[k]();
  }
});

// Hooks for tests and measurements (stable; see docs/protocol.md).
window.lockstep = {
  state,
  link,
  timeline: tl,
  /** drawn lists the labels of the last frame (role, seq, text, cut). */
  drawn: () => tl.drawn,
  /** audit draws the whole log at the current width and lists its labels. */
  audit: () => tl.audit(),
  /** bench scrolls through the whole timeline and times each frame's draw. */
  bench(frames = 120) {
    const sc = $('tl-scroll');
    const times = [];
    const maxTop = sc.scrollHeight - sc.clientHeight;
    for (let i = 0; i < frames; i++) {
      sc.scrollTop = Math.round((maxTop * i) / Math.max(frames - 1, 1));
      tl.follow = false;
      tl.draw();
      times.push(tl.lastDraw);
    }
    times.sort((a, b) => a - b);
    const q = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))];
    return { rows: state.model.rows.length, frames, median: q(0.5), p95: q(0.95), max: times[times.length - 1] };
  },
};

render();
link.connect();
