// The keyboard (the help card lists it, i18n.js KEYS): Space, → and . step,
// ← steps back, P plays, Home resets, End runs to the end, PageDown and
// PageUp (a presenter's clicker) step and step back, ↑ and ↓ on the
// timeline select a row, F is presenter mode, T the time view, L the
// language, ? the help,
// Escape closes the help or drops the selection. Keys typed into a field
// stay there; Space and Enter on a button press the button.

import { state, changed } from './store.js';
import { actions } from './controls.js';

const $ = (id) => document.getElementById(id);

/** initKeyboard listens for the keys; selectBy(d) moves the selection by d rows. */
export function initKeyboard(selectBy) {
  const a = actions;
  const keys = {
    ' ': a.step, ArrowRight: a.step, '.': a.step, PageDown: a.step, ArrowLeft: a.back, PageUp: a.back,
    p: a.togglePlay, P: a.togglePlay, Home: a.reset, End: a.toEnd, f: a.togglePresenter, F: a.togglePresenter,
    t: a.toggleTime, T: a.toggleTime, l: a.toggleLang, L: a.toggleLang, '?': () => a.help($('help').hidden),
  };
  document.addEventListener('keydown', (ev) => {
    const tag = ev.target.tagName;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.key === 'Escape') {
      if (!$('help').hidden) a.help(false);
      else if (state.selected != null) { state.selected = null; changed(); }
      return;
    }
    if (state.taken) return;
    if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') return;
    const k = ev.key;
    if ((k === ' ' || k === 'Enter') && (tag === 'BUTTON' || tag === 'A' || tag === 'SUMMARY')) return;
    if (ev.target === $('tl-scroll') && (k === 'ArrowUp' || k === 'ArrowDown')) {
      ev.preventDefault();
      selectBy(k === 'ArrowUp' ? -1 : 1);
      return;
    }
    if (keys[k]) {
      ev.preventDefault();
      keys[k]();
    }
  });
}
