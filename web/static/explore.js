// "Find a bad schedule": the server searches the loaded scenario's
// schedules (docs/explore.md) while this panel shows its progress; a
// found schedule arrives as the session's new run, ready to step back
// through, the events its moves produced marked on the timeline.

import { fill, verdictName } from './i18n.js';

const LIMIT_MS = 10000; // the server's time budget per search

/** Explore drives the panel: find, cancel, progress, result. */
export class Explore {
  constructor(link, lang) {
    this.link = link;
    this.lang = lang; // () => 'en' | 'zh'
    this.$ = (id) => document.getElementById(id);
    this.started = 0;
    this.found = null; // { scenario, marks: Set of seqs, yaml, said: {v, n, m} } of the last loaded search result
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
    return { f: { v: f.v, n: f.n, m: f.m, k: [...this.found.marks] } };
  }

  /** restore shows a search's result from a share link (f, as shared
   * gives it) for the run loaded from it. */
  restore(f, scenario) {
    if (!f || typeof f !== 'object') return;
    const k = Array.isArray(f.k) ? f.k.filter(Number.isInteger) : [];
    this.found = { scenario, marks: new Set(k), yaml: '', said: { v: String(f.v || ''), n: Number(f.n) || 0, m: Number(f.m) || 0 } };
    this.status(() => this.tr('found', { v: verdictName(this.found.said.v, this.lang()), n: this.found.said.n, m: this.found.said.m }));
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
        if (m.error) this.status(() => this.tr('failed', { e: m.error }));
        else if (x.verdict) this.status(() => this.tr('found', { v: verdictName(x.verdict, this.lang()), n: x.schedules, m: (x.moves || []).length }));
        else if (x.cancelled) this.status(() => this.tr('cancelled', { n: x.schedules }));
        else this.status(() => this.tr(x.complete ? 'all' : 'none', { n: x.schedules }));
        this.$('explore-status').dataset.verdict = x.verdict || '';
        if (x.scenario) this.found = { scenario: x.scenario, marks: new Set(x.marks || []), yaml: x.yaml || '', said: { v: x.verdict, n: x.schedules, m: (x.moves || []).length } };
        return true;
    }
    return false;
  }
}
