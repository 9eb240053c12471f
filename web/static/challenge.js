// Challenges: a goal declared in the scenario (challenge:), reached by the
// learner as the scheduler within a number of moves. The server runs the
// challenge (the scenario without its scripted faults and narration),
// counts the moves and tells, from the checker, the moment the goal is
// reached; this panel shows the goal, the moves, hints, won or not yet,
// and a debrief that links the events proving it.

import { fill, pick } from './i18n.js';
import { el } from './dom.js';

export class Challenge {
  constructor(root, { take, leave, retry, goTo }) {
    Object.assign(this, { root, take, leave, retry, goTo });
    this.hints = 0; // hints shown
    this.key = '';
  }

  render(st) {
    const snap = st.snap;
    const ch = snap && snap.challenge;
    this.root.hidden = !ch;
    document.body.classList.toggle('in-challenge', !!(ch && ch.active));
    if (!ch) { this.key = ''; return; }
    const p = ch.progress;
    // Off its script the lesson's run is not the challenge: said so, as
    // nothing done in it counts (a challenge's own run is changed by hand
    // by design: its goal and counts stand).
    const off = !ch.active && snap.offScript ? snap.offScriptAt : null;
    const key = JSON.stringify([st.lang, snap.scenario, ch.active, p, this.hints, off]);
    if (key === this.key) return;
    const which = snap.scenario + (ch.active ? ':on' : '');
    if (which !== this.which) { this.which = which; this.hints = 0; }
    this.key = key;
    const L = st.lang;
    const r = this.root;
    r.textContent = '';
    r.append(el('h3', {}, fill('challenge', L)));
    r.append(el('p', { class: 'ch-goal', 'data-testid': 'challenge-goal' }, el('b', {}, fill('chGoal', L) + ': '), el('span', { class: 'authored' }, pick(ch, L))));
    if (!ch.active) {
      if (off != null) r.append(el('p', { class: 'ch-offscript', 'data-testid': 'challenge-offscript', role: 'note' }, fill('chOffScript', L, { step: off })));
      r.append(el('button', { class: 'primary', 'data-testid': 'challenge-take', onclick: () => this.take() }, fill('chTake', L)));
      return;
    }
    r.append(el('p', { class: 'hint' }, fill('chIntro', L)));
    // Past its limit a count says by how much, rather than "13 of 10".
    const count = (key, n, max) => (n > max ? fill(key + 'Over', L, { n, max, over: n - max }) : fill(key, L, { n, max }));
    const counts = el('p', { class: 'ch-counts' }, el('span', { 'data-testid': 'challenge-moves', class: p.moves > ch.moves ? 'over' : '' }, count('chMoves', p.moves, ch.moves)));
    if (ch.faults != null) counts.append(' · ', el('span', { 'data-testid': 'challenge-faults', class: p.faults > ch.faults ? 'over' : '' }, count('chFaults', p.faults, ch.faults)));
    r.append(counts);
    let status, cls;
    if (p.won) { status = fill('chWon', L, { at: p.at }); cls = 'won'; }
    else if (p.reached) { status = fill('chLate', L, { at: p.at, what: fill(p.reason === 'faults' ? 'wFaults' : 'wMoves', L) }); cls = 'over'; }
    else if (p.over) { status = fill(p.reason === 'faults' ? 'chOverFaults' : p.reason === 'ended' ? 'chEnded' : 'chOver', L); cls = 'over'; }
    else { status = fill('chNotYet', L); cls = 'notyet'; }
    r.append(el('p', { class: 'ch-status ' + cls, 'data-testid': 'challenge-status', 'data-state': cls, role: 'status' }, status));
    const hints = ch.hints || [];
    if (hints.length) {
      const ol = el('ol', { class: 'ch-hints' });
      hints.slice(0, this.hints).forEach((h, i) => ol.append(el('li', { 'data-testid': 'challenge-hint' }, el('b', {}, fill('chHintN', L, { n: i + 1 }) + ' '), el('span', { class: 'authored' }, pick(h, L)))));
      r.append(ol);
      if (this.hints < hints.length) r.append(el('button', { 'data-testid': 'challenge-hint-more', onclick: () => { this.hints++; this.key = ''; this.render(st); } }, fill('chHint', L)));
    }
    if (p.won || p.over) {
      const d = el('div', { class: 'ch-debrief', 'data-testid': 'challenge-debrief' }, el('h4', {}, fill('chDebrief', L)), el('p', { class: 'authored' }, pick(ch.debrief, L)));
      if (p.why) d.append(el('p', { class: 'ch-why' }, pick(p.why, L)));
      if (p.refs && p.refs.length) {
        const refs = el('p', { class: 'ch-refs' }, fill('chProof', L) + ' ');
        for (const seq of p.refs) refs.append(el('button', { class: 'ref', 'data-testid': 'challenge-ref', onclick: () => this.goTo(seq) }, '#' + seq), ' ');
        d.append(refs);
      }
      r.append(d);
      // A debrief that just appeared is brought into view (the side
      // panel may have scrolled it below the fold).
      if (this.debriefed !== which) {
        this.debriefed = which;
        requestAnimationFrame(() => d.scrollIntoView({ block: 'nearest' }));
      }
    } else if (this.debriefed === which) {
      this.debriefed = null;
    }
    r.append(el('div', { class: 'buttons' },
      el('button', { 'data-testid': 'challenge-retry', onclick: () => { this.hints = 0; this.retry(); } }, fill('chRetry', L)),
      el('button', { 'data-testid': 'challenge-leave', onclick: () => this.leave() }, fill('chLeave', L))));
  }
}
