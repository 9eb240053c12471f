// The scenario picker: the built-in lessons, the labs, and the scenarios of
// the user's own file (uploaded, edited, shared or found by a search), each
// under its title in the page's language, with the loaded one selected.

import { state } from './store.js';
import { pick } from './i18n.js';
import { openEditor } from './editor.js';

const $ = (id) => document.getElementById(id);

/** initPicker loads what the user picks; onPicked runs after (the focus
 * leaves the picker, so that the arrows and the space bar step the run). */
export function initPicker(link, onPicked) {
  $('scenario').onchange = () => {
    const v = $('scenario').value;
    if (v === '__custom') {
      openEditor();
      $('editor').focus();
      return;
    }
    if (v.startsWith('file:')) link.send('load', { yaml: state.customYAML, scenario: v.slice(5) });
    else link.send('load', { scenario: v });
    onPicked();
  };
}

/** fillLabs lists the labs (catalog entries marked lab) in the picker. */
export function fillLabs() {
  const g = $('group-labs');
  g.textContent = '';
  for (const c of state.catalog.filter((x) => x.lab)) {
    const o = document.createElement('option');
    o.value = c.id;
    g.append(o);
  }
  g.hidden = !g.children.length;
}

/** ownFile lists the scenarios of the user's own run: the file's, or the
 * one loaded (an edited, shared or explored scenario). */
function ownFile(snap) {
  if (!snap || !snap.custom) return [];
  return snap.file || [{ id: snap.scenario, title: snap.title }];
}

/** renderPicker shows what is loaded: a built-in lesson or lab by its id,
 * a scenario of the user's own file by its title, with the file's other
 * scenarios beside it; every option is titled in the page's language. */
export function renderPicker() {
  const snap = state.snap, sel = $('scenario'), g = $('group-file');
  const file = ownFile(snap);
  const key = file.map((f) => f.id).join('|');
  if (g.dataset.key !== key) {
    g.dataset.key = key;
    g.textContent = '';
    for (const f of file) {
      const o = document.createElement('option');
      o.value = 'file:' + f.id;
      g.append(o);
    }
    g.hidden = !file.length;
  }
  for (const opt of sel.options) {
    const c = state.catalog.find((x) => x.id === opt.value) || file.find((x) => 'file:' + x.id === opt.value);
    if (!c) continue;
    // a live lesson whose server cannot run here says so, and its tip
    // what to install
    const text = (pick(c.title, state.lang) || c.id) + (c.needs ? ' — ' + pick(c.needs.short, state.lang) : '');
    if (opt.textContent !== text) opt.textContent = text;
    if (c.needs && opt.title !== pick(c.needs.say, state.lang)) opt.title = pick(c.needs.say, state.lang);
  }
  if (!snap) return;
  const want = snap.custom ? 'file:' + snap.scenario : snap.scenario;
  if (sel.value !== want && document.activeElement !== sel) sel.value = want;
}
