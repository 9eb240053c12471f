// The user's acquire and release beside an alternative's, in What to use
// instead of Check my lock (report.js): card.yours and each alternative's
// code, each step the functions and scripts it runs (a catalog lock's as
// lock.Steps names them, a declared lock's steps as written), with the
// file and line each starts at. Two columns on a laptop, their steps
// level across them; one under the other on a phone (report.css).

import { t } from './i18n.js';
import { el } from './dom.js';

/** side is one column: its heading, then each step's code. */
function side(which, head, c, lang) {
  return el('div', { class: 'rep-code-side', 'data-side': which, 'data-testid': 'report-code-' + which },
    el('h4', {}, head, ' ', el('code', {}, c.algorithm)),
    ...['acquire', 'release'].flatMap((step) => [
      el('h5', {}, t(step === 'acquire' ? 'repCodeAcquire' : 'repCodeRelease', lang)),
      el('div', { class: 'rep-code-step', 'data-step': step }, ...(c[step] || []).map((s) =>
        el('figure', {}, el('figcaption', {}, s.file + ':' + s.line), el('pre', { tabindex: '0' }, s.text))))]));
}

/** stepCode is the user's code (yours) beside alternative a's, folded
 * (null when either is missing). The first alternative's is open; a
 * reader's opening or closing one is kept in opened, by lock, across
 * renders. */
export function stepCode(yours, a, first, opened, lang) {
  if (!yours || !a.code) return null;
  const d = el('details', { class: 'rep-code', 'data-testid': 'report-code', 'data-lock': a.lock },
    el('summary', {}, t('repCodeSummary', lang)),
    el('div', { class: 'rep-code-grid' }, side('yours', t('repCodeYours', lang), yours, lang),
      side('instead', t('repCodeInstead', lang), a.code, lang)));
  d.open = opened[a.lock] ?? first;
  d.addEventListener('toggle', () => { opened[a.lock] = d.open; });
  return d;
}
