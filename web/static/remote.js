// The teacher's remote (docs/browser.md, In class; docs/protocol.md,
// Classes): a page for the teacher's phone, opened at /remote#CODE.SECRET
// from the QR code that Remote shows on the projector (pair.js), or with
// the teacher's key (#CODE.KEY). It holds no run: its session hands Step,
// Back, Play, Pause and the class's questions to the teacher's session,
// and the projector and every student follow. It shows what the projector
// shows of the run (its step and its latest narration line, never more)
// and what the teacher sees of the class (the tally as it grows).

import { Link } from './socket.js';
import { state } from './store.js';
import { t, pick, verdictName } from './i18n.js';
import { el } from './dom.js';
import { showError, relabelToast } from './toast.js';
import { say, KINDS } from './classwords.js';

// The remote's words are the catalogue's remote.… and class.… ids, and the
// codes a remote meets (docs/protocol.md, Classes) its error.… ids, which
// messages.js says (classwords.js).

/** Remote is the remote's page: its class message and the run's line. */
class Remote {
  constructor(root) {
    this.root = root;
    this.cls = null; // the last class message's class
    this.run = null; // the teacher's run's line
    this.ended = '';
    this.kind = 'next';
    this.queue = []; // the questions queued for later steps
    const g = /^#([A-Za-z0-9]{6})\.([A-Za-z0-9_-]{10,64})$/.exec(location.hash);
    if (g) {
      // The secret (or key) leaves the address bar and the history at once.
      history.replaceState(null, '', location.pathname);
      sessionStorage.setItem('lockstep.remote', g[1]);
      this.secret = g[2];
    }
    this.code = sessionStorage.getItem('lockstep.remote') || '';
    this.link = new Link((m) => this.onMessage(m), (s) => { this.status = s; this.render(); });
  }

  key() { return localStorage.getItem('lockstep.teach.' + this.code) || this.secret || ''; }

  start() {
    this.render();
    if (this.code) this.link.connect();
  }

  onMessage(m) {
    if (m.type === 'welcome') {
      this.link.send('class-remote', { code: this.code, key: this.key() });
      return;
    }
    if (m.type === 'error') { showError(m); return; }
    if (m.type !== 'class') return;
    const c = m.class;
    if (c.ended) {
      this.ended = c.ended;
      this.cls = null;
      this.link.stop();
    } else {
      if (c.key) { localStorage.setItem('lockstep.teach.' + c.code, c.key); this.secret = ''; }
      this.cls = c;
      this.run = m.run || this.run;
      this.queue = m.queue || [];
    }
    this.render();
  }

  send(op, args) { this.link.send(op, args); }

  render() {
    const lang = state.lang;
    document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
    document.title = 'Lockstep — ' + say('remote.title');
    const root = this.root, c = this.cls;
    root.textContent = '';
    const langBtn = el('button', { class: 'rm-lang', 'data-testid': 'remote-lang', onclick: () => {
      state.lang = lang === 'zh' ? 'en' : 'zh';
      localStorage.setItem('lockstep.lang', state.lang);
      relabelToast();
      this.render();
    } }, say('remote.lang'));
    root.append(el('header', { class: 'rm-top' }, el('h1', {}, say('remote.title'), c ? el('span', {}, ' · ' + say('remote.class-code') + ' ', el('span', { class: 'rm-code', 'data-testid': 'remote-code' }, c.code)) : null), langBtn));
    if (this.ended) {
      const why = { 'teacher-gone': 'class.ended-gone', left: 'class.ended-left' }[this.ended] || 'class.ended';
      root.append(el('p', { class: 'rm-card rm-ended', 'data-testid': 'remote-ended', role: 'status' }, say(why)));
      return;
    }
    if (!this.code) { root.append(el('p', { class: 'rm-card' }, say('remote.no-link'))); return; }
    if (!c) { root.append(el('p', { class: 'rm-card' }, say('remote.connecting'))); return; }
    if (c.away) root.append(el('p', { class: 'rm-card', role: 'status' }, say('class.teacher-away')));
    // A field being typed in keeps the focus and the caret across the redraw.
    const had = document.activeElement, sel = had && 'selectionStart' in had ? [had.selectionStart, had.selectionEnd] : null;
    root.append(this.runCard(), this.driveButtons(), this.questionCard(c), this.askRow(), this.queueCard(), this.hideBox(c), this.countsLine(c));
    if (had && had !== document.activeElement && had.isConnected && (had === this.freeText || had === this.freeChoices || had === this.stepIn)) {
      had.focus({ preventScroll: true });
      if (sel && sel[0] != null) try { had.setSelectionRange(sel[0], sel[1]); } catch { /* a number field has no caret to set */ }
    }
  }

  /** runCard is the run as the projector shows it: the lesson, the step,
   * the latest narration line the run has reached. */
  runCard() {
    const r = this.run, lang = state.lang;
    if (!r) return el('section', { class: 'rm-card' });
    const step = say('remote.step-n', { n: r.step }) + (r.ended ? ' · ' + say('remote.over') : '');
    const line = r.says ? pick(r.say, lang) : t(r.step > 0 ? 'storyAhead' : 'welcome', lang);
    return el('section', { class: 'rm-card', 'data-testid': 'remote-run' },
      el('p', { class: 'rm-title' }, pick(r.title, lang)),
      el('p', { class: 'rm-step', 'data-testid': 'remote-step-n', 'data-step': String(r.step) }, step),
      el('p', { class: 'rm-say-label' }, t('narration', lang)),
      el('p', { class: 'rm-say', 'data-testid': 'remote-say' }, line));
  }

  driveButtons() {
    const r = this.run || { step: 0, ended: false, playing: false }, lang = state.lang;
    return el('div', { class: 'rm-drive' },
      el('button', { 'data-testid': 'remote-back', disabled: r.step === 0, onclick: () => this.send('back') }, '◀ ' + t('back', lang)),
      el('button', { class: 'primary', 'data-testid': 'remote-step', disabled: r.ended, onclick: () => this.send('step') }, t('step', lang) + ' ▶'),
      el('button', { 'data-testid': 'remote-play', disabled: r.ended && !r.playing, onclick: () => this.link.send(r.playing ? 'pause' : 'play') }, t(r.playing ? 'pause' : 'play', lang)));
  }

  /** questionCard is the question on the screens with its tally as it
   * grows (the teacher's view), and Reveal, Dismiss, Play the winner. */
  questionCard(c) {
    const q = c.question, lang = state.lang;
    if (!q) return el('section', { class: 'rm-card', 'data-testid': 'remote-question' }, el('p', { class: 'rm-q-foot' }, say('remote.nothing')));
    const max = Math.max(1, ...(q.counts || [0]));
    const list = el('ol', { class: 'rm-choices' });
    q.choices.forEach((ch, i) => {
      const n = (q.counts || [])[i] || 0;
      const right = q.revealed && q.truth && q.truth.includes(i);
      const fill = el('span', { class: 'rm-fill' });
      fill.style.width = (100 * n / max).toFixed(1) + '%';
      list.append(el('li', { class: right ? 'right' : '', 'data-count': String(n) },
        el('span', { class: 'rm-choice' }, (q.kind === 'verdict' ? verdictName(pick(ch, 'en'), lang) : pick(ch, lang)) + (right ? ' ✓' : '')),
        el('span', { class: 'rm-track', 'aria-hidden': 'true' }, fill), el('span', { class: 'rm-n' }, String(n))));
    });
    const buttons = el('div', { class: 'rm-q-buttons' },
      el('button', { class: 'primary', 'data-testid': 'remote-reveal', disabled: q.revealed, onclick: () => this.send('class-reveal') }, say('class.reveal')),
      el('button', { 'data-testid': 'remote-dismiss', onclick: () => this.send('class-dismiss') }, say('class.dismiss')));
    if (q.kind === 'move') buttons.append(el('button', { 'data-testid': 'remote-play-winner', onclick: () => this.send('class-play') }, say('class.play-winner')));
    return el('section', { class: 'rm-card', 'data-testid': 'remote-question', 'data-id': String(q.id), 'aria-label': say('class.question-label') },
      el('p', { class: 'rm-q-text' }, pick(q.text, lang), ' ', el('span', { class: 'rm-q-foot' }, say('class.at-step', { step: q.at }))),
      q.about ? el('p', {}, say('class.about-cmd') + ' ', el('code', {}, q.about)) : null,
      list, el('p', { class: 'rm-q-foot', role: 'status' }, say('class.answered', { n: q.answered })), buttons);
  }

  /** askRow is the question picker: the kinds the run can ask (a vote on
   * moves in a challenge), and the teacher's own question, typed here as
   * on the projector's bar (its text, and its choices one a line). */
  askRow() {
    const kinds = KINDS.filter(([k]) => k !== 'move' || (this.run && this.run.challenge));
    if (!kinds.some(([k]) => k === this.kind)) this.kind = kinds[0][0];
    const sel = el('select', { 'data-testid': 'remote-ask-kind', 'aria-label': say('class.ask-what'), onchange: (e) => { this.kind = e.target.value; this.render(); } },
      ...kinds.map(([k, s]) => el('option', { value: k, selected: k === this.kind }, say(s))));
    const row = el('div', { class: 'rm-ask' }, sel, el('button', { class: 'primary', 'data-testid': 'remote-ask', onclick: () => this.send('class-ask', { ask: this.askOf() }) }, say('class.ask')));
    if (this.kind !== 'free') return row;
    // Kept across renders (each message redraws the page), so that what
    // is typed stays.
    this.freeText = this.freeText || el('input', { type: 'text', maxLength: 200, 'data-testid': 'remote-ask-text', class: 'rm-free-in' });
    this.freeChoices = this.freeChoices || el('textarea', { rows: 3, 'data-testid': 'remote-ask-choices', class: 'rm-free-in' });
    for (const [e, k] of [[this.freeText, 'class.free-text'], [this.freeChoices, 'class.free-choices']]) {
      e.setAttribute('aria-label', say(k));
      e.placeholder = say(k);
    }
    return el('div', { class: 'rm-free' }, this.freeText, this.freeChoices, row);
  }

  /** askOf is the question the picker asks or queues. */
  askOf() {
    if (this.kind !== 'free') return { kind: this.kind };
    return { kind: 'free', text: this.freeText.value, choices: this.freeChoices.value.split('\n').map((x) => x.trim()).filter(Boolean) };
  }

  /** queueCard queues the picker's question for a later step, and lists
   * the queue: each is asked by itself when the run gets to its step. */
  queueCard() {
    const lang = state.lang;
    if (!this.stepIn) this.stepIn = el('input', { type: 'number', min: '1', inputmode: 'numeric', 'data-testid': 'remote-queue-step', class: 'rm-step-in' });
    const next = (this.run ? this.run.step : 0) + 1;
    this.stepIn.min = String(next);
    if (!this.stepIn.value || Number(this.stepIn.value) < next) this.stepIn.value = String(next);
    this.stepIn.setAttribute('aria-label', say('remote.at-step-in'));
    const list = el('ul', { class: 'rm-queue', 'data-testid': 'remote-queue' });
    for (const q of this.queue) {
      const kind = KINDS.find(([k]) => k === q.kind);
      list.append(el('li', { 'data-step': String(q.step) }, el('span', {}, say('class.queued-at', { step: q.step }) + ' · ' + (q.text || (kind ? say(kind[1]) : q.kind))),
        el('button', { class: 'rm-x', 'aria-label': say('class.unqueue'), title: say('class.unqueue'), 'data-testid': 'remote-unqueue', onclick: () => this.send('class-unqueue', { step: q.step }) }, '✕')));
    }
    if (!this.queue.length) list.append(el('li', { class: 'rm-q-foot' }, say('class.queue-none')));
    return el('section', { class: 'rm-card', 'aria-label': say('class.queue-title') },
      el('p', { class: 'rm-say-label' }, say('class.queue-title')),
      el('div', { class: 'rm-ask' }, el('label', { class: 'rm-at' }, say('remote.at-step-in') + ' ', this.stepIn),
        el('button', { 'data-testid': 'remote-queue-add', onclick: () => this.send('class-queue', { step: Number(this.stepIn.value), ask: this.askOf() }) }, say('remote.queue'))),
      list);
  }

  hideBox(c) {
    const box = el('input', { type: 'checkbox', 'data-testid': 'remote-hide', checked: !!c.hide, onchange: (e) => this.send('class-hide', { hide: e.target.checked }) });
    return el('label', { class: 'rm-card rm-hide' }, box, say('class.hide'));
  }

  countsLine(c) {
    const n = c.counts || { members: 0, online: 0, following: 0, roaming: 0, answered: 0 };
    return el('p', { class: 'rm-counts', 'data-testid': 'remote-counts', role: 'status' },
      say('class.counts', { members: n.online ?? n.members, following: n.following, roaming: n.roaming, answered: n.answered }));
  }
}

const remote = new Remote(document.getElementById('remote'));
window.lockstepRemote = remote; // for tests, as the app's page exposes its parts
remote.start();
