// A class (docs/protocol.md, Classes). The teacher presses Start a class:
// the server makes a room with a join code, shown with its link and a QR
// code for the projector. Students open the app, type the code and a
// nickname, and their screens follow the teacher's run, cursor and view
// (each in their own language); a student may Roam in a private copy and
// come Back to the class. The teacher asks questions computed from the run;
// students answer on their devices; Reveal shows the tally as bars and the
// truth from the run. The teacher's right to drive is a key that stays in
// the teacher's link (#teach=CODE.KEY) and this browser's storage, never on
// the projector.

import { state, changed } from './store.js';
import { pick, verdictName } from './i18n.js';
import { el } from './dom.js';
import { toast } from './toast.js';
import { download } from './share.js';
import { renderControls } from './controls.js';
import { CLASS_WORDS as S, CLASS_KINDS as KINDS } from './classwords.js';
export { CLASS_ERRORS } from './classwords.js'; // the page's message catalogue (app.js) reads them

const $ = (id) => document.getElementById(id);

/** browserID is this browser's id for classes, kept in its storage: a
 * browser holds one membership of a class (docs/protocol.md, Classes). */
function browserID() {
  let id = localStorage.getItem('lockstep.browser');
  if (!id) {
    const b = crypto.getRandomValues(new Uint8Array(16));
    id = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
    localStorage.setItem('lockstep.browser', id);
  }
  return id;
}

function tr(key, vals = {}) {
  let s = S[key][state.lang === 'zh' ? 1 : 0];
  for (const [k, v] of Object.entries(vals)) s = s.split('{' + k + '}').join(String(v));
  return s;
}

/** both is a label's whole words and, for Presenter mode's one-line bar
 * (class.css), its short form on screen: the whole words stay what a
 * screen reader reads. */
function both(key) {
  return [el('span', { class: 'class-long' }, tr(key)), el('span', { class: 'class-short', 'aria-hidden': 'true' }, tr(key + 'Short'))];
}

/** qrSVG draws a QR code's rows ('1' dark) as an SVG with a quiet zone. */
export function qrSVG(rows, px) {
  const n = rows.length, q = 4, side = n + 2 * q;
  let d = '';
  rows.forEach((r, y) => {
    for (let x = 0; x < n; x++) if (r[x] === '1') d += `M${x + q} ${y + q}h1v1h-1z`;
  });
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', `0 0 ${side} ${side}`);
  svg.setAttribute('width', String(px));
  svg.setAttribute('height', String(px));
  svg.setAttribute('shape-rendering', 'crispEdges');
  svg.setAttribute('class', 'qr');
  const bg = document.createElementNS(ns, 'rect');
  bg.setAttribute('width', String(side));
  bg.setAttribute('height', String(side));
  bg.setAttribute('fill', '#fff');
  const p = document.createElementNS(ns, 'path');
  p.setAttribute('d', d);
  p.setAttribute('fill', '#000');
  svg.append(bg, p);
  return svg;
}

/** choiceText is a choice as the page shows it in lang: a verdict
 * question's choices are verdict names, shown as the page names verdicts. */
function choiceText(q, ch, lang) {
  return q.kind === 'verdict' ? verdictName(pick(ch, 'en'), lang) : pick(ch, lang);
}

/** csv is the tally of every question asked, one row a choice. */
export function csv(history, lang) {
  const q = (s) => '"' + String(s).replace(/"/g, '""') + '"';
  const rows = [['question', 'asked at step', 'kind', 'text', 'choice', 'answers', 'right'].join(',')];
  for (const h of history) {
    h.choices.forEach((c, i) => {
      const right = h.truth && h.truth.length ? (h.truth.includes(i) ? 'yes' : 'no') : '';
      rows.push([h.id, h.at, h.kind, q(pick(h.text, lang) + (h.about ? ' ' + h.about : '')), q(choiceText(h, c, lang)), (h.counts || [])[i] || 0, right].join(','));
    });
  }
  return rows.join('\n') + '\n';
}

export class Classroom {
  /** hooks: goTo(seq), compare() → {open, choice, show(c), close()},
   * code() → the code view, remote(code) → the class bar's Remote button
   * (pair.js). */
  constructor(link, hooks) {
    this.link = link;
    this.hooks = hooks;
    this.cls = null; // the last class message's class
    this.history = []; // the teacher's tally, kept after the class ends (this page only)
    this.sentView = '';
    this.appliedView = '';
    this.viewTimer = 0;
    this.ownHide = localStorage.getItem('lockstep.hide') === 'on';
    this.askKind = 'next';
    this.queue = []; // the questions the room queued for later steps (a teacher's)
    this.build();
    // Some view changes (Side by side opened or closed, a code tab) do not
    // render the whole page: the teacher's view is looked at now and then.
    setInterval(() => { if (this.cls && this.cls.role === 'teacher') this.sendView(); }, 300);
  }

  /** seat is what this tab remembers of its class (to rejoin). */
  get seat() {
    try { return JSON.parse(sessionStorage.getItem('lockstep.class') || 'null'); } catch { return null; }
  }

  set seat(v) {
    if (v) sessionStorage.setItem('lockstep.class', JSON.stringify(v));
    else sessionStorage.removeItem('lockstep.class');
  }

  build() {
    // The page holds the two buttons from the start (labelled in English),
    // so that the header does not move when this script runs.
    this.startBtn = $('start-class');
    this.joinBtn = $('join-class');
    this.startBtn.onclick = () => this.start();
    this.joinBtn.onclick = () => this.openJoin('');
    // The join dialog.
    this.codeIn = el('input', { id: 'join-code-in', 'data-testid': 'join-code', autocomplete: 'off', spellcheck: false, maxLength: 12, size: 8 });
    this.nameIn = el('input', { id: 'nickname-in', 'data-testid': 'nickname', autocomplete: 'nickname', maxLength: 24, size: 16 });
    this.codeLbl = el('label', { htmlFor: 'join-code-in' });
    this.nameLbl = el('label', { htmlFor: 'nickname-in' });
    this.joinTitle = el('h2', { id: 'join-title' });
    this.joinGo = el('button', { class: 'primary', 'data-testid': 'join', type: 'submit' });
    this.joinCancel = el('button', { type: 'button', onclick: () => { this.dialog.hidden = true; } });
    const form = el('form', { class: 'card join-card', onsubmit: (e) => { e.preventDefault(); this.join(); } },
      this.joinTitle, el('p', {}, this.codeLbl, el('br'), this.codeIn), el('p', {}, this.nameLbl, el('br'), this.nameIn),
      el('p', { class: 'buttons' }, this.joinGo, ' ', this.joinCancel));
    this.dialog = el('div', { class: 'overlay', 'data-testid': 'join-dialog', hidden: true, 'aria-labelledby': 'join-title', 'aria-modal': 'true' }, form);
    this.dialog.setAttribute('role', 'dialog');
    document.body.append(this.dialog);
    // The big code for the projector.
    this.bigTitle = el('h2', { id: 'class-big-title' });
    this.bigBody = el('div', { class: 'class-big-body' });
    this.bigClose = el('button', { onclick: () => { this.big.hidden = true; } });
    this.big = el('div', { class: 'overlay', hidden: true, 'aria-labelledby': 'class-big-title', 'aria-modal': 'true' },
      el('div', { class: 'card class-big' }, this.bigTitle, this.bigBody, this.bigClose));
    this.big.setAttribute('role', 'dialog');
    document.body.append(this.big);
    this.bar = $('class');
  }

  start() {
    if (this.cls && this.cls.role === 'teacher') { this.showBig(); return; }
    this.link.send('class-start', { origin: location.origin });
  }

  openJoin(code) {
    this.codeIn.value = code || this.codeIn.value;
    this.dialog.hidden = false;
    (this.codeIn.value ? this.nameIn : this.codeIn).focus();
    this.render();
  }

  join() {
    const code = this.codeIn.value.trim(), name = this.nameIn.value.trim();
    if (!code || !name) { (code ? this.nameIn : this.codeIn).focus(); return; }
    this.link.send('class-join', { code, name, browser: browserID() });
  }

  /** welcome handles a class link or a class to rejoin; true when it took
   * care of what the page loads. */
  welcome(m) {
    const h = location.hash;
    let g = /^#join=([A-Za-z0-9 -]{1,16})$/.exec(h);
    if (g) {
      history.replaceState(null, '', location.pathname + location.search);
      if (!m.loaded) this.link.send('load', { scenario: state.catalog[0].id });
      this.openJoin(g[1]);
      return true;
    }
    g = /^#teach=([A-Za-z0-9]{6})\.([A-Za-z0-9_-]{10,64})$/.exec(h);
    if (g) {
      history.replaceState(null, '', location.pathname + location.search);
      localStorage.setItem('lockstep.teach.' + g[1], g[2]);
      this.link.send('class-teach', { code: g[1], key: g[2] });
      return true;
    }
    const seat = this.seat;
    if (seat && !m.loaded) { // a new session (the server lost ours): rejoin
      if (seat.role === 'teacher') {
        const key = localStorage.getItem('lockstep.teach.' + seat.code);
        if (key) { this.link.send('class-teach', { code: seat.code, key }); return true; }
      } else if (seat.token) {
        this.link.send('class-join', { code: seat.code, token: seat.token, browser: browserID() });
        return true;
      }
      this.seat = null;
    }
    return false;
  }

  /** onMessage takes class messages; true when it did. */
  onMessage(m) {
    if (m.type === 'error' && m.code === 'no-class' && this.seat && !this.cls) this.seat = null;
    if (m.type === 'queue') {
      this.queue = m.queue || [];
      changed();
      return true;
    }
    if (m.type !== 'class') return false;
    const c = m.class;
    if (c.ended) {
      const was = this.cls;
      // A teacher keeps the tally after the class: the bar offers it until dismissed.
      this.endedTally = !!(was && was.role === 'teacher' && this.history.length);
      if (this.endedTally) this.endedCode = was.code;
      this.cls = null;
      this.seat = null;
      this.queue = [];
      document.body.classList.remove('in-class', 'following', 'class-teacher');
      const why = { 'teacher-gone': 'endedGone', 'teacher-moved': 'endedMoved', left: 'endedLeft' }[c.ended] || 'ended';
      if (was) toast(tr(why));
      changed();
      return true;
    }
    if (c.key) localStorage.setItem('lockstep.teach.' + c.code, c.key);
    const fresh = !this.cls;
    this.cls = c;
    this.seat = c.role === 'teacher' ? { code: c.code, role: 'teacher' } : { code: c.code, role: 'student', token: c.token, name: c.name };
    if (c.role === 'teacher' && c.history) this.history = c.history;
    if (c.role === 'student') {
      this.dialog.hidden = true;
      if (c.following) this.applyView(c.view);
    }
    if (fresh && c.role === 'teacher' && c.key) {
      this.endedTally = false;
      // The page's own "hide what gives it away", set before the class
      // started, becomes the room's.
      if (this.ownHide && !c.hide) this.link.send('class-hide', { hide: true });
      this.showBig();
    }
    changed();
    return true;
  }

  /** applyView takes the teacher's view choices (a following student). */
  applyView(v) {
    const key = JSON.stringify(v || null);
    if (!v || key === this.appliedView) return;
    this.appliedView = key;
    state.timeScale = !!v.t;
    const code = this.hooks.code();
    if (code && typeof v.code === 'string') { code.client = v.code; code.key = ''; }
    const cmp = this.hooks.compare();
    if (typeof v.cmp === 'string' && (!cmp.open || cmp.choice !== v.cmp)) cmp.show(v.cmp);
    else if (v.cmp == null && cmp.open) cmp.close();
    if (Number.isInteger(v.sel)) requestAnimationFrame(() => this.hooks.goTo(v.sel));
    else state.selected = null;
  }

  /** viewOf is the teacher's view choices, as students apply them. */
  viewOf() {
    const cmp = this.hooks.compare(), code = this.hooks.code();
    return { t: state.timeScale ? 1 : 0, sel: state.selected ?? null, cmp: cmp.open ? cmp.choice : null, code: code ? code.client : '' };
  }

  /** hiding reports whether what gives the answer away is hidden. */
  hiding() {
    return this.ownHide || !!(this.cls && this.cls.hide);
  }

  /** render draws the class bar and applies the class to the page. */
  render() {
    const c = this.cls, lang = state.lang;
    const teacher = c && c.role === 'teacher', student = c && c.role === 'student';
    document.body.classList.toggle('in-class', !!c);
    document.body.classList.toggle('class-teacher', !!teacher);
    document.body.classList.toggle('following', !!(student && c.following));
    this.lockControls(!!(student && c.following));
    this.startBtn.textContent = teacher ? tr('showCode') : tr('startClass');
    this.startBtn.title = teacher ? tr('showCodeTip') : '';
    this.startBtn.hidden = !!student;
    this.joinBtn.textContent = tr('joinClass');
    this.joinBtn.hidden = !!c;
    this.joinTitle.textContent = tr('joinTitle');
    this.codeLbl.textContent = tr('joinCode');
    this.nameLbl.textContent = tr('nickname');
    this.joinGo.textContent = tr('join');
    this.joinCancel.textContent = tr('cancel');
    this.bigClose.textContent = tr('close');
    if (!this.big.hidden) this.fillBig();
    this.hideGiveaways();
    this.bar.hidden = !c && !this.endedTally;
    this.bar.setAttribute('aria-label', tr('classLabel'));
    if (teacher) this.sendView();
    const snap = state.snap;
    const key = JSON.stringify([c, this.queue, lang, this.askKind, snap && snap.step, !!(snap && snap.challenge && snap.challenge.active), this.endedTally, !!state.presenter]);
    if (key === this.barKey) return;
    this.barKey = key;
    this.bar.textContent = '';
    if (!c) {
      if (this.endedTally) this.bar.append(this.tallyLine());
      return;
    }
    const line = el('div', { class: 'class-line' },
      el('span', { class: 'class-id' }, tr('classLabel') + ' ', el('b', { 'data-testid': 'class-code' }, c.code)));
    if (teacher) this.teacherBar(line, c);
    else this.studentBar(line, c);
    this.bar.append(line);
    if (teacher && this.queue.length) this.bar.append(this.queueLine());
    if (c.away && student) this.bar.append(el('p', { class: 'class-away', role: 'status' }, tr('teacherAway')));
    if (c.refused && teacher) this.bar.append(el('p', { class: 'class-away', role: 'status', 'data-testid': 'copy-refused' }, tr('copyRefused', c.refused)));
    if (c.question) this.bar.append(this.questionCard(c.question, teacher));
  }

  teacherBar(line, c) {
    const n = c.counts || { members: 0, following: 0, roaming: 0, answered: 0 };
    if (c.qr) {
      const small = el('button', { class: 'qr-btn', 'aria-label': tr('showCode'), title: tr('showCodeTip'), onclick: () => this.showBig() });
      small.append(qrSVG(c.qr, 44));
      line.append(small);
    }
    // The sentence, and in Presenter mode (class.css) its short form on
    // screen: the sentence stays the tooltip and what screen readers read.
    const vals = { members: n.online ?? n.members, following: n.following, roaming: n.roaming, answered: n.answered };
    const full = tr('counts', vals);
    const short = tr('countsShort', { ...vals, roam: n.roaming ? tr('roamShort', vals) : '' });
    line.append(el('span', { class: 'class-count', 'data-testid': 'room-count', role: 'status', title: full },
      el('span', { class: 'class-long' }, full), el('span', { class: 'class-short', 'aria-hidden': 'true' }, short)));
    // In Presenter mode the picker names each kind in short, so that the
    // bar keeps one line; the question itself is on the card once asked.
    const suffix = state.presenter ? 'Short' : '';
    const kinds = KINDS.filter(([k]) => k !== 'move' || (state.snap && state.snap.challenge && state.snap.challenge.active));
    const kind = el('select', { 'data-testid': 'ask-kind', 'aria-label': tr('askWhat'), title: tr((kinds.find(([k]) => k === this.askKind) || kinds[0])[1]),
      onchange: (e) => { this.askKind = e.target.value; this.barKey = ''; this.render(); } },
    ...kinds.map(([k, s]) => el('option', { value: k, selected: k === this.askKind, title: tr(s) }, tr(s + suffix))));
    line.append(kind);
    let text = null, choices = null;
    if (this.askKind === 'free') { // kept across renders, so that what is typed stays
      text = this.freeText || (this.freeText = el('input', { 'data-testid': 'ask-text', maxLength: 200, size: 24 }));
      choices = this.freeChoices || (this.freeChoices = el('textarea', { 'data-testid': 'ask-choices', rows: 2, cols: 18 }));
      for (const [e, k] of [[text, 'freeText'], [choices, 'freeChoices']]) {
        e.setAttribute('aria-label', tr(k));
        e.placeholder = tr(k);
      }
      line.append(text, choices);
    }
    line.append(el('button', { class: 'primary', 'data-testid': 'ask', onclick: () => {
      const ask = { kind: this.askKind };
      if (text) { ask.text = text.value; ask.choices = choices.value.split('\n').map((s) => s.trim()).filter(Boolean); }
      this.link.send('class-ask', { ask });
    } }, tr('ask')));
    const q = c.question;
    line.append(el('button', { 'data-testid': 'reveal', disabled: !q || q.revealed, onclick: () => this.link.send('class-reveal') }, tr('reveal')));
    if (q) line.append(el('button', { 'data-testid': 'dismiss-question', title: tr('dismissTitle'), onclick: () => this.link.send('class-dismiss') }, tr('dismiss')));
    if (q && q.kind === 'move') line.append(el('button', { 'data-testid': 'play-winner', title: tr('playWinner'), onclick: () => this.link.send('class-play') }, ...both('playWinner')));
    const hide = el('input', { type: 'checkbox', 'data-testid': 'class-hide', checked: this.hiding(), onchange: (e) => this.setHide(e.target.checked) });
    line.append(el('label', { class: 'class-hide', title: tr('hide') }, hide, ' ', el('span', { class: 'class-long' }, tr('hide')), el('span', { class: 'class-short', 'aria-hidden': 'true' }, tr('hideShort'))));
    line.append(this.csvButton(c.code));
    line.append(el('button', { 'data-testid': 'teacher-link', onclick: () => this.copyTeacherLink(c.code) }, tr('teacherLink')));
    if (this.hooks.remote) line.append(this.hooks.remote(c.code));
    line.append(el('button', { class: 'danger', 'data-testid': 'end-class', title: tr('endClass'), onclick: () => { if (confirm(tr('endConfirm'))) this.link.send('class-end'); } }, ...both('endClass')));
  }

  /** queueLine lists the questions queued for later steps, each with its
   * step and a button that takes it off (the remote queues them; each is
   * asked by itself when the run gets there). */
  queueLine() {
    const suffix = state.presenter ? 'Short' : '';
    const items = this.queue.map((q) => {
      const kind = KINDS.find(([k]) => k === q.kind);
      return el('li', { 'data-step': String(q.step) }, tr('queuedAt', { step: q.step }) + ' · ' + (q.text || (kind ? tr(kind[1] + suffix) : q.kind)), ' ',
        el('button', { class: 'class-x', 'aria-label': tr('unqueue'), title: tr('unqueue'), onclick: () => this.link.send('class-unqueue', { step: q.step }) }, '✕'));
    });
    return el('div', { class: 'class-queue', 'data-testid': 'class-queue', title: tr('queueTitle') },
      el('span', { class: 'class-queue-label' }, tr('queued')), el('ul', {}, ...items));
  }

  /** csv is the tally's CSV as Tally (CSV) downloads it (by default this
   * page's history, in its language). */
  csv(history = this.history, lang = state.lang) {
    return csv(history, lang);
  }

  /** csvButton downloads the tally of every question asked. */
  csvButton(code) {
    return el('button', { 'data-testid': 'export-csv', title: tr('exportCSV'), disabled: !this.history.length, onclick: () => download('class-' + code + '-tally.csv', csv(this.history, state.lang), 'text/csv') }, ...both('exportCSV'));
  }

  /** tallyLine is the bar after the teacher's class ended: the tally to
   * keep, and a button to put the bar away. */
  tallyLine() {
    const code = this.endedCode || 'class';
    return el('div', { class: 'class-line' }, el('span', { class: 'class-you' }, tr('ended')), ' ',
      this.csvButton(code), ' ',
      el('button', { 'data-testid': 'dismiss-tally', onclick: () => { this.endedTally = false; changed(); } }, tr('close')));
  }

  studentBar(line, c) {
    line.append(el('span', { class: 'class-you' }, tr('you') + ' ', el('b', {}, c.name)));
    line.append(el('span', { class: 'class-mode ' + (c.following ? 'on' : 'off'), 'data-testid': 'follow', 'data-following': String(c.following), role: 'status' },
      tr(c.following ? 'following' : 'roaming')));
    if (c.following) line.append(el('button', { 'data-testid': 'roam', onclick: () => this.link.send('class-roam') }, tr('roam')));
    else line.append(el('button', { class: 'primary', 'data-testid': 'back-to-class', onclick: () => { this.appliedView = ''; this.link.send('class-follow'); } }, tr('backToClass')));
    line.append(el('button', { 'data-testid': 'leave-class', onclick: () => this.link.send('class-leave') }, tr('leave')));
  }

  questionCard(q, teacher) {
    const lang = state.lang;
    const card = el('section', { class: 'class-q', 'data-testid': 'question', 'data-id': String(q.id), 'aria-label': tr('questionLabel') },
      el('p', { class: 'class-q-text' }, el('b', {}, pick(q.text, lang)), ' ', el('span', { class: 'muted' }, tr('atStep', { step: q.at }))));
    if (q.about) card.append(el('p', { class: 'class-q-about' }, tr('aboutCmd') + ' ', el('code', {}, q.about)));
    // The bars wait for the reveal on every screen, the projector's too:
    // until then the room sees how many answered, not which way, so that
    // an early majority does not sway the rest.
    const shown = q.revealed;
    const max = Math.max(1, ...(q.counts || [0]));
    const list = el('ol', { class: 'class-choices' + (shown ? ' tally' : ''), 'data-testid': shown ? 'tally' : 'choices', 'aria-label': shown ? tr('tallyLabel') : tr('questionLabel') });
    q.choices.forEach((ch, i) => {
      const n = (q.counts || [])[i] || 0;
      const right = q.revealed && q.truth && q.truth.includes(i);
      const mine = q.mine === i;
      const label = choiceText(q, ch, lang);
      let body;
      if (!teacher && q.open && q.mine == null) {
        body = el('button', { class: 'class-choice', 'data-testid': 'answer', 'data-choice': String(i), onclick: () => this.link.send('class-answer', { question: q.id, choice: i }) }, label);
      } else {
        body = el('span', { class: 'class-choice' + (mine ? ' mine' : '') }, label);
      }
      const li = el('li', { class: (right ? 'right ' : '') + (mine ? 'mine' : ''), 'data-choice': String(i), 'data-count': String(n) }, body);
      if (shown) {
        const bar = el('span', { class: 'class-fill', 'aria-hidden': 'true' });
        bar.style.width = (100 * n / max).toFixed(1) + '%';
        li.append(el('span', { class: 'class-bar-track' }, bar), el('span', { class: 'class-n' }, String(n)));
      }
      if (right) li.append(el('span', { class: 'class-right' }, ' ✓'));
      list.append(li);
    });
    card.append(list);
    const foot = el('p', { class: 'class-q-foot', role: 'status' });
    if (teacher || q.revealed) foot.append(tr('answered', { n: q.answered }) + ' ');
    if (!teacher && q.mine != null && !q.revealed) foot.append(tr('yourAnswer'));
    if (q.revealed) {
      if (q.truth && q.truth.length) {
        foot.append(tr('truth') + ' ' + q.truth.map((i) => choiceText(q, q.choices[i], lang)).join(', ') + '. ');
        if (!teacher && q.mine != null) foot.append(tr(q.truth.includes(q.mine) ? 'right' : 'wrong'));
      } else foot.append(tr('noTruth'));
    }
    card.append(foot);
    return card;
  }

  /** lockControls disables the run's controls while a student follows
   * the class (the teacher drives), and gives them back after. */
  lockControls(on) {
    const sel = '.controls button:not(#time-scale), .controls select, .controls input, #pending button, #client-faults button, #client-faults select, #node-faults button, #node-faults select, [data-testid=explore] button';
    if (on) {
      for (const e of document.querySelectorAll(sel)) {
        if (!e.disabled) { e.disabled = true; e.dataset.classOff = '1'; }
      }
      return;
    }
    const off = document.querySelectorAll('[data-class-off]');
    if (!off.length) return;
    for (const e of off) { e.disabled = false; delete e.dataset.classOff; }
    renderControls(); // what the run allows (Back at step 0, Step at the end)
  }

  /** sendView tells the class what the teacher's page shows, at most
   * every 150 ms. */
  sendView() {
    const v = JSON.stringify(this.viewOf());
    if (v === this.sentView || this.viewTimer) return;
    this.viewTimer = setTimeout(() => {
      this.viewTimer = 0;
      const now = JSON.stringify(this.viewOf());
      if (now === this.sentView || !this.cls || this.cls.role !== 'teacher') return;
      this.sentView = now;
      this.link.send('class-view', { view: JSON.parse(now) });
    }, 150);
  }

  /** hideGiveaways hides, until the run ends, the expected verdict and
   * the lesson's paragraph (it states how the run ends: "the stock is sold
   * twice") and the challenge's goal beside the lesson's run (most often
   * the same ending), the setting or the teacher's. (The chapters the run
   * has not reached and the narration's future are never shown:
   * chapters.js, panels.js.) The page's render writes the first two afresh
   * each time, and the goal keeps its text aside, so what is hidden comes
   * back at the end or when hiding stops. The lesson's-plan
   * label over the paragraph stays: it says what the paragraph is, not
   * what it tells. */
  hideGiveaways() {
    const on = this.hiding(), snap = state.snap;
    const box = $('hide-giveaways');
    if (box) {
      box.checked = on;
      box.disabled = !!(this.cls && this.cls.role === 'student');
    }
    const lbl = $('hide-giveaways-label');
    if (lbl) lbl.textContent = tr('hide');
    const before = on && !(snap && snap.ended); // before the first state too: the page's first lesson
    if (before) $('expect').textContent = '(' + tr('hidden') + ')';
    const lesson = $('lesson-text');
    if (lesson) {
      if (before) lesson.textContent = tr('hiddenLesson');
      lesson.toggleAttribute('data-hidden', before);
    }
    // The challenge's goal, offered beside the lesson's run, is most often
    // the lesson's ending ("Get B's lock deleted by A"); in the challenge
    // it is the task, and stays.
    const goal = document.querySelector('[data-testid=challenge-goal] .authored');
    if (goal) {
      if (before && !(snap && snap.challenge && snap.challenge.active)) {
        if (!goal.dataset.text) goal.dataset.text = goal.textContent;
        goal.textContent = tr('hiddenLesson');
      } else if (goal.dataset.text) {
        goal.textContent = goal.dataset.text;
        delete goal.dataset.text;
      }
    }
  }

  /** setHide is the page's own setting (outside a class, or the teacher's
   * for the class). */
  setHide(on) {
    if (this.cls && this.cls.role === 'teacher') this.link.send('class-hide', { hide: on });
    this.ownHide = on;
    localStorage.setItem('lockstep.hide', on ? 'on' : 'off');
    changed();
  }

  showBig() {
    this.big.hidden = false;
    this.fillBig();
    this.bigClose.focus();
  }

  fillBig() {
    const c = this.cls;
    if (!c || c.role !== 'teacher') { this.big.hidden = true; return; }
    this.bigTitle.textContent = tr('joinClass');
    this.bigBody.textContent = '';
    this.bigBody.append(el('p', { class: 'class-big-code', 'data-testid': 'class-big-code' }, c.code));
    if (c.qr) this.bigBody.append(qrSVG(c.qr, 300));
    this.bigBody.append(el('p', {}, tr('joinAt') + ' ', el('code', { 'data-testid': 'class-link' }, c.link)));
    // A page opened as localhost gives a link no student's device reaches.
    if (['localhost', '127.0.0.1', '[::1]'].includes(location.hostname)) this.bigBody.append(el('p', { class: 'class-away', role: 'note' }, tr('localOnly')));
  }

  copyTeacherLink(code) {
    const key = localStorage.getItem('lockstep.teach.' + code);
    const url = location.origin + location.pathname + '#teach=' + code + '.' + key;
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(url).then(() => toast(tr('teacherLinkCopied')), () => toast(tr('teacherLinkNoCopy')));
    else toast(tr('teacherLinkNoCopy'));
  }
}
