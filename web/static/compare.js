// Side by side: the loaded run and a second algorithm (or a lesson with
// the same clients) under the same schedule of client moves and faults
// (docs/compare.md). The server runs both to their end and answers with
// both sides' rows; this view draws them as two timelines with the main
// timeline's renderer, rows aligned (sides.js), marks the first row where
// they part on both, and keeps a cursor on each side at the session's
// step: stepping and seeking the run moves both. "Rows as text" shows the
// same rows as two columns of text instead.

import { t, fill, pick, verdictName, serverError } from './i18n.js';
import { clientColor } from './lanes.js';
import { el } from './dom.js';
import { describe, fmtTime } from './format.js';
import { Sides } from './sides.js';
import { alikeGroup, liveNotes } from './comparelive.js';

/** keyOf names the run a comparison was made of: when the session's
 * scenario, seed or recorded actions change, the comparison is redone. */
function keyOf(snap) {
  return snap ? JSON.stringify([snap.scenario, snap.seed, snap.actions || [], snap.custom]) : '';
}

/** Compare drives the side-by-side view. */
export class Compare {
  /** link sends requests; get gives the page's state; seek moves the
   * session's cursor to a step. */
  constructor(link, get, seek) {
    this.link = link;
    this.get = get;
    this.seek = seek;
    this.$ = (id) => document.getElementById(id);
    this.res = null; // the last answer
    this.key = ''; // the run it was made of
    this.asked = null; // the with of the request in flight, if any
    this.choice = ''; // the picker's choice ('' : the canonical pair)
    this.error = null;
    this.shown = null; // what the table was drawn from: [answer, lang, step, ended]
    this.text = false; // the rows as text (the table) instead of drawn
    this.sides = new Sides(this.$('compare-draw'), (step) => this.seek(step));
    this.$('compare-text').onclick = () => {
      this.text = !this.text;
      this.shown = null;
      this.render();
    };
    this.$('compare-first').onclick = () => {
      if (this.text) {
        const first = this.$('compare-body').querySelector('[data-testid="compare-divergence"]');
        if (first) { first.scrollIntoView({ block: 'center' }); const b = first.querySelector('button'); if (b) b.focus({ preventScroll: true }); }
      } else this.sides.toFirst();
    };
    this.$('compare-open').onclick = () => this.toggle();
    this.$('compare-close').onclick = () => this.toggle(false);
    this.$('compare-go').onclick = () => this.ask(this.$('compare-with').value);
    // A pick is the choice at once: a render before Compare is pressed (a
    // message, a step) keeps it in the picker instead of putting the last
    // answer's back.
    this.$('compare-with').onchange = (e) => { this.choice = e.target.value; };
  }

  get open() { return !this.$('compare').hidden; }

  /** show opens the view on the loaded run compared with choice (an
   * algorithm or a lesson id, '' the canonical pair): a share link's. */
  show(choice) {
    this.choice = typeof choice === 'string' ? choice : '';
    this.key = keyOf(this.get().snap); // this run: again() keeps the choice
    this.res = null;
    this.toggle(true);
  }

  /** shared is what a share link carries of the view: cmp, the choice,
   * while it is open. */
  shared() {
    return this.open ? { cmp: this.choice } : {};
  }

  /** toggle shows or hides the view; shown, it compares the run at once. */
  toggle(on = !this.open) {
    this.$('compare').hidden = !on;
    document.body.classList.toggle('comparing', on);
    this.$('compare-open').setAttribute('aria-pressed', String(on));
    const snap = this.get().snap;
    if (on && (!this.res || this.key !== keyOf(snap))) this.again(snap);
    this.render();
  }

  /** again compares a run that changed since the last answer: another
   * scenario starts from its own canonical pair; the same one (another
   * seed, a move by hand) keeps the choice. */
  again(snap) {
    if (snap && JSON.parse(this.key || '[]')[0] !== snap.scenario) this.choice = '';
    this.ask(this.choice);
  }

  /** ask compares the session's run with an algorithm or a lesson id
   * ('' : the canonical pair's other side). */
  ask(w) {
    const snap = this.get().snap;
    if (!snap) return;
    this.choice = w;
    this.asked = w;
    this.error = null;
    this.key = keyOf(snap);
    this.link.send('compare', w ? { with: w } : {});
    this.render();
  }

  /** onMessage takes the compare answer; false for any other message. An
   * error while a comparison is asked for is shown here too. */
  onMessage(m) {
    if (m.type === 'error' && this.asked != null) {
      this.asked = null;
      this.error = m;
      this.render();
      return false; // the page toasts it as well
    }
    if (m.type !== 'compare') return false;
    this.asked = null;
    this.res = m.compare || null;
    if (this.res && this.res.with) this.choice = this.res.with;
    this.render();
    return true;
  }

  /** render draws the view for the page's state (it is called on every
   * render of the page). A run that changed under the comparison (another
   * scenario, seed, or a move by hand) is compared again. */
  render() {
    if (!this.open) return;
    const st = this.get(), lang = st.lang, snap = st.snap;
    this.$('compare-title').textContent = t('cmpTitle', lang);
    this.$('compare-go').textContent = t('cmpGo', lang);
    this.$('compare-close').textContent = t('close', lang);
    this.$('compare-text').textContent = t('cmpText', lang);
    this.$('compare-text').title = t('cmpTextTip', lang);
    this.$('compare-text').setAttribute('aria-pressed', String(this.text));
    this.$('compare-first').textContent = t('cmpFirst', lang);
    this.$('compare-with').setAttribute('aria-label', t('cmpWith', lang));
    this.$('compare-with-label').textContent = t('cmpWith', lang);
    if (snap && this.res && this.asked == null && this.key !== keyOf(snap)) {
      this.again(snap);
      return;
    }
    this.renderPicker(st);
    const status = this.$('compare-status');
    const body = this.$('compare-body');
    const r = this.asked == null && !this.error ? this.res : null;
    const draw = this.$('compare-draw');
    this.$('compare-first').hidden = !(r && r.left && r.diverge >= 0);
    if (!r || !r.left) {
      this.shown = null;
      this.headsOf = null;
      body.textContent = '';
      draw.hidden = true;
      this.$('compare-schedule').textContent = '';
      this.$('compare-notes').hidden = true;
      if (this.asked != null) status.textContent = t('cmpRunning', lang);
      else if (this.error) status.textContent = serverError(this.error, lang); // its code's sentence, in lang
      else status.textContent = t('cmpPick', lang);
      return;
    }
    status.textContent = r.diverge < 0
      ? fill('cmpSame', lang, { n: r.left.rows.length })
      : fill('cmpDiverge', lang, { row: r.diverge + 1 });
    status.dataset.diverge = String(r.diverge + 1);
    this.renderFaults(r, lang);
    body.hidden = !this.text;
    draw.hidden = this.text;
    if (!this.text) {
      this.shown = null;
      body.textContent = '';
      this.drawn(st, r);
      return;
    }
    // One form at a time in the page: the verdicts are the table's now.
    if (this.headsOf) {
      this.headsOf = null;
      for (const key of ['left', 'right']) this.sides.head[key].textContent = '';
    }
    // The table is rebuilt only when what it shows changes (the answer, the
    // language, the session's step): the page renders on every selection
    // and every message, and a table has a row per event of both runs.
    const shown = [r, lang, snap ? snap.step : 0, !!(snap && snap.ended)];
    if (this.shown && shown.every((x, i) => x === this.shown[i])) return;
    this.shown = shown;
    body.textContent = '';
    body.append(this.table(st, r));
    const first = body.querySelector('[data-testid="compare-divergence"]');
    const cur = body.querySelector('.cmp-cell.l.cursor');
    if (this.follow !== keyOf(snap) + snap.step && (cur || first)) {
      this.follow = keyOf(snap) + snap.step;
      (cur || first).scrollIntoView({ block: 'nearest' });
    }
  }

  /** drawn shows the two runs as timelines (sides.js), each under its
   * name and its verdicts. */
  drawn(st, r) {
    const snap = st.snap, lang = st.lang;
    const unfair = r.fair === false;
    const v = { res: r, lang, presenter: !!st.presenter, step: snap ? snap.step : 0, ended: !!(snap && snap.ended), clients: (snap && snap.clients) || [], unfair };
    const heads = [r, lang, v.ended];
    if (!this.headsOf || !heads.every((x, i) => x === this.headsOf[i])) {
      this.headsOf = heads;
      for (const [side, key] of [[r.left, 'left'], [r.right, 'right']]) {
        const box = this.sides.head[key];
        box.textContent = '';
        const name = (key === 'left' ? t('cmpLeft', lang) : t('cmpRight', lang)) + ' — ' + (pick(side.title, lang) || side.id);
        box.append(el('div', { class: 'cmp-name', title: name }, name));
        box.append(this.verdicts(side, key, lang, v.ended, key === 'right' && unfair));
      }
    }
    this.sides.set(v);
    // The view follows the session's step: the left's newest reached row
    // and the row after it (where its "now" line is) come into view when
    // the step changes, and the right's too when both fit (the right
    // first, so that the left's wins when they do not).
    const at = keyOf(snap) + (snap ? snap.step : 0);
    if (this.follow !== at) {
      this.follow = at;
      const next = (s) => Math.min(this.sides.cursor(s) + 1, r[s].rows.length - 1);
      requestAnimationFrame(() => {
        this.sides.reveal(next('right'));
        this.sides.reveal(next('left'));
      });
    }
  }

  /** renderFaults lists the left's faults with where the right placed
   * each (by meaning, not by step), and puts what the right could not face
   * as the left did in a warning above the table. */
  renderFaults(r, lang) {
    const sched = this.$('compare-schedule');
    sched.textContent = '';
    const faults = r.faults || [];
    if (!r.live) sched.append(fill('cmpSeed', lang, { seed: r.seed }) + ' '); // a live side has no seed
    if (!faults.length) sched.append(t('cmpNoFaults', lang));
    else sched.append(t('cmpFaults', lang) + ' ');
    faults.forEach((f, i) => {
      if (i) sched.append('; ');
      sched.append(pick(f.fault, lang) + ' — ' + pick(f.where, lang) + ' ');
      sched.append(el('span', { class: f.placed ? 'placed-yes' : 'placed-no', 'data-placed': String(f.placed) },
        f.placed ? t('cmpPlaced', lang) : t('cmpNotPlaced', lang)));
    });
    // Each keeps one line over the timelines (compare.css), whole in its
    // tooltip and under the pointer or the focus.
    sched.title = sched.textContent;
    const box = this.$('compare-notes');
    box.textContent = '';
    const notes = r.notes || [];
    box.hidden = notes.length === 0 && !r.live && r.fair !== false;
    box.dataset.fair = String(r.fair !== false);
    box.append(...liveNotes(r, lang));
    if (r.fair === false) box.append(el('p', { class: 'unfair' }, t('cmpUnfair', lang)));
    for (const n of notes) box.append(el('p', {}, pick(n, lang)));
    box.title = [...box.children].map((p) => p.textContent).join('\n');
  }

  /** renderPicker fills the picker: the canonical pair first, then the
   * algorithms by family (catalog order), then the lessons that have the
   * same clients as this run (a lesson with other clients cannot run
   * against the same faults, so it is not offered). */
  renderPicker(st) {
    const sel = this.$('compare-with');
    const r = this.res, lang = st.lang;
    const groups = (r && r.groups) || ((r && r.algorithms) ? [{ title: { en: t('cmpAlgorithms', 'en'), zh: t('cmpAlgorithms', 'zh') }, ids: r.algorithms }] : []);
    const mine = ((st.snap && st.snap.clients) || []).slice().sort().join(',');
    const lessons = (st.catalog || []).filter((c) => !c.live && (!mine || (c.clients || []).slice().sort().join(',') === mine));
    const sig = JSON.stringify([groups, lessons.map((c) => c.id), lang, r && r.partner, r && r.alike]);
    if (sel.dataset.sig !== sig) {
      sel.dataset.sig = sig;
      sel.textContent = '';
      if (r && r.partner) sel.append(el('option', { value: r.partner }, fill('cmpPair', lang, { with: r.partner })));
      const alike = alikeGroup(r, st.catalog, lang);
      if (alike) sel.append(alike);
      for (const g of groups) {
        const og = el('optgroup', { label: pick(g.title, lang), 'data-group': g.ids[0] || '' });
        for (const a of g.ids) og.append(el('option', { value: a }, a));
        sel.append(og);
      }
      if (lessons.length) {
        const g = el('optgroup', { label: fill('cmpLessonsSame', lang, { clients: mine.split(',').join(', ') }), 'data-group': 'lessons' });
        for (const c of lessons) g.append(el('option', { value: c.id }, pick(c.title, lang) || c.id));
        sel.append(g);
      }
    }
    if (this.choice && [...sel.options].some((o) => o.value === this.choice)) sel.value = this.choice;
  }

  /** table is the two timelines: one row per row of either log, the
   * left's and the right's events side by side, the rows each side has
   * reached at the session's step lit, its latest marked as its cursor. */
  table(st, r) {
    const lang = st.lang, snap = st.snap;
    const step = snap ? snap.step : 0, ended = snap && snap.ended;
    const reached = (row) => row && (ended || row.at <= step);
    const last = (rows) => { let i = -1; rows.forEach((x, j) => { if (reached(x)) i = j; }); return i; };
    const curL = last(r.left.rows), curR = last(r.right.rows);
    const tb = el('table', { class: 'cmp-table' });
    const head = el('tr', {}, el('th', { class: 'n' }, '#'));
    for (const [side, key] of [[r.left, 'left'], [r.right, 'right']]) {
      const th = el('th', { class: 'cmp-side' });
      th.append(el('div', { class: 'cmp-name' }, (key === 'left' ? t('cmpLeft', lang) : t('cmpRight', lang)) + ' — ' + (pick(side.title, lang) || side.id)));
      th.append(this.verdicts(side, key, lang, ended, key === 'right' && r.fair === false));
      head.append(th);
    }
    tb.append(el('thead', {}, head));
    const body = el('tbody');
    const n = Math.max(r.left.rows.length, r.right.rows.length);
    // On a phone a row the same on both sides is one cell across both:
    // two columns of a few words each wrapped every command over lines.
    const phone = window.matchMedia('(max-width: 600px)').matches;
    for (let i = 0; i < n; i++) {
      const a = r.left.rows[i], b = r.right.rows[i];
      const same = a && b && a.text === b.text;
      if (phone && same && (i === curL) === (i === curR) && reached(a) === reached(b)) {
        const tr = el('tr', { class: 'cmp-row same both' + (i === r.diverge ? ' first' : ''), 'data-row': String(i + 1) });
        const td = this.cell(st, a, 'l', i === curL, reached(a));
        td.colSpan = 2;
        td.classList.add('both');
        tr.append(el('td', { class: 'n' }, String(i + 1)), td);
        body.append(tr);
        continue;
      }
      const tr = el('tr', { class: 'cmp-row' + (same ? ' same' : ' differs') + (i === r.diverge ? ' first' : ''), 'data-row': String(i + 1) });
      if (i === r.diverge) tr.setAttribute('data-testid', 'compare-divergence');
      tr.append(el('td', { class: 'n' }, String(i + 1)));
      tr.append(this.cell(st, a, 'l', i === curL, reached(a)));
      tr.append(this.cell(st, b, 'r', i === curR, reached(b)));
      body.append(tr);
    }
    tb.append(body);
    return tb;
  }

  cell(st, row, side, cursor, reached) {
    const td = el('td', { class: 'cmp-cell ' + side + (cursor ? ' cursor' : '') + (row && !reached ? ' future' : '') });
    if (cursor) td.setAttribute('data-testid', side === 'l' ? 'compare-cursor-left' : 'compare-cursor-right');
    if (!row) { td.append(el('span', { class: 'muted' }, t('cmpNoRow', st.lang))); return td; }
    if (row.client) td.style.borderLeftColor = clientColor(st.model, row.client);
    td.classList.add('k-' + row.kind);
    // In Chinese the row is written in the reader's words (the main
    // timeline's describe); the canonical line it is compared by stays in
    // data-text and its tooltip.
    const btn = el('button', { class: 'cmp-text', title: t('cmpSeek', st.lang) + '\n' + row.text, 'data-text': row.text, onclick: () => this.seek(row.at) });
    if (st.lang === 'zh' && row.kind) {
      const parts = describe({ ...row, seq: 0 }, 'zh');
      parts[0] = fmtTime(row.t) + ' ';
      for (const p of parts) btn.append(typeof p === 'string' ? p : el('code', {}, p.code));
    } else {
      btn.append(row.text);
    }
    td.append(btn);
    return td;
  }

  /** verdicts are a side's verdicts. A right side that did not face every
   * fault of the left (unfair) shows ⚠ where it would show ✓: its safe
   * run does not answer the left's question. */
  verdicts(side, key, lang, ended, unfair) {
    const box = el('div', { class: 'cmp-verdicts', 'data-testid': 'compare-verdict-' + key });
    const vs = side.verdicts || [];
    const safe = vs.every((v) => v.name === 'safe');
    box.classList.add(safe ? 'safe' : 'bad');
    if (unfair) box.classList.add('unfair');
    if (!ended) box.classList.add('ahead');
    for (const v of vs) {
      // Where the name follows the verdict's word (Chinese: the word, then
      // "(foreign-unlock)" in full-width brackets), the name is its own
      // span: over the drawn timelines the badge keeps the word alone
      // (compare.css), the tooltip says the rest.
      const name = verdictName(v.name, lang), id = fill('verdictNamed', lang, { word: '', name: v.name });
      const badge = name.endsWith(id) && name !== id ? [name.slice(0, -id.length), el('span', { class: 'vid' }, id)] : [name];
      box.append(el('div', { class: 'v', 'data-name': v.name, title: v.name + ': ' + pick(v.say, lang) },
        el('b', { class: 'badge' }, (v.name === 'safe' ? (unfair ? '⚠ ' : '✓ ') : '✗ ') + badge[0], ...badge.slice(1)),
        ' ', el('span', {}, pick(v.say, lang))));
    }
    return box;
  }
}
