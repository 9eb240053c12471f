// The report card's rows of locks on a live server (etcd's Mutex,
// ZooKeeper's recipe; report.js): a table of their own under a heading
// that says each cell is a sample of real-time runs, not a search, with
// its legend; beside each row where and when its runs ran.

import { t, pick } from './i18n.js';
import { el } from './dom.js';

/** liveTables draws card.live on the columns cols, each row drawn by
 * row(r) as the searched rows are (its round trips left out: a live
 * lock's are not measured). */
export function liveTables(card, cols, lang, row) {
  const head = el('tr', {}, el('th', { scope: 'col', class: 'rep-lock' }, t('repLock', lang)),
    ...cols.map((c) => el('th', { scope: 'col', title: pick(c.what, lang) }, pick(c.title, lang))),
    el('th', { scope: 'col', class: 'rep-needs' }, t('repNeeds', lang)),
    el('th', { scope: 'col', class: 'rep-advice' }, t('repAdvice', lang)));
  const rows = card.live.map((r) => {
    const tr = row(r);
    tr.querySelector('.rep-trips').remove();
    const th = tr.querySelector('th');
    th.title += ' ' + pick(r.sample, lang);
    th.append(el('div', { class: 'rep-sample', 'data-testid': 'report-sample' }, pick(r.sample, lang)));
    return tr;
  });
  return [el('h3', { class: 'rep-live-title', 'data-testid': 'report-live-title' }, t('repLive', lang)),
    el('p', { class: 'rep-legend', 'data-testid': 'report-live-legend' }, pick(card.live_legend, lang)),
    el('table', { class: 'rep-table rep-live', 'data-testid': 'report-live-table' }, el('thead', {}, head), el('tbody', {}, ...rows))];
}
