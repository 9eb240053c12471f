// Chapters and paced play: a lesson's scripted narration lines are its
// chapters, listed to jump back to (the server sends each with the step at
// which the lesson's own run says it). Only the chapters the cursor has
// reached are listed: a chapter ahead tells what has not happened yet, so
// the list only counts them (lesson.ShownAt states the rule). With paced
// play on (remembered), Play stops at each chapter until the user presses
// Play again: the server's play loop stops after a step that says one.

import { fill, pick } from './i18n.js';
import { el } from './dom.js';

export class Chapters {
  constructor({ panel, list, paced, title, label }, seek) {
    Object.assign(this, { panel, list, paced, title, label, seek });
    this.paced.checked = localStorage.getItem('lockstep.paced') !== 'off';
    this.paced.onchange = () => localStorage.setItem('lockstep.paced', this.paced.checked ? 'on' : 'off');
    this.key = '';
  }

  /** on reports whether play stops at each chapter. */
  on() { return this.paced.checked; }

  /** render lists the chapters, the one the cursor is in marked. */
  render(st) {
    const snap = st.snap;
    const chs = (snap && snap.chapters) || [];
    this.title.textContent = fill('chapters', st.lang);
    this.label.textContent = fill('paced', st.lang);
    this.panel.hidden = !chs.length;
    if (!chs.length) return;
    let at = -1;
    chs.forEach((c, i) => { if (c.step <= snap.step) at = i; });
    // "Stopped at a chapter" only where paced play stopped (not where
    // the user stepped by hand or paused).
    const stopped = at >= 0 && chs[at].step === snap.step && st.playStopped && this.on() && st.model.says.some((s) => s.seq === chs[at].seq);
    // Off its script, the run is the lesson's only up to the step where
    // the user changed it: a chapter after it is the lesson's plan, shown
    // as such and not a link into this run, which may never say it.
    const cut = snap.offScript ? snap.offScriptAt : Infinity;
    const key = JSON.stringify([st.lang, chs.map((c) => c.seq), at, stopped, cut, snap.step]);
    if (key === this.key) return;
    this.key = key;
    this.list.textContent = '';
    chs.forEach((c, i) => {
      if (c.step > snap.step) return;
      const plan = c.step > cut;
      if (plan && (i === 0 || chs[i - 1].step <= cut)) {
        this.list.append(el('li', { class: 'chapters-plan', 'data-testid': 'chapters-plan' }, fill('chaptersPlan', st.lang, { step: cut })));
      }
      const parts = [el('span', { class: 'chapter-n' }, String(i + 1) + '.'), ' ', el('span', { class: 'authored' }, pick(c.text, st.lang)), ' ',
        el('span', { class: 'chapter-step' }, fill('chapterAt', st.lang, { step: c.step }))];
      const b = plan ? el('span', { class: 'chapter plan', 'data-step': String(c.step) }, ...parts)
        : el('button', { class: 'chapter link', 'data-step': String(c.step), onclick: () => this.seek(c.step) }, ...parts);
      const li = el('li', { class: plan ? 'plan' : i === at ? 'current' : i < at ? 'past' : '' }, b);
      if (i === at && !plan) li.setAttribute('aria-current', 'step');
      this.list.append(li);
    });
    const ahead = chs.filter((c) => c.step > snap.step).length;
    if (ahead) this.list.append(el('li', { class: 'chapters-ahead', 'data-testid': 'chapters-ahead' }, fill('chaptersAhead', st.lang, { n: ahead })));
    if (stopped) this.list.append(el('li', { class: 'beat-stop', 'data-testid': 'beat-stop', role: 'status' }, fill('beatStop', st.lang)));
  }
}
