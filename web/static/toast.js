// The toast: a brief line over the side panel that says what just happened
// (a link copied, an error from the server), gone after a few seconds or on
// a click, and said again in the new language when the language changes.

import { state } from './store.js';
import { serverError } from './i18n.js';

const el = () => document.getElementById('toast');
let timer = 0;

/** toast shows text; bad marks it as an error (data-testid="error"). */
export function toast(text, bad = false) {
  const e = el();
  e.textContent = text;
  e.className = 'toast show' + (bad ? ' bad' : '');
  e.setAttribute('data-testid', bad ? 'error' : 'toast');
  clearTimeout(timer);
  // Out of the timeline's way (over the side panel), brief, and gone on a click.
  timer = setTimeout(() => { e.className = 'toast'; }, Math.min(4000, 1500 + text.length * 40));
}

/** showError shows an error message from the server and keeps it, to say
 * it again in the other language. */
export function showError(m) {
  state.lastError = m;
  toast(errText(m), true);
}

/** relabelToast says a shown error again in the page's language. */
export function relabelToast() {
  if (state.lastError && el().classList.contains('show') && el().classList.contains('bad')) el().textContent = errText(state.lastError);
}

/** errText is an error message from the server in the page's language. */
export function errText(m) {
  return serverError(m, state.lang);
}

el().onclick = () => { clearTimeout(timer); el().className = 'toast'; };
