// What a class does to the rest of the page: a following student's run
// controls are locked (the teacher drives), and what gives a lesson's
// ending away is hidden until the run gets there (class.js).

import { state } from './store.js';
import { renderControls } from './controls.js';
import { say } from './classwords.js';

const $ = (id) => document.getElementById(id);

/** lockControls disables the run's controls while a student follows
 * the class (the teacher drives), and gives them back after. */
export function lockControls(on) {
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

/** hideGiveaways hides, until the run ends, the expected verdict and
 * the lesson's paragraph (it states how the run ends: "the stock is sold
 * twice") and the challenge's goal beside the lesson's run (most often
 * the same ending), the setting or the teacher's (room, the Classroom).
 * (The chapters the run has not reached and the narration's future are
 * never shown: chapters.js, panels.js.) The page's render writes the
 * first two afresh each time, and the goal keeps its text aside, so what
 * is hidden comes back at the end or when hiding stops. The
 * lesson's-plan label over the paragraph stays: it says what the
 * paragraph is, not what it tells. */
export function hideGiveaways(room) {
  const on = room.hiding(), snap = state.snap;
  const box = $('hide-giveaways');
  if (box) {
    box.checked = on;
    box.disabled = !!(room.cls && room.cls.role === 'student');
  }
  const lbl = $('hide-giveaways-label');
  if (lbl) lbl.textContent = say('class.hide');
  const before = on && !(snap && snap.ended); // before the first state too: the page's first lesson
  if (before) $('expect').textContent = '(' + say('class.hidden') + ')';
  const lesson = $('lesson-text');
  if (lesson) {
    if (before) lesson.textContent = say('class.hidden-lesson');
    lesson.toggleAttribute('data-hidden', before);
  }
  // The challenge's goal, offered beside the lesson's run, is most often
  // the lesson's ending ("Get B's lock deleted by A"); in the challenge
  // it is the task, and stays.
  const goal = document.querySelector('[data-testid=challenge-goal] .authored');
  if (goal) {
    if (before && !(snap && snap.challenge && snap.challenge.active)) {
      if (!goal.dataset.text) goal.dataset.text = goal.textContent;
      goal.textContent = say('class.hidden-lesson');
    } else if (goal.dataset.text) {
      goal.textContent = goal.dataset.text;
      delete goal.dataset.text;
    }
  }
}
