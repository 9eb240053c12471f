// The scenario editor: a textarea with a line gutter that the server's
// checker marks as you type, a list of problems (a click selects the
// line), Run, file upload, and a flag on an expect: the run contradicts.

import { state, verdictsOf } from './store.js';
import { t, fill } from './i18n.js';

const $ = (id) => document.getElementById(id);

// A text over the file limit (the server's, in welcome.limits) is refused
// here, not sent.
const maxYAML = () => (state.limits && state.limits.max_file_size) || 128 * 1024;

let link = null;
let wantText = false; // the editor asked the server for the current scenario's YAML
let checkTimer = 0;
let shownIn = ''; // the language the problems were listed in ('' before the first list)
// The editor holds the text of what is loaded: held names the run its text
// is of (loadedKey), edited that the user changed it since. A new run
// replaces an untouched text; an edited one stays, said not to be the
// loaded one, until the user asks for the loaded one's.
let held = '';
let edited = false;
let draft = ''; // the user's edited text, put aside to show the loaded one's

/** loadedKey names a loaded run as the editor's text is of it: a lesson or
 * lab by its id; a run of the user's own text (edited, uploaded, a
 * search's, a share link's: state.customYAML) by that text, any of its
 * scenarios. */
function loadedKey(snap) {
  if (!snap) return '';
  return snap.custom ? 'own:' + state.customYAML : snap.scenario;
}

/** initEditor wires the editor to the server link; onRun is called before
 * an edited scenario is loaded (the timeline starts a new view). */
export function initEditor(l, onRun) {
  link = l;
  $('editor-panel').addEventListener('toggle', () => { if ($('editor-panel').open) openEditor(); });
  $('editor').addEventListener('input', () => {
    edited = true;
    gutter();
    clearTimeout(checkTimer);
    checkTimer = setTimeout(check, 400);
  });
  $('editor').addEventListener('scroll', () => { $('editor-gutter').scrollTop = $('editor').scrollTop; });
  $('editor-check').onclick = check;
  $('editor-stale-load').onclick = () => {
    draft = $('editor').value;
    edited = false;
    held = '';
    followLoaded();
  };
  $('editor-draft-back').onclick = () => {
    $('editor').value = draft;
    draft = '';
    edited = true;
    held = '';
    gutter();
    followLoaded();
    check();
  };
  $('editor-run').onclick = () => {
    edited = false;
    held = 'own:' + $('editor').value;
    state.customYAML = $('editor').value;
    onRun();
    state.errors = [];
    state.warnings = [];
    renderErrors();
    link.send('load', { yaml: state.customYAML });
  };
  $('upload-yaml').onchange = async () => {
    const f = $('upload-yaml').files[0];
    if (!f) return;
    const text = await f.text();
    $('editor').value = text;
    gutter();
    edited = false;
    held = 'own:' + text;
    state.customYAML = text;
    link.send('load', { yaml: text });
    $('upload-yaml').value = '';
  };
}

/** openEditor opens the panel holding the current scenario's text (the
 * user's own, or the built-in one's YAML from the server). */
export function openEditor() {
  $('editor-panel').open = true;
  followLoaded();
  if ($('editor').value) return;
  fillEditor();
}

/** fillEditor puts the loaded run's text in the empty editor: the user's own
 * file, else its YAML from the server. */
function fillEditor() {
  const key = loadedKey(state.snap);
  if (state.snap && state.snap.custom && state.customYAML) {
    $('editor').value = state.customYAML;
    held = key;
    edited = false;
    gutter();
  } else if (key) {
    wantText = true;
    link.send('export-yaml');
  }
}

/** followLoaded keeps the editor on what is loaded, after every state: an
 * untouched text of another run is replaced (asked for only while the
 * editor is open), an edited one is kept with a note that says so. */
export function followLoaded() {
  const key = loadedKey(state.snap), ta = $('editor');
  const stale = !!key && !!ta.value && held !== key;
  $('editor-stale').hidden = !(stale && edited);
  $('editor-draft').hidden = !draft || edited;
  if (!stale || edited) return;
  ta.value = '';
  held = '';
  state.errors = [];
  state.warnings = [];
  renderErrors();
  if ($('editor-panel').open) fillEditor();
}

/** takeYAML fills the editor with a scenario's YAML if it asked for it;
 * false when it did not (the YAML is a download). */
export function takeYAML(text) {
  if (!wantText) return false;
  wantText = false;
  if (!$('editor').value) {
    $('editor').value = text;
    held = loadedKey(state.snap);
    edited = false;
  }
  gutter();
  return true;
}

/** holdText puts a scenario the page wrote for the user (Check my lock's
 * short form) in the editor, open, as the user's own text: it stays when
 * another run is loaded, for the user to keep, edit or run. */
export function holdText(text) {
  $('editor').value = text;
  $('editor-panel').open = true;
  edited = true;
  held = '';
  draft = '';
  gutter();
  followLoaded();
  check();
}

/** setProblems shows the checker's problems (messages from the server). */
export function setProblems(errors, warnings) {
  state.errors = errors || [];
  state.warnings = warnings || [];
  renderErrors();
}

function check() {
  clearTimeout(checkTimer);
  const text = $('editor').value;
  const size = new TextEncoder().encode(text).length;
  if (size > maxYAML()) {
    state.errors = [{ line: 1, col: 1, tooBig: (size / 1024).toFixed(1), max: maxYAML() >> 10 }];
    renderErrors();
    return;
  }
  link.send('check', { yaml: text });
}

/** checkExpect flags, in the editor, an expect: that the ended run contradicts. */
export function checkExpect() {
  const s = state.snap;
  if (!s.expect || !s.expect.length) return;
  if (verdictsOf(s.verdicts) === verdictsOf(s.expect)) return;
  const lines = (state.customYAML || $('editor').value).split('\n');
  let line = 0;
  // The expect: of the scenario that ran: the first one after its id.
  const at = lines.findIndex((l) => new RegExp('id:\\s*["\']?' + s.scenario.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '\\b').test(l));
  for (let i = Math.max(at, 0); i < lines.length; i++) if (/^\s*expect\s*:/.test(lines[i])) { line = i + 1; break; }
  state.errors = [{ line, col: 1, expect: true }];
  renderErrors();
}

/** renderErrors lists the problems in the page's language and marks their lines. */
export function renderErrors() {
  const ul = $('editor-errors');
  ul.textContent = '';
  shownIn = state.lang;
  if (!state.errors.length) {
    const li = document.createElement('li');
    li.className = 'ok';
    li.textContent = t('errorsNone', state.lang);
    ul.append(li);
  }
  const warnings = state.errors.length ? [] : state.warnings || [];
  for (const e of [...state.errors, ...warnings]) {
    const li = document.createElement('li');
    const where = e.line ? fill(e.col ? 'lineColAt' : 'lineAt', state.lang, { line: e.line, col: e.col }) + ' — ' : '';
    const warn = !state.errors.includes(e);
    li.textContent = (warn ? t('warningLabel', state.lang) : '') + where + message(e);
    if (warn) li.className = 'warn';
    li.dataset.line = String(e.line || 0);
    li.addEventListener('click', () => selectLine(e.line));
    ul.append(li);
  }
  gutter(warnings);
}

/** relabelErrors lists the problems again after a language change. */
export function relabelErrors() {
  if (shownIn && shownIn !== state.lang) renderErrors();
}

function message(e) {
  if (e.expect) return fill('expectContradicted', state.lang, { want: verdictsOf(state.snap.expect), got: verdictsOf(state.snap.verdicts) });
  if (e.tooBig) return fill('tooBig', state.lang, { n: e.tooBig, max: e.max });
  return (state.lang === 'zh' && e.zh) || e.msg; // the server says each problem in both languages
}

/** gutter numbers the editor's lines and marks those with a problem. */
function gutter(warnings = []) {
  const bad = new Set(state.errors.map((e) => e.line));
  const odd = new Set(warnings.map((e) => e.line));
  const n = $('editor').value.split('\n').length;
  const out = [];
  for (let i = 1; i <= n; i++) out.push(bad.has(i) ? `▶${i}` : odd.has(i) ? `!${i}` : String(i));
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
