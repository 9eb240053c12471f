// Check my lock's short form (docs/choosing-a-lock.md): the lock — one of
// the catalog's, or an acquire and a release pasted as Lua or as
// commands — the workload (workers, TTL, work, retry) and the faults the
// user fears. The server writes the scenario (op setup-form,
// scenario.FormYAML); the page puts it in the editor, where the user
// keeps it, and checks it (op setup) on the columns ticked only. A field
// the server refuses is marked, and its error said under the form, in
// the page's language.

import { t, pick } from './i18n.js';
import { el } from './dom.js';
import { serverError } from './messages.js';

// The form's fields, each with its label's key; a textarea for the pasted steps.
const FIELDS = [
  ['lock', 'rfLock'], ['acquire', 'rfAcquire'], ['acquire_ok', 'rfAcquireOK'], ['release', 'rfRelease'],
  ['release_ok', 'rfReleaseOK'], ['workers', 'rfWorkers'], ['ttl', 'rfTTL'], ['work', 'rfWork'], ['retry', 'rfRetry'],
];
// What the form holds at first: a Lua lock that works, for the user to paste over.
const START = {
  acquire: "return redis.call('set', KEYS[1], ARGV[1], 'nx', 'px', ARGV[2])",
  acquire_ok: 'OK',
  release: "if redis.call('get', KEYS[1]) == ARGV[1] then\n  return redis.call('del', KEYS[1])\nend\nreturn 0",
  release_ok: '1', workers: '4', ttl: '1s', work: '500ms', retry: '100ms',
};

/** MineForm drives the form; done(yaml, scenario, faults) is told of the
 * scenario the server wrote. */
export class MineForm {
  constructor(link, get, done) {
    this.link = link;
    this.get = get;
    this.done = done;
    this.$ = (id) => document.getElementById(id);
    this.choices = null; // {locks, columns}, once the server sent them
    this.asked = 0; // the id of the setup-form request with a form
    this.error = null; // the server's error for it, or {local: key}
    this.inputs = {};
    this.$('report-form').addEventListener('toggle', () => { if (this.$('report-form').open) this.ask(); });
  }

  /** ask asks the server for the form's choices, once. */
  ask() {
    if (this.choices || this.waiting) return;
    this.waiting = true;
    this.link.send('setup-form');
  }

  /** open unfolds the form, the keyboard on its first field (once built). */
  open() {
    this.$('report-form').open = true;
    this.ask();
    if (this.choices) this.inputs.lock.focus();
    else this.focusOnBuild = true;
  }

  /** onMessage takes setup-form and the error that answers the form. */
  onMessage(m) {
    if (m.type === 'setup-form') {
      this.waiting = false;
      if (!this.choices) this.build(m.form);
      if (m.re && m.re === this.asked && m.form.yaml) {
        this.asked = 0;
        this.error = null;
        this.$('report-form').open = false;
        this.done(m.form.yaml, m.form.scenario, this.ticked());
      }
      this.render(this.get().lang);
      return true;
    }
    if (m.type === 'error' && this.asked && m.re === this.asked) {
      this.asked = 0;
      this.error = m;
      this.render(this.get().lang);
      return true;
    }
    return false;
  }

  /** build makes the form's controls once, from the server's choices. */
  build(choices) {
    this.choices = choices;
    const lang = this.get().lang;
    const field = (name, control) => {
      control.id = 'rf-' + name;
      control.name = name;
      control.setAttribute('data-testid', 'rf-' + name);
      this.inputs[name] = control;
      return el('label', { class: 'rf-field rf-' + name }, el('span', { class: 'rf-label' }), control);
    };
    const lock = el('select', { onchange: () => this.paste() }, el('option', { value: '' }),
      ...choices.locks.map((l) => el('option', { value: l.id, title: l.id }, pick(l.name, lang))));
    const area = (v) => el('textarea', { rows: 4, spellcheck: false, value: v });
    const text = (v, extra = {}) => el('input', { type: 'text', value: v, size: 8, ...extra });
    const faults = el('fieldset', { class: 'rf-faults', 'data-testid': 'rf-faults' }, el('legend', { id: 'rf-faults-legend' }),
      ...choices.columns.map((c) => el('label', { class: 'rf-fault', title: pick(c.what, lang) },
        el('input', { type: 'checkbox', value: c.id, checked: true, 'data-testid': 'rf-fault' }), el('span', { class: 'rf-fault-name', 'data-column': c.id }))));
    const run = el('button', { type: 'submit', id: 'rf-run', 'data-testid': 'rf-run' });
    const form = el('form', { class: 'rf', noValidate: true, onsubmit: (e) => { e.preventDefault(); this.submit(); },
      oninput: () => { if (this.error) { this.error = null; this.render(this.get().lang); } } },
      el('p', { id: 'rf-hint', class: 'rep-hint' }),
      field('lock', lock),
      el('div', { class: 'rf-steps' }, field('acquire', area(START.acquire)), field('acquire_ok', text(START.acquire_ok)),
        field('release', area(START.release)), field('release_ok', text(START.release_ok))),
      el('div', { class: 'rf-load' }, field('workers', el('input', { type: 'number', min: 1, max: 16, step: 1, value: START.workers })),
        field('ttl', text(START.ttl)), field('work', text(START.work)), field('retry', text(START.retry))),
      faults, el('div', { class: 'rf-go' }, run, el('p', { id: 'rf-error', class: 'rf-error', role: 'alert', 'data-testid': 'rf-error' })));
    this.$('report-form-body').replaceChildren(form);
    if (this.focusOnBuild && this.$('report-form').open) lock.focus();
    this.focusOnBuild = false;
  }

  /** paste shows the pasted steps only when no catalog lock is picked. */
  paste() {
    const own = !this.inputs.lock.value;
    for (const n of ['acquire', 'acquire_ok', 'release', 'release_ok']) this.inputs[n].closest('label').hidden = !own;
  }

  /** ticked are the fault columns ticked. */
  ticked() {
    return [...this.$('report-form-body').querySelectorAll('.rf-fault input:checked')].map((i) => i.value);
  }

  /** submit sends the form for the server to write its scenario. */
  submit() {
    if (!this.ticked().length) {
      this.error = { local: 'rfNoFault' };
      this.render(this.get().lang);
      return;
    }
    const v = (n) => this.inputs[n].value;
    const form = { workers: Number(v('workers')), ttl: v('ttl').trim(), work: v('work').trim(), retry: v('retry').trim() };
    if (v('lock')) form.lock = v('lock');
    else Object.assign(form, { acquire: v('acquire'), acquire_ok: v('acquire_ok').trim(), release: v('release'), release_ok: v('release_ok').trim() });
    this.error = null;
    this.asked = this.link.send('setup-form', { form });
    this.render(this.get().lang);
  }

  /** render says the form in lang: its title, labels, hint and error. */
  render(lang) {
    this.$('report-form-title').textContent = t('rfTitle', lang);
    if (!this.choices) return;
    this.$('rf-hint').textContent = t('rfHint', lang);
    for (const [name, key] of FIELDS) this.inputs[name].closest('label').querySelector('.rf-label').textContent = t(key, lang);
    this.inputs.lock.options[0].textContent = t('rfPaste', lang);
    for (const o of [...this.inputs.lock.options].slice(1)) {
      const l = this.choices.locks.find((x) => x.id === o.value);
      o.textContent = pick(l.name, lang);
    }
    this.$('rf-faults-legend').textContent = t('rfFaults', lang);
    for (const s of this.$('report-form-body').querySelectorAll('.rf-fault-name')) {
      const c = this.choices.columns.find((x) => x.id === s.dataset.column);
      s.textContent = pick(c.name, lang);
      s.parentElement.title = pick(c.what, lang);
    }
    this.$('rf-run').textContent = t('rfRun', lang);
    this.$('rf-run').disabled = !!this.asked;
    const e = this.error, bad = e && e.code === 'bad-argument' && e.args ? e.args.arg : '';
    for (const [name] of FIELDS) this.inputs[name].setAttribute('aria-invalid', String(name === bad));
    this.$('rf-error').textContent = !e ? '' : e.local ? t(e.local, lang) : serverError(e, lang);
  }
}
