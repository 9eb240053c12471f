// "Which lock?": the report card (docs/choosing-a-lock.md). The server
// computes it once, searching every lock under every fault, and sends
// each cell as it is decided; this view draws the grid filling in, a bar
// for the progress, and beside each lock its round trips, what it needs
// and when to use it. A cell with a schedule (a ✗'s counterexample, the
// refused write of a fencing ✓) opens it in the timeline.
//
// Read on a laptop, the grid keeps its header row and its lock column in
// view however it is scrolled, and a row is two lines at most (a lock
// clicked opens its row in full); on a phone each lock is a card of its
// own (report.css). Every lock is named in words, its id in the tooltip;
// a ✓ says beside it the bound it holds within; every mark is said in the
// page's language.

import { t, fill, pick, verdictWord, verdictName } from './i18n.js';
import { el } from './dom.js';
import { serverError } from './messages.js';

const MARK = { fails: '✗', holds: '✓', 'none-found': '~', unsearched: '?', 'n/a': '' };
// The word said beside a mark (none for ✗ and ✓: a verdict, a bound).
const WORD = { 'none-found': 'repNoneFound', unsearched: 'repNotSearched', 'n/a': 'repNA' };

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
    this.$('report-legend').textContent = t('repLegend', lang);
    this.$('report-searched').textContent = t('repSearched', lang);
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
    this.$('report-bound').textContent = pick(card.bound, lang) + (lang === 'zh' ? '。' : '.');
    this.draw(card, lang);
  }

  /** draw builds the grid: a row per lock, a column per fault. Each
   * cell carries its column's title (data-label) for the phone's cards. */
  draw(card, lang) {
    const body = this.$('report-body');
    const cols = card.columns || [];
    const head = el('tr', {}, el('th', { scope: 'col', class: 'rep-lock' }, t('repLock', lang)),
      ...cols.map((c) => el('th', { scope: 'col', title: pick(c.what, lang) }, pick(c.title, lang))),
      el('th', { scope: 'col', class: 'rep-trips' }, t('repTrips', lang)), el('th', { scope: 'col', class: 'rep-needs' }, t('repNeeds', lang)),
      el('th', { scope: 'col', class: 'rep-advice' }, t('repAdvice', lang)));
    const rows = (card.rows || []).map((r) => this.row(r, cols, lang));
    body.replaceChildren(el('table', { class: 'rep-table', 'data-testid': 'report-table' }, el('thead', {}, head), el('tbody', {}, ...rows)));
    if (card.live && card.live.length) body.append(...this.live(card, cols, lang));
  }

  /** live draws the rows of locks on a live server (etcd, ZooKeeper): a
   * table of their own under a heading that says each cell is a sample of
   * real-time runs, not a search, with its legend; beside each row where
   * and when its runs ran. */
  live(card, cols, lang) {
    const head = el('tr', {}, el('th', { scope: 'col', class: 'rep-lock' }, t('repLock', lang)),
      ...cols.map((c) => el('th', { scope: 'col', title: pick(c.what, lang) }, pick(c.title, lang))),
      el('th', { scope: 'col', class: 'rep-needs' }, t('repNeeds', lang)),
      el('th', { scope: 'col', class: 'rep-advice' }, t('repAdvice', lang)));
    const rows = card.live.map((r) => {
      const tr = this.row(r, cols, lang);
      tr.querySelector('.rep-trips').remove(); // a live lock's round trips are not measured
      const th = tr.querySelector('th');
      th.title += ' ' + pick(r.sample, lang);
      th.append(el('div', { class: 'rep-sample', 'data-testid': 'report-sample' }, pick(r.sample, lang)));
      return tr;
    });
    return [el('h3', { class: 'rep-live-title', 'data-testid': 'report-live-title' }, t('repLive', lang)),
      el('p', { class: 'rep-legend', 'data-testid': 'report-live-legend' }, pick(card.live_legend, lang)),
      el('table', { class: 'rep-table rep-live', 'data-testid': 'report-live-table' }, el('thead', {}, head), el('tbody', {}, ...rows))];
  }

  /** row is one lock's line: its name (a button that opens the row in
   * full), its cells, its round trips, needs and advice. */
  row(r, cols, lang) {
    const tr = el('tr', { 'data-lock': r.lock });
    const name = pick(r.name, lang) || r.lock;
    const btn = el('button', { class: 'rep-name', 'aria-expanded': 'false', onclick: () => {
      const open = tr.classList.toggle('open');
      btn.setAttribute('aria-expanded', String(open));
    } }, name);
    const text = (cls, label, s) => el('td', { class: cls, 'data-label': label }, el('div', { class: 'rep-clamp' }, s));
    tr.append(el('th', { scope: 'row', class: 'rep-lock', title: fill('repLockTip', lang, { id: r.lock, title: r.title }) }, btn),
      ...r.cells.map((c, i) => this.cell(c, cols[i], r, lang)),
      text('rep-trips', t('repTrips', lang), pick(r.trips, lang)),
      text('rep-needs', t('repNeeds', lang), pick(r.needs, lang)),
      el('td', { class: 'rep-advice', 'data-testid': 'report-advice', 'data-label': t('repAdvice', lang) }, el('div', { class: 'rep-clamp' }, pick(r.advice, lang))));
    return tr;
  }

  /** cell is one lock under one fault: its mark and, beside it, the
   * verdict (✗), the bound it holds within (✓) or a word (~, ?, n/a);
   * the whole of what the search found in its tooltip. */
  cell(c, col, row, lang) {
    const kind = c.kind || 'pending';
    const text = c.kind ? pick(c.text, lang) : t('repPending', lang);
    let beside = '';
    if (c.kind === 'broke') beside = verdictWord(c.verdict, lang) + ' · ' + fill('repLiveBroke', lang, { k: c.broken, n: c.runs });
    else if (c.kind === 'unbroken') beside = fill('repLiveNoBreak', lang, { n: c.runs });
    else if (c.kind === 'unsearched' && row.sample) beside = t('repLiveNotRun', lang);
    else if (c.kind === 'fails' && c.verdict) beside = verdictWord(c.verdict, lang);
    else if (c.kind === 'holds') beside = pick(row.within, lang);
    else if (WORD[c.kind]) beside = t(WORD[c.kind], lang);
    const mark = c.kind === 'broke' ? `✗ ${c.broken}/${c.runs} ◷` : c.kind === 'unbroken' ? `✓ 0/${c.runs} ◷` : MARK[c.kind] ?? '…';
    const label = [mark && el('span', { class: 'rep-mark' }, mark), mark && beside && ' ', beside && el('span', { class: 'rep-word' }, beside)];
    let tip = text;
    if (c.kind === 'fails' || c.kind === 'broke') tip = verdictName(c.verdict, lang) + ' — ' + text;
    else if (c.kind === 'holds') tip = text + ' (' + pick(row.within_text, lang) + ')';
    const props = { class: 'rep-cell k-' + kind, 'data-testid': 'report-cell', 'data-lock': c.lock, 'data-column': c.column, 'data-kind': kind,
      'data-label': pick(col && col.title, lang), title: tip };
    if (c.replay) {
      const b = el('button', { class: 'rep-open', title: fill('repOpenCell', lang, { lock: pick(row.name, lang) || c.lock, column: pick(col.title, lang) }) + ' — ' + tip,
        onclick: () => this.openCell(c) }, ...label);
      return el('td', props, b);
    }
    return el('td', props, ...label);
  }
}
