// The class bar (class.js): the class's code, and for the teacher the
// room's counts, the question picker and the class's buttons (Reveal,
// Dismiss, Play the winner, Hide, the tally, the teacher link, the
// remote, End); for a student their nickname, Roam or Back to the class,
// and Leave; then the queued questions, the notices and the question's
// card. After a teacher's class ends, the bar offers its tally.

import { state, changed } from './store.js';
import { el } from './dom.js';
import { download } from './share.js';
import { say, KINDS } from './classwords.js';
import { qrSVG, copyTeacherLink } from './classjoin.js';
import { csv, questionCard } from './classquestion.js';

/** both is a label's whole words and, for Presenter mode's one-line bar
 * (class.css), its short form on screen: the whole words stay what a
 * screen reader reads. */
function both(id, short) {
  return [el('span', { class: 'class-long' }, say(id)), el('span', { class: 'class-short', 'aria-hidden': 'true' }, say(short))];
}

/** drawBar draws room's (the Classroom's) bar afresh, when what it shows
 * changed since it was last drawn. */
export function drawBar(room) {
  const c = room.cls, lang = state.lang, snap = state.snap;
  const teacher = c && c.role === 'teacher', student = c && c.role === 'student';
  const key = JSON.stringify([c, room.queue, lang, room.askKind, snap && snap.step, !!(snap && snap.challenge && snap.challenge.active), room.endedTally, !!state.presenter]);
  if (key === room.barKey) return;
  room.barKey = key;
  const bar = room.bar;
  bar.textContent = '';
  if (!c) {
    if (room.endedTally) bar.append(tallyLine(room));
    return;
  }
  const line = el('div', { class: 'class-line' },
    el('span', { class: 'class-id' }, say('class.class-label') + ' ', el('b', { 'data-testid': 'class-code' }, c.code)));
  if (teacher) teacherBar(room, line, c);
  else studentBar(room, line, c);
  bar.append(line);
  if (teacher && room.queue.length) bar.append(queueLine(room));
  if (c.away && student) bar.append(el('p', { class: 'class-away', role: 'status' }, say('class.teacher-away')));
  if (c.refused && teacher) bar.append(el('p', { class: 'class-away', role: 'status', 'data-testid': 'copy-refused' }, say('class.copy-refused', c.refused)));
  if (c.question) bar.append(questionCard(room, c.question, teacher));
}

/** teacherBar is the teacher's line: the small QR code, the room's
 * counts, the question picker and the class's buttons. */
function teacherBar(room, line, c) {
  const n = c.counts || { members: 0, following: 0, roaming: 0, answered: 0 };
  if (c.qr) {
    const small = el('button', { class: 'qr-btn', 'aria-label': say('class.show-code'), title: say('class.show-code-tip'), onclick: () => room.showBig() });
    small.append(qrSVG(c.qr, 44));
    line.append(small);
  }
  // The sentence, and in Presenter mode (class.css) its short form on
  // screen: the sentence stays the tooltip and what screen readers read.
  const vals = { members: n.online ?? n.members, following: n.following, roaming: n.roaming, answered: n.answered };
  const full = say('class.counts', vals);
  const short = say('class.counts-short', { ...vals, roam: n.roaming ? say('class.roam-short', vals) : '' });
  line.append(el('span', { class: 'class-count', 'data-testid': 'room-count', role: 'status', title: full },
    el('span', { class: 'class-long' }, full), el('span', { class: 'class-short', 'aria-hidden': 'true' }, short)));
  askPicker(room, line);
  const q = c.question;
  line.append(el('button', { 'data-testid': 'reveal', disabled: !q || q.revealed, onclick: () => room.link.send('class-reveal') }, say('class.reveal')));
  if (q) line.append(el('button', { 'data-testid': 'dismiss-question', title: say('class.dismiss-title'), onclick: () => room.link.send('class-dismiss') }, say('class.dismiss')));
  if (q && q.kind === 'move') line.append(el('button', { 'data-testid': 'play-winner', title: say('class.play-winner'), onclick: () => room.link.send('class-play') }, ...both('class.play-winner', 'class.play-winner-short')));
  const hide = el('input', { type: 'checkbox', 'data-testid': 'class-hide', checked: room.hiding(), onchange: (e) => room.setHide(e.target.checked) });
  line.append(el('label', { class: 'class-hide', title: say('class.hide') }, hide, ' ', el('span', { class: 'class-long' }, say('class.hide')), el('span', { class: 'class-short', 'aria-hidden': 'true' }, say('class.hide-short'))));
  line.append(csvButton(room, c.code));
  line.append(el('button', { 'data-testid': 'teacher-link', onclick: () => copyTeacherLink(c.code) }, say('class.teacher-link')));
  if (room.hooks.remote) line.append(room.hooks.remote(c.code));
  line.append(el('button', { class: 'danger', 'data-testid': 'end-class', title: say('class.end-class'), onclick: () => { if (confirm(say('class.end-confirm'))) room.link.send('class-end'); } }, ...both('class.end-class', 'class.end-class-short')));
}

/** askPicker adds the question picker to the teacher's line: the kinds
 * the run can ask (a vote on moves in a challenge), the teacher's own
 * question's text and choices, and Ask. */
function askPicker(room, line) {
  // In Presenter mode the picker names each kind in short, so that the
  // bar keeps one line; the question itself is on the card once asked.
  const kinds = KINDS.filter(([k]) => k !== 'move' || (state.snap && state.snap.challenge && state.snap.challenge.active));
  const kind = el('select', { 'data-testid': 'ask-kind', 'aria-label': say('class.ask-what'), title: say((kinds.find(([k]) => k === room.askKind) || kinds[0])[1]),
    onchange: (e) => { room.askKind = e.target.value; room.barKey = ''; room.render(); } },
  ...kinds.map(([k, s, short]) => el('option', { value: k, selected: k === room.askKind, title: say(s) }, say(state.presenter ? short : s))));
  line.append(kind);
  let text = null, choices = null;
  if (room.askKind === 'free') { // kept across renders, so that what is typed stays
    text = room.freeText || (room.freeText = el('input', { 'data-testid': 'ask-text', maxLength: 200, size: 24 }));
    choices = room.freeChoices || (room.freeChoices = el('textarea', { 'data-testid': 'ask-choices', rows: 2, cols: 18 }));
    for (const [e, id] of [[text, 'class.free-text'], [choices, 'class.free-choices']]) {
      e.setAttribute('aria-label', say(id));
      e.placeholder = say(id);
    }
    line.append(text, choices);
  }
  line.append(el('button', { class: 'primary', 'data-testid': 'ask', onclick: () => {
    const ask = { kind: room.askKind };
    if (text) { ask.text = text.value; ask.choices = choices.value.split('\n').map((s) => s.trim()).filter(Boolean); }
    room.link.send('class-ask', { ask });
  } }, say('class.ask')));
}

/** queueLine lists the questions queued for later steps, each with its
 * step and a button that takes it off (the remote queues them; each is
 * asked by itself when the run gets there). */
function queueLine(room) {
  const items = room.queue.map((q) => {
    const kind = KINDS.find(([k]) => k === q.kind);
    return el('li', { 'data-step': String(q.step) }, say('class.queued-at', { step: q.step }) + ' · ' + (q.text || (kind ? say(state.presenter ? kind[2] : kind[1]) : q.kind)), ' ',
      el('button', { class: 'class-x', 'aria-label': say('class.unqueue'), title: say('class.unqueue'), onclick: () => room.link.send('class-unqueue', { step: q.step }) }, '✕'));
  });
  return el('div', { class: 'class-queue', 'data-testid': 'class-queue', title: say('class.queue-title') },
    el('span', { class: 'class-queue-label' }, say('class.queued')), el('ul', {}, ...items));
}

/** csvButton downloads the tally of every question asked. */
function csvButton(room, code) {
  return el('button', { 'data-testid': 'export-csv', title: say('class.export-csv'), disabled: !room.history.length, onclick: () => download('class-' + code + '-tally.csv', csv(room.history, state.lang), 'text/csv') }, ...both('class.export-csv', 'class.export-csv-short'));
}

/** tallyLine is the bar after the teacher's class ended: the tally to
 * keep, and a button to put the bar away. */
function tallyLine(room) {
  const code = room.endedCode || 'class';
  return el('div', { class: 'class-line' }, el('span', { class: 'class-you' }, say('class.ended')), ' ',
    csvButton(room, code), ' ',
    el('button', { 'data-testid': 'dismiss-tally', onclick: () => { room.endedTally = false; changed(); } }, say('class.close')));
}

/** studentBar is a student's line: their nickname, whether they follow
 * or roam, Roam or Back to the class, and Leave. */
function studentBar(room, line, c) {
  line.append(el('span', { class: 'class-you' }, say('class.you') + ' ', el('b', {}, c.name)));
  line.append(el('span', { class: 'class-mode ' + (c.following ? 'on' : 'off'), 'data-testid': 'follow', 'data-following': String(c.following), role: 'status' },
    say(c.following ? 'class.following' : 'class.roaming')));
  if (c.following) line.append(el('button', { 'data-testid': 'roam', onclick: () => room.link.send('class-roam') }, say('class.roam')));
  else line.append(el('button', { class: 'primary', 'data-testid': 'back-to-class', onclick: () => { room.appliedView = ''; room.link.send('class-follow'); } }, say('class.back-to-class')));
  line.append(el('button', { 'data-testid': 'leave-class', onclick: () => room.link.send('class-leave') }, say('class.leave')));
}
