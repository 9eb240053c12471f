// "Which lock?": the report card (docs/choosing-a-lock.md). The server
// computes it once, searching every lock under every fault, and sends
// each cell as it is decided; this view draws the grid filling in, a bar
// for the progress, and beside each lock its round trips, what it needs
// and when to use it. A cell with a schedule (a ✗'s counterexample, the
// refused write of a fencing ✓) opens it in the timeline.

import { t, fill, pick } from './i18n.js';
import { el } from './dom.js';
import { serverError } from './messages.js';

const MARK = { fails: '✗', holds: '✓', 'none-found': '~', unsearched: '?', 'n/a': 'n/a' };

/** Report drives the view. */
export class Report {
  /** link sends requests; get gives the page's state. */
  constructor(link, get) {
    this.link = link;
    this.get = get;
    this.$ = (id) => document.getElementById(id);
    this.card = null; // the card as last known (rows, cells, done, total)
    this.opening = false; // a cell was asked to open: close on the next state
    this.$('report-open').onclick = () => this.toggle();
    this.$('report-close').onclick = () => this.toggle(false);
  }

  get open() { return !this.$('report').hidden; }

  /** toggle shows or hides the view; the first show asks for the card. */
  toggle(on = !this.open) {
    this.$('report').hidden = !on;
    document.body.classList.toggle('reporting', on);
    this.$('report-open').setAttribute('aria-pressed', String(on));
    if (on && (!this.card || this.card.error)) this.link.send('report');
    this.render();
  }

  /** onMessage takes the report messages; false for any other. A state
   * after a cell was opened closes the view on the timeline. */
  onMessage(m) {
    switch (m.type) {
      case 'report':
      case 'report-done':
        this.card = m.report;
        this.render();
        return true;
      case 'report-cell': {
        if (!this.card) return true;
        const c = m.cell;
        for (const r of this.card.rows || []) {
          if (r.lock !== c.lock) continue;
          r.cells = r.cells.map((x) => (x.column === c.column ? c : x));
        }
        this.card.done = Math.max(this.card.done || 0, m.done);
        this.card.total = m.total;
        this.render();
        return true;
      }
      case 'state':
        if (this.opening) {
          this.opening = false;
          this.toggle(false);
        }
        return false;
      case 'error':
        this.opening = false;
        return false;
    }
    return false;
  }

  /** openCell loads a cell's schedule as the session's run. */
  openCell(c) {
    this.opening = true;
    this.link.send('report-open', { lock: c.lock, column: c.column });
  }

  render() {
    if (!this.open) return;
    const lang = this.get().lang, card = this.card;
    this.$('report-title').textContent = t('repTitle', lang);
    this.$('report-close').textContent = t('close', lang);
    this.$('report-hint').textContent = t('repHint', lang);
    const bar = this.$('report-bar'), status = this.$('report-status');
    if (!card) {
      bar.value = 0;
      status.textContent = t('repStarting', lang);
      return;
    }
    const total = card.total || 0, done = card.done || 0;
    bar.value = total ? done / total : 0;
    bar.hidden = !card.running;
    status.dataset.state = card.error ? 'error' : card.running ? 'running' : 'done';
    if (card.error) status.textContent = fill('repStopped', lang, { e: serverError(card.error, lang) }); // its code's sentence, in lang
    else if (!card.running) status.textContent = fill(card.stored ? 'repStored' : 'repDone', lang, { n: total });
    else if (!total) status.textContent = t('repStarting', lang);
    else status.textContent = fill('repProgress', lang, { n: done, total });
    this.$('report-bound').textContent = pick(card.bound, lang) + (lang === 'zh' ? '。' : '. ') + pick(card.legend, lang);
    this.draw(card, lang);
  }

  /** draw builds the grid: a row per lock, a column per fault. */
  draw(card, lang) {
    const body = this.$('report-body');
    const cols = card.columns || [];
    const head = el('tr', {}, el('th', { scope: 'col' }, t('repLock', lang)),
      ...cols.map((c) => el('th', { scope: 'col', title: pick(c.what, lang) }, pick(c.title, lang))),
      el('th', { scope: 'col' }, t('repTrips', lang)), el('th', { scope: 'col' }, t('repNeeds', lang)),
      el('th', { scope: 'col', class: 'rep-advice' }, t('repAdvice', lang)));
    const rows = (card.rows || []).map((r) => el('tr', { 'data-lock': r.lock },
      el('th', { scope: 'row', title: r.title }, el('code', {}, r.lock)),
      ...r.cells.map((c, i) => this.cell(c, cols[i], lang)),
      el('td', { class: 'rep-trips' }, pick(r.trips, lang)),
      el('td', { class: 'rep-needs' }, pick(r.needs, lang)),
      el('td', { class: 'rep-advice', 'data-testid': 'report-advice' }, pick(r.advice, lang))));
    body.replaceChildren(el('table', { class: 'rep-table', 'data-testid': 'report-table' }, el('thead', {}, head), el('tbody', {}, ...rows)));
  }

  cell(c, col, lang) {
    const kind = c.kind || 'pending';
    const text = c.kind ? pick(c.text, lang) : t('repPending', lang);
    const label = (MARK[c.kind] || '…') + (c.kind === 'fails' && c.verdict ? ' ' + c.verdict : '');
    const props = { class: 'rep-cell k-' + kind, 'data-testid': 'report-cell', 'data-lock': c.lock, 'data-column': c.column, 'data-kind': kind, title: text };
    if (c.replay) {
      const b = el('button', { class: 'rep-open', title: fill('repOpenCell', lang, { lock: c.lock, column: pick(col.title, lang) }) + ' — ' + text,
        onclick: () => this.openCell(c) }, label);
      return el('td', props, b);
    }
    return el('td', props, label);
  }
}
