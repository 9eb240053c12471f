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
//
// This file is the Classroom: the class messages, the seat a tab rejoins,
// the teacher's view a student follows. Its parts: classjoin.js (joining,
// the big code), classbar.js (the class bar), classquestion.js (the
// question's card, the tally), classpage.js (what a class does to the rest
// of the page), classwords.js (the words, from the catalogue).

import { state, changed } from './store.js';
import { toast } from './toast.js';
import { say } from './classwords.js';
import { browserID, buildDialogs, labelDialogs, fillBig } from './classjoin.js';
import { drawBar } from './classbar.js';
import { csv } from './classquestion.js';
import { lockControls, hideGiveaways } from './classpage.js';
export { qrSVG } from './classjoin.js'; // pair.js draws the remote's QR code with it

const $ = (id) => document.getElementById(id);

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
    buildDialogs(this);
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
      const why = { 'teacher-gone': 'class.ended-gone', 'teacher-moved': 'class.ended-moved', left: 'class.ended-left' }[c.ended] || 'class.ended';
      if (was) toast(say(why));
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
    const c = this.cls;
    const teacher = c && c.role === 'teacher', student = c && c.role === 'student';
    document.body.classList.toggle('in-class', !!c);
    document.body.classList.toggle('class-teacher', !!teacher);
    document.body.classList.toggle('following', !!(student && c.following));
    lockControls(!!(student && c.following));
    this.startBtn.textContent = teacher ? say('class.show-code') : say('class.start-class');
    this.startBtn.title = teacher ? say('class.show-code-tip') : '';
    this.startBtn.hidden = !!student;
    this.joinBtn.textContent = say('class.join-class');
    this.joinBtn.hidden = !!c;
    labelDialogs(this);
    if (!this.big.hidden) fillBig(this);
    hideGiveaways(this);
    this.bar.hidden = !c && !this.endedTally;
    this.bar.setAttribute('aria-label', say('class.class-label'));
    if (teacher) this.sendView();
    drawBar(this);
  }

  /** csv is the tally's CSV as Tally (CSV) downloads it (by default this
   * page's history, in its language). */
  csv(history = this.history, lang = state.lang) {
    return csv(history, lang);
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

  /** setHide is the page's own setting (outside a class, or the teacher's
   * for the class). */
  setHide(on) {
    if (this.cls && this.cls.role === 'teacher') this.link.send('class-hide', { hide: on });
    this.ownHide = on;
    localStorage.setItem('lockstep.hide', on ? 'on' : 'off');
    changed();
  }

  /** showBig shows the big code for the projector (a teacher's). */
  showBig() {
    this.big.hidden = false;
    fillBig(this);
    this.bigClose.focus();
  }
}
