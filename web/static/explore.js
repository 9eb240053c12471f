// "Find a bad schedule": the server searches the loaded scenario's
// schedules (docs/explore.md) while this panel shows its progress; a
// found schedule arrives as the session's new run, ready to step back
// through, the events its moves produced marked on the timeline.

import { fill, verdictName, pick, serverError } from './i18n.js';

const LIMIT_MS = 10000; // the server's time budget per search

/** Explore drives the panel: find, cancel, progress, result. */
export class Explore {
  constructor(link, lang) {
    this.link = link;
    this.lang = lang; // () => 'en' | 'zh'
    this.$ = (id) => document.getElementById(id);
    this.started = 0;
    this.found = null; // { scenario, marks: Set of seqs, yaml, said: {v, n, m, s} } of the last loaded search result
    // The budget typed for each scenario: it belongs to the scenario it
    // was typed for, and another scenario starts from its own (empty: the
    // budget its own faults make).
    this.budgets = new Map();
    this.for = null; // the scenario the budget field is for
    this.$('explore-go').onclick = () => {
      this.link.send('explore', { strategy: this.$('explore-strategy').value, budget: this.$('explore-budget').value.trim() });
    };
    this.$('explore-cancel').onclick = () => this.link.send('explore-cancel');
    this.relabel();
  }

  /** tr gives a panel string (the catalogue's explore… keys) in the page's language. */
  tr(key, vars = {}) {
    return fill('explore' + key[0].toUpperCase() + key.slice(1), this.lang(), vars);
  }

  /** relabel sets the panel's texts in the page's language. */
  relabel() {
    this.$('explore-title').textContent = this.tr('title');
    this.$('explore-go').textContent = this.tr('find');
    this.$('explore-cancel').textContent = this.tr('cancel');
    this.$('explore-budget').placeholder = this.tr('budget');
    this.$('explore-budget').setAttribute('aria-label', this.tr('budgetLabel'));
    this.$('explore-strategy').setAttribute('aria-label', this.tr('strategy'));
    for (const o of this.$('explore-strategy').options) {
      if (o.value !== 'pct') o.textContent = this.tr(o.value);
    }
    if (this.said) this.status(this.said);
  }

  /** follow keeps the budget field to the loaded scenario: on a change of
   * scenario the typed budget is kept for the one left, and the field
   * shows the new one's (empty if none was typed for it). */
  follow(snap) {
    const id = snap ? snap.scenario : null;
    if (id === this.for) return;
    const field = this.$('explore-budget');
    if (this.for != null) this.budgets.set(this.for, field.value);
    field.value = (id != null && this.budgets.get(id)) || '';
    this.for = id;
  }

  /** found says a found run: the verdict, the count, and in plain words
   * what the schedule is. */
  foundText(f) {
    return this.tr('found', { v: verdictName(f.v, this.lang()), n: f.n, m: f.m }) + (f.s ? ' ' + pick(f.s, this.lang()) : '');
  }

  /** strategyName names a strategy in the page's language. */
  strategyName(s) {
    return s === 'pct' ? 'PCT' : this.tr(s || 'random');
  }

  /** marks gives the events the search's moves produced, to mark on the
   * timeline, while snap is the run it loaded; else an empty set. */
  marks(snap) {
    return this.found && snap && snap.scenario === this.found.scenario ? this.found.marks : new Set();
  }

  /** shared is what a share link carries of the search's result while
   * snap is the run it loaded (f: the verdict, schedules, moves and the
   * marked events), else nothing. */
  shared(snap) {
    if (!this.found || !snap || snap.scenario !== this.found.scenario) return {};
    const f = this.found.said;
    return { f: { v: f.v, n: f.n, m: f.m, k: [...this.found.marks], ...(f.s ? { s: f.s } : {}) } };
  }

  /** restore shows a search's result from a share link (f, as shared
   * gives it) for the run loaded from it. */
  restore(f, scenario) {
    if (!f || typeof f !== 'object') return;
    const k = Array.isArray(f.k) ? f.k.filter(Number.isInteger) : [];
    const story = f.s && typeof f.s === 'object' ? { en: String(f.s.en || ''), zh: String(f.s.zh || '') } : null;
    this.found = { scenario, marks: new Set(k), yaml: '', said: { v: String(f.v || ''), n: Number(f.n) || 0, m: Number(f.m) || 0, s: story } };
    this.status(() => this.foundText(this.found.said));
    this.$('explore-status').dataset.verdict = this.found.said.v;
  }

  busy(on) {
    this.$('explore-go').disabled = on;
    this.$('explore-cancel').disabled = !on;
    this.$('explore-bar').hidden = !on;
  }

  /** status shows what say() tells, and says it again on a language change. */
  status(say) {
    this.said = say;
    this.$('explore-status').textContent = say();
  }

  /** onMessage handles explore-* messages; false for any other. */
  onMessage(m) {
    const x = m.extra || {};
    switch (m.type) {
      case 'explore-started':
        this.started = performance.now();
        this.busy(true);
        this.$('explore-bar').value = 0;
        this.status(() => this.tr('searching'));
        return true;
      case 'explore-progress': {
        const ms = performance.now() - this.started;
        this.$('explore-bar').value = Math.min(1, ms / LIMIT_MS);
        this.status(() => this.tr('progress', { n: x.schedules, d: x.distinct, s: (ms / 1000).toFixed(1) }) + (x.best ? ' — ' + x.best : ''));
        return true;
      }
      case 'explore-cancelling':
        return true;
      case 'explore-done':
        this.busy(false);
        const said = { v: x.verdict, n: x.schedules, m: (x.moves || []).length, s: x.story || null };
        // A "none found" always says how far the search went, and is a
        // proof only when the exhaustive search covered every schedule.
        const bound = () => pick(x.bound || { en: '', zh: '' }, this.lang());
        if (m.error) this.status(() => this.tr('failed', { e: serverError(m, this.lang()) }));
        else if (x.verdict) this.status(() => this.foundText(said));
        else if (x.cancelled) this.status(() => this.tr('cancelled', { n: x.schedules }));
        else if (x.complete) this.status(() => this.tr('all', { n: x.schedules, b: bound() }));
        else if (x.strategy === 'exhaustive') this.status(() => this.tr('partial', { n: x.schedules, b: bound() }));
        else this.status(() => this.tr('sampled', { n: x.schedules, s: this.strategyName(x.strategy), b: bound() }));
        this.$('explore-status').dataset.verdict = x.verdict || '';
        this.$('explore-status').dataset.proof = String(!!(x.complete && !x.verdict && !m.error));
        if (x.scenario) this.found = { scenario: x.scenario, marks: new Set(x.marks || []), yaml: x.yaml || '', said };
        return true;
    }
    return false;
  }
}
