// The lesson's paragraph: marked as the lesson's plan where it does not
// tell this run, and on a phone cut to a few lines with a button that
// opens it whole.

import { state } from './store.js';
import { t, fill, pick } from './i18n.js';

const $ = (id) => document.getElementById(id);

/** initLesson wires the paragraph's More/Less button. */
export function initLesson() {
  $('lesson-more').onclick = () => { $('lesson-text').parentElement.classList.toggle('open'); lessonMore(); };
  addEventListener('resize', lessonMore);
}

/** renderLessonPlan marks the lesson's paragraph as the lesson's plan
 * where it does not tell this run: off its script (from the step where a
 * user's action changed it) and in a challenge, which runs without the
 * script. On script the paragraph is shown plainly; a file with no
 * paragraph has no plan to mark. hidden says a class hides the paragraph
 * (the server then sends none: the plan is still there). */
export function renderLessonPlan(snap, lang, hidden) {
  const label = $('lesson-plan'), text = $('lesson-text');
  const inChallenge = !!(snap.challenge && snap.challenge.active);
  const plan = (inChallenge || !!snap.offScript) && (!!pick(snap.lesson, lang) || hidden);
  label.hidden = !plan;
  text.toggleAttribute('data-plan', plan);
  if (!plan) {
    label.textContent = '';
    return;
  }
  const s = inChallenge ? t('lessonPlanChallenge', lang) : fill('lessonPlan', lang, { step: snap.offScriptAt });
  if (label.textContent !== s) label.textContent = s;
}

/** lessonMore offers, where the lesson's paragraph is cut to a few lines
 * (a phone), a button that opens it whole, and says Less once open. */
export function lessonMore() {
  const p = $('lesson-text'), b = $('lesson-more'), box = p.parentElement;
  const open = box.classList.contains('open');
  const key = p.textContent + '|' + innerWidth + '|' + open;
  if (b.dataset.key === key) return;
  b.dataset.key = key;
  b.hidden = !open && p.scrollHeight <= p.clientHeight + 1;
  b.textContent = t(open ? 'lessonLess' : 'lessonMore', state.lang);
  b.setAttribute('aria-expanded', String(open));
}
