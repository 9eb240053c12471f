// A class's questions on the page: the card of the question on the
// screens (its choices to answer, the tally as bars once revealed, the
// truth from the run), and the tally of every question asked as CSV
// (class.js).

import { state } from './store.js';
import { pick, verdictName } from './i18n.js';
import { el } from './dom.js';
import { say } from './classwords.js';

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

/** questionCard is the question q on the class bar: for a student the
 * choices to answer (room sends the answer), for the teacher the count of
 * answers; after the reveal, on every screen, the tally and the truth. */
export function questionCard(room, q, teacher) {
  const lang = state.lang;
  const card = el('section', { class: 'class-q', 'data-testid': 'question', 'data-id': String(q.id), 'aria-label': say('class.question-label') },
    el('p', { class: 'class-q-text' }, el('b', {}, pick(q.text, lang)), ' ', el('span', { class: 'muted' }, say('class.at-step', { step: q.at }))));
  if (q.about) card.append(el('p', { class: 'class-q-about' }, say('class.about-cmd') + ' ', el('code', {}, q.about)));
  // The bars wait for the reveal on every screen, the projector's too:
  // until then the room sees how many answered, not which way, so that
  // an early majority does not sway the rest.
  const shown = q.revealed;
  const max = Math.max(1, ...(q.counts || [0]));
  const list = el('ol', { class: 'class-choices' + (shown ? ' tally' : ''), 'data-testid': shown ? 'tally' : 'choices', 'aria-label': shown ? say('class.tally-label') : say('class.question-label') });
  q.choices.forEach((ch, i) => {
    const n = (q.counts || [])[i] || 0;
    const right = q.revealed && q.truth && q.truth.includes(i);
    const mine = q.mine === i;
    const label = choiceText(q, ch, lang);
    let body;
    if (!teacher && q.open && q.mine == null) {
      body = el('button', { class: 'class-choice', 'data-testid': 'answer', 'data-choice': String(i), onclick: () => room.link.send('class-answer', { question: q.id, choice: i }) }, label);
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
  card.append(list, questionFoot(q, teacher, lang));
  return card;
}

/** questionFoot is the line under the choices: how many answered, the
 * student's answer in, and once revealed the truth and whether the
 * student's answer was it. */
function questionFoot(q, teacher, lang) {
  const foot = el('p', { class: 'class-q-foot', role: 'status' });
  if (teacher || q.revealed) foot.append(say('class.answered', { n: q.answered }) + ' ');
  if (!teacher && q.mine != null && !q.revealed) foot.append(say('class.your-answer'));
  if (q.revealed) {
    if (q.truth && q.truth.length) {
      foot.append(say('class.truth') + ' ' + q.truth.map((i) => choiceText(q, q.choices[i], lang)).join(', ') + '. ');
      if (!teacher && q.mine != null) foot.append(say(q.truth.includes(q.mine) ? 'class.right' : 'class.wrong'));
    } else foot.append(say('class.no-truth'));
  }
  return foot;
}
