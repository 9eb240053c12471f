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
//
// Check my lock (mode 'mine') draws the card for the setup of one scenario
// in the same view: the server computes it for the session (op setup),
// the user's locks first, each ✓ and ~ with the user's workload beside
// it, then What to use instead, each with a Side by side button, and the
// card as Markdown to download for a design review. Opened from the
// header, it first asks what to check (minestart.js): the scenario
// loaded, or a lock described in its short form (mineform.js), which
// writes a scenario from a lock and a workload, which the editor keeps,
// and checks it on the faults ticked. No card runs before the answer.

import { t, fill, pick, verdictWord, verdictName } from './i18n.js';
import { el } from './dom.js';
import { serverError } from './messages.js';
import { download } from './share.js';
import { MineForm } from './mineform.js';
import { holdText } from './editor.js';
import { instead } from './stepcode.js';
import { MineStart } from './minestart.js';
import { liveTables } from './reportlive.js';

const MARK = { fails: '✗', holds: '✓', 'none-found': '~', unsearched: '?', 'n/a': '' };
// The word said beside a mark (none for ✗ and ✓: a verdict, a bound).
const WORD = { 'none-found': 'repNoneFound', unsearched: 'repNotSearched', 'n/a': 'repNA' };

/** Report drives the view. */
export class Report {
  /** link sends requests; get gives the page's state. */
  constructor(link, get, compare) {
    this.link = link;
    this.get = get;
    this.compare = compare; // compare(lock): Side by side of the loaded run with lock
    this.$ = (id) => document.getElementById(id);
    this.card = null; // the card as last known (rows, cells, done, total)
    this.mode = 'catalog'; // or 'mine': the card for the user's setup
    this.mine = null; // that card as last known
    this.checked = null; // what it checks: {scenario, yaml} (yaml '' for a catalog or lab scenario)
    this.asked = 0; // the id of the setup request, until its first answer
    this.mineError = null; // the error that answered it, if any
    this.comparing = null; // Side by side asked with this lock, once the checked scenario is loaded
    this.opening = false; // a cell was asked to open: close on the next state
    this.$('report-open').onclick = () => this.toggle();
    this.$('report-close').onclick = () => this.toggle(false);
    this.$('report-cancel').onclick = () => this.link.send('setup-cancel');
    this.$('report-export').onclick = () => this.download();
    this.$('report-export-html').onclick = () => this.download('html');
    this.next = null; // a check asked while a card ran: sent once that card's setup-done came
    this.codeOpen = {}; // the alternatives' code folded out, by lock
    this.form = new MineForm(link, get, (yaml, scenario, faults) => { holdText(yaml); this.ask({ yaml, scenario, faults }); });
    this.choosing = false; // the question of what to check is shown, no card asked yet
    this.question = new MineStart(this.$('report-start'), () => this.ask({}), () => {
      if (this.$('report-form').open) this.$('report-form').open = false;
      else this.form.open();
      this.render();
    });
  }

  /** begin opens Check my lock: the card kept for the run loaded, or
   * the question of what to check, nothing run yet (the form's choices
   * asked for, so that it opens at once). */
  begin() {
    if (this.keeps()) return this.check();
    this.mode = 'mine';
    this.choosing = true;
    this.form.ask();
    this.show(true);
    this.render();
    this.question.focus();
  }

  /** ask checks the setup the user chose, the card still running
   * cancelled first. */
  ask(args) {
    this.choosing = false;
    if (!(this.mine && this.mine.running)) return this.check(args);
    this.next = args;
    this.link.send('setup-cancel');
    this.render();
  }

  /** keeps tells whether the card last made is the loaded run's: of its
   * scenario, or of the scenario whose counterexample it is. */
  keeps() {
    const snap = this.get().snap, m = this.mine;
    return !!(m && !m.error && snap && (snap.scenario === m.scenario || snap.scenario.startsWith('mine-' + m.scenario + '-')));
  }

  get open() { return !this.$('report').hidden; }

  /** toggle shows or hides the view; the first show asks for the card. */
  toggle(on = !this.open) {
    if (on) this.mode = 'catalog';
    this.show(on);
    if (on && (!this.card || this.card.error)) this.link.send('report');
    this.render();
  }

  show(on) {
    this.$('report').hidden = !on;
    document.body.classList.toggle('reporting', on);
    this.$('report-open').setAttribute('aria-pressed', String(on && this.mode === 'catalog'));
  }

  /** check asks for the card for a setup: of the loaded scenario (no
   * yaml), or of scenario `scenario` of the file `yaml`, on the fault
   * columns `faults` (none: every one). */
  check(args = {}) {
    const st = this.get();
    this.mode = 'mine';
    this.choosing = false;
    // The card kept for the loaded run is shown again (a card that
    // stopped is asked for anew).
    if (!args.yaml && this.keeps()) {
      this.show(true);
      this.render();
      return;
    }
    this.mine = null;
    this.mineError = null;
    this.checked = args.yaml ? { scenario: args.scenario || '', yaml: args.yaml }
      : { scenario: st.snap ? st.snap.scenario : '', yaml: st.snap && st.snap.custom ? st.customYAML : '' };
    const faults = args.faults && args.faults.length ? { faults: args.faults } : {};
    this.asked = this.link.send('setup', args.yaml ? { yaml: args.yaml, scenario: args.scenario || '', ...faults } : faults);
    this.show(true);
    this.render();
  }

  /** sideBySide compares the checked scenario with lock: loaded first
   * when another run is loaded (a counterexample opened, another lesson). */
  sideBySide(lock) {
    const st = this.get(), want = (this.mine && this.mine.scenario) || this.checked.scenario;
    this.show(false);
    if (st.snap && st.snap.scenario === want && !this.checked.yaml === !st.snap.custom) {
      this.compare(lock);
      return;
    }
    this.comparing = { lock, scenario: want };
    if (this.checked.yaml) st.customYAML = this.checked.yaml;
    this.link.send('load', { scenario: want, yaml: this.checked.yaml });
  }

  /** afterState is told of every state the page took: the checked
   * scenario loaded for Side by side is compared now. */
  afterState(snap) {
    if (this.comparing && snap && snap.scenario === this.comparing.scenario) {
      const lock = this.comparing.lock;
      this.comparing = null;
      this.compare(lock);
    }
  }

  /** download saves the checked card as Markdown, or as the HTML page
   * that opens offline. */
  download(as = 'markdown') {
    if (!this.mine || !this.mine[as]) return;
    if (as === 'html') download(this.mine.html_name, this.mine.html, 'text/html');
    else download(this.mine.name, this.mine.markdown, 'text/markdown');
  }

  /** onMessage takes the report messages; false for any other. A state
   * after a cell was opened closes the view on the timeline. */
  onMessage(m) {
    if (this.form.onMessage(m)) return true;
    switch (m.type) {
      case 'setup':
      case 'setup-done':
        this.asked = 0;
        this.mine = m.setup;
        if (m.type === 'setup-done' && this.next) {
          const next = this.next;
          this.next = null;
          this.check(next);
          return true;
        }
        this.render();
        return true;
      case 'setup-cell':
        if (this.mine) merge(this.mine, m);
        this.render();
        return true;
      case 'setup-cancelling':
        return true;
      case 'report':
      case 'report-done':
        this.card = m.report;
        this.render();
        return true;
      case 'report-cell':
        if (this.card) merge(this.card, m);
        this.render();
        return true;
      case 'state':
        if (this.opening) {
          this.opening = false;
          this.toggle(false);
        }
        return false;
      case 'error':
        this.opening = false;
        this.comparing = null;
        if (this.asked && m.re === this.asked) {
          this.asked = 0;
          this.mineError = m;
          this.render();
        }
        return false;
    }
    return false;
  }

  /** openCell loads a cell's schedule as the session's run. */
  openCell(c) {
    this.opening = true;
    // A card of the editor's file: the picker offers that file's
    // scenarios beside the counterexample, loaded from its text.
    if (this.mode === 'mine' && this.checked && this.checked.yaml) this.get().customYAML = this.checked.yaml;
    this.link.send(this.mode === 'mine' ? 'setup-open' : 'report-open', { lock: c.lock, column: c.column });
  }

  render() {
    if (!this.open) return;
    const lang = this.get().lang;
    this.$('report-close').textContent = t('close', lang);
    this.$('report-searched').textContent = t('repSearched', lang);
    this.$('report').dataset.mode = this.mode;
    this.$('report').classList.toggle('mine', this.mode === 'mine');
    this.$('report').classList.toggle('choosing', this.mode === 'mine' && this.choosing);
    this.$('report-start').hidden = !(this.mode === 'mine' && this.choosing);
    this.$('report-cancel').hidden = !(this.mode === 'mine' && this.mine && this.mine.running);
    this.$('report-cancel').textContent = t('repMineCancel', lang);
    const exp = this.$('report-export');
    exp.hidden = !(this.mode === 'mine' && this.mine && this.mine.markdown);
    exp.textContent = t('repMineExport', lang);
    exp.title = t('repMineExportTip', lang);
    const page = this.$('report-export-html');
    page.hidden = !(this.mode === 'mine' && this.mine && this.mine.html);
    page.textContent = t('repMineExportHTML', lang);
    page.title = t('repMineExportHTMLTip', lang);
    this.$('report-setup').hidden = this.mode !== 'mine';
    this.$('report-instead').hidden = this.mode !== 'mine';
    this.$('report-form').hidden = this.mode !== 'mine';
    if (this.mode === 'mine') this.form.render(lang);
    if (this.mode === 'mine') this.renderMine(lang);
    else this.renderCatalog(lang);
  }

  renderCatalog(lang) {
    const card = this.card;
    this.$('report-title').textContent = t('repTitle', lang);
    this.$('report-hint').textContent = t('repHint', lang);
    this.$('report-legend').textContent = t('repLegend', lang);
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

  /** renderMine draws the card for the user's setup: its status, the
   * setup, the grid and What to use instead. */
  renderMine(lang) {
    if (this.choosing) {
      this.$('report-title').textContent = t('repMine', lang);
      return this.question.render(lang, this.get().snap, this.$('report-form').open);
    }
    const card = this.mine, checked = this.checked || {};
    this.$('report-title').textContent = fill('repMineTitle', lang, { id: (card && card.scenario) || checked.scenario || '' });
    this.$('report-hint').textContent = t('repMineHint', lang);
    this.$('report-legend').textContent = card ? pick(card.legend, lang) : '';
    const bar = this.$('report-bar'), status = this.$('report-status'), setup = this.$('report-setup');
    setup.textContent = card && card.setup && card.setup.en ? fill('repMineSetup', lang, { s: pick(card.setup, lang) }) : '';
    this.$('report-bound').textContent = setup.textContent;
    if (!card) {
      bar.value = 0;
      bar.hidden = !!this.mineError;
      status.dataset.state = this.mineError ? 'error' : 'running';
      status.textContent = this.mineError ? fill('repMineStopped', lang, { e: serverError(this.mineError, lang) }) : t('repMineStarting', lang);
      this.$('report-body').replaceChildren();
      instead(this.$('report-instead'), null, lang);
      return;
    }
    const total = card.total || 0, done = card.done || 0;
    bar.value = total ? done / total : 0;
    bar.hidden = !card.running;
    status.dataset.state = card.error ? 'error' : card.running ? 'running' : 'done';
    if (card.error) status.textContent = fill('repMineStopped', lang, { e: serverError(card.error, lang) });
    else if (!card.running) status.textContent = fill('repMineDone', lang, { n: total });
    else if (!total) status.textContent = t('repMineStarting', lang);
    else status.textContent = fill('repMineProgress', lang, { n: done, total, w: card.workers, limit: card.limit });
    this.draw(card, lang);
    instead(this.$('report-instead'), card, lang, (lock) => this.sideBySide(lock), this.codeOpen);
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
    if (card.live && card.live.length) body.append(...liveTables(card, cols, lang, (r) => this.row(r, cols, lang)));
  }

  /** row is one lock's line: its name (a button that opens the row in
   * full), its cells, its round trips, needs and advice. */
  row(r, cols, lang) {
    const tr = el('tr', { 'data-lock': r.lock, class: r.yours ? 'yours' : '' });
    const name = (pick(r.name, lang) || r.lock) + (r.yours ? ' (' + t('repMineYours', lang) + ')' : '');
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
    if (c.kind === 'none-found' && this.mode === 'mine') beside += ' · ' + pick(row.within, lang);
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

/** merge takes a decided cell (a report-cell or setup-cell message) into
 * a card. */
function merge(card, m) {
  const c = m.cell;
  for (const r of card.rows || []) {
    if (r.lock !== c.lock) continue;
    r.cells = r.cells.map((x) => (x.column === c.column ? c : x));
  }
  card.done = Math.max(card.done || 0, m.done);
  card.total = m.total;
}
