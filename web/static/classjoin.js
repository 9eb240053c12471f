// Joining a class: this browser's id, the join dialog a student fills in,
// and the teacher's big code for the projector (the code, its link and QR
// code), with the teacher's own link to copy (class.js).

import { el } from './dom.js';
import { toast } from './toast.js';
import { say } from './classwords.js';

/** browserID is this browser's id for classes, kept in its storage: a
 * browser holds one membership of a class (docs/protocol.md, Classes). */
export function browserID() {
  let id = localStorage.getItem('lockstep.browser');
  if (!id) {
    const b = crypto.getRandomValues(new Uint8Array(16));
    id = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
    localStorage.setItem('lockstep.browser', id);
  }
  return id;
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

/** buildDialogs adds the join dialog and the big code's to the page,
 * hidden, and keeps their parts on room (the Classroom): render labels
 * them in the page's language. */
export function buildDialogs(room) {
  room.codeIn = el('input', { id: 'join-code-in', 'data-testid': 'join-code', autocomplete: 'off', spellcheck: false, maxLength: 12, size: 8 });
  room.nameIn = el('input', { id: 'nickname-in', 'data-testid': 'nickname', autocomplete: 'nickname', maxLength: 24, size: 16 });
  room.codeLbl = el('label', { htmlFor: 'join-code-in' });
  room.nameLbl = el('label', { htmlFor: 'nickname-in' });
  room.joinTitle = el('h2', { id: 'join-title' });
  room.joinGo = el('button', { class: 'primary', 'data-testid': 'join', type: 'submit' });
  room.joinCancel = el('button', { type: 'button', onclick: () => { room.dialog.hidden = true; } });
  const form = el('form', { class: 'card join-card', onsubmit: (e) => { e.preventDefault(); room.join(); } },
    room.joinTitle, el('p', {}, room.codeLbl, el('br'), room.codeIn), el('p', {}, room.nameLbl, el('br'), room.nameIn),
    el('p', { class: 'buttons' }, room.joinGo, ' ', room.joinCancel));
  room.dialog = el('div', { class: 'overlay', 'data-testid': 'join-dialog', hidden: true, 'aria-labelledby': 'join-title', 'aria-modal': 'true' }, form);
  room.dialog.setAttribute('role', 'dialog');
  document.body.append(room.dialog);
  // The big code for the projector.
  room.bigTitle = el('h2', { id: 'class-big-title' });
  room.bigBody = el('div', { class: 'class-big-body' });
  room.bigClose = el('button', { onclick: () => { room.big.hidden = true; } });
  room.big = el('div', { class: 'overlay', hidden: true, 'aria-labelledby': 'class-big-title', 'aria-modal': 'true' },
    el('div', { class: 'card class-big' }, room.bigTitle, room.bigBody, room.bigClose));
  room.big.setAttribute('role', 'dialog');
  document.body.append(room.big);
}

/** labelDialogs writes the dialogs' words in the page's language. */
export function labelDialogs(room) {
  room.joinTitle.textContent = say('class.join-title');
  room.codeLbl.textContent = say('class.join-code');
  room.nameLbl.textContent = say('class.nickname');
  room.joinGo.textContent = say('class.join');
  room.joinCancel.textContent = say('class.cancel');
  room.bigClose.textContent = say('class.close');
}

/** fillBig writes the big code's card: the join code, its QR code and
 * link (hidden but for the teacher). */
export function fillBig(room) {
  const c = room.cls;
  if (!c || c.role !== 'teacher') { room.big.hidden = true; return; }
  room.bigTitle.textContent = say('class.join-class');
  room.bigBody.textContent = '';
  room.bigBody.append(el('p', { class: 'class-big-code', 'data-testid': 'class-big-code' }, c.code));
  if (c.qr) room.bigBody.append(qrSVG(c.qr, 300));
  room.bigBody.append(el('p', {}, say('class.join-at') + ' ', el('code', { 'data-testid': 'class-link' }, c.link)));
  // A page opened as localhost gives a link no student's device reaches.
  if (['localhost', '127.0.0.1', '[::1]'].includes(location.hostname)) room.bigBody.append(el('p', { class: 'class-away', role: 'note' }, say('class.local-only')));
}

/** copyTeacherLink copies the teacher's link of the class code (its key
 * from this browser's storage) where the browser lets the page. */
export function copyTeacherLink(code) {
  const key = localStorage.getItem('lockstep.teach.' + code);
  const url = location.origin + location.pathname + '#teach=' + code + '.' + key;
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(url).then(() => toast(say('class.teacher-link-copied')), () => toast(say('class.teacher-link-no-copy')));
  else toast(say('class.teacher-link-no-copy'));
}
