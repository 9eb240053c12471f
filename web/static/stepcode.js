// What to use instead, in Check my lock (report.js): each alternative
// with its counts, the columns it fails, how it differs, its Side by side
// button, and its acquire and release beside the user's (card.yours):
// each step the functions and scripts it runs (a catalog lock's as
// lock.Steps names them, a declared lock's steps as written), with the
// file and line each starts at. Two columns on a laptop, their steps
// level across them; one under the other on a phone (report.css).

import { t, fill, pick } from './i18n.js';
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

/** instead draws What to use instead in its section (root) for card
 * (null: not yet); sideBySide(lock) runs the user's scenario with lock. */
export function instead(root, card, lang, sideBySide, opened) {
  const title = root.querySelector('h3'), list = root.querySelector('ol');
  const alts = (card && card.instead) || [];
  if (!card || card.running) title.textContent = t('repInsteadWaiting', lang);
  else if (!alts.length) title.textContent = t('repInsteadNone', lang);
  else title.textContent = t(alts[0].everywhere ? 'repInsteadEvery' : 'repInsteadClosest', lang);
  const sep = lang === 'zh' ? '；' : '; ';
  list.replaceChildren(...alts.map((a, i) => {
    const facts = [fill('repInsteadCounts', lang, { h: a.holds, s: a.sampled })];
    if (a.fails && a.fails.length) facts.push(fill('repInsteadFails', lang, { c: a.fails.join(', ') }));
    if (a.na && a.na.length) facts.push(fill('repInsteadNA', lang, { c: a.na.join(', ') }));
    const btn = el('button', { class: 'rep-sbs', 'data-testid': 'report-sbs', 'data-lock': a.lock,
      title: fill('repSideBySideTip', lang, { lock: pick(a.name, lang) || a.lock, scenario: card.scenario }),
      onclick: () => sideBySide(a.lock) }, t('repSideBySide', lang));
    return el('li', { 'data-testid': 'report-alt', 'data-lock': a.lock },
      el('b', { title: a.lock }, pick(a.name, lang) || a.lock), ' ', el('code', {}, a.lock), ' ', btn,
      el('div', { class: 'rep-alt-facts' }, facts.join(sep) + sep + pick(a.difference, lang)),
      stepCode(card.yours, a, i === 0, opened, lang));
  }));
}
