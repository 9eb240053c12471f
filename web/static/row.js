// row: one timeline row's glyph and caption (drawRow), with the pills,
// outcome badges and key states it writes beside its lane.

import { BAD, INK, MUTED } from './paint.js';
import { t as tr, name as nm, pick } from './i18n.js';
import { fmtTime, fmtCmd, outcome, OUTCOME, keyState } from './format.js';
import { verdictText, placeCommand, commandText } from './layout.js';
import { clientColor, cx, nx, cross } from './lanes.js';

// The mark names drawn as trouble, as the server's welcome declares them
// (sim.SetbackMarks).
let setbacks = new Set();

/** setSetbacks takes the welcome message's list of setback marks. */
export function setSetbacks(names) {
  setbacks = new Set(names);
}

/** pill draws text in a rounded box centred at x (kept clear of the
 * gutter), never cut; it returns the box's right edge. */
function pill(p, x, y, text, color, L, o = {}) {
  const size = L.small + 1;
  const w = p.measure(text, size, true);
  x = Math.max(x, L.gutter + w / 2 + 8);
  p.rect(x - w / 2 - 6, y - size * 0.75, w + 12, size * 1.35, o.fill || '#ffffff', color);
  p.text(x, y + size * 0.35, text, { size, color: o.ink || color, align: 'center', bold: true, role: o.role, seq: o.seq });
  return x + w / 2 + 6;
}

/** badge draws a reply's outcome in a box whose left edge is at x; it
 * returns the box's right edge. The outcome is short and never cut. */
function badge(p, x, y, out, L, seq, big = false) {
  const size = big ? L.font : L.small + 1;
  const w = p.measure(out.text, size, true);
  const c = OUTCOME[out.cls] || OUTCOME.val;
  p.rect(x, y - size * 0.8, w + 10, size * 1.45, c.fill, c.ink);
  p.text(x + 5, y + size * 0.36, out.text, { size, color: c.ink, bold: true, role: 'outcome', seq });
  return x + w + 10;
}

/** ranWhisker draws at x the bracket within which a real Redis ran an
 * exec event's command (from its time to its until): a whisker down to the
 * last row whose time is within it, or a short one on its own row. */
function ranWhisker(p, m, L, e, r, y, x) {
  if (!(e.until > e.t)) return;
  let k = r;
  while (k + 1 < m.rows.length && m.rows[k + 1].t <= e.until) k++;
  const y0 = k > r ? y : y - L.rowH * 0.3, y1 = k > r ? y + L.top(k) - L.top(r) : y + L.rowH * 0.3;
  p.line(x, y0, x, y1, MUTED, 1.5);
  p.line(x - 3, y0, x + 3, y0, MUTED, 1.5);
  p.line(x - 3, y1, x + 3, y1, MUTED, 1.5);
}

export function drawRow(p, m, L, e, r, y, o, newTime) {
  const lang = o.lang;
  const f = L.font;
  p.text(16, y + f * 0.35, '#' + e.seq, { size: L.small, color: MUTED, role: 'seq', seq: e.seq });
  if (newTime && !L.narrow) p.text(L.gutter - 10, y + f * 0.35, fmtTime(e.t, 4), { size: L.small, color: INK, align: 'right', bold: true, role: 'time', seq: e.seq });
  const x = e.client ? cx(L, e.client) : 0;
  const n = e.node ? nx(L, e.node) : 0;
  const c = e.client ? clientColor(m, e.client) : INK;
  const right = L.width - 6; // a label may run over the lanes to its right, up to the edge
  const thread = e.thread && e.thread !== 'main' ? e.thread + ': ' : '';
  const note = pick(e.note, lang);
  switch (e.kind) {
    case 'send': {
      p.circle(x, y, f * 0.3, c);
      // The whole command, its arguments too (the NX, the EX 3, the
      // token are what a lesson is about), placed by placeCommand: beside
      // the lane, over the lanes beyond it (outlined, so that they show
      // through), smaller or over several lines rather than cut.
      const at = L.command(r) || placeCommand(L, e, (s, size, bold) => p.measure(s, size, bold));
      const full = commandText(e), lh = Math.round(at.size * 1.3), x0 = at.left ? x - f * 0.7 : x + f * 0.7;
      at.lines.forEach((s, i) => p.text(x0, y + at.size * 0.35 + i * lh, s, { size: at.size, color: INK, halo: true, align: at.left ? 'right' : 'left', max: at.room, role: 'command', seq: e.seq, full }));
      break;
    }
    case 'exec': {
      p.rect(n - f * 0.4, y - f * 0.4, f * 0.8, f * 0.8, c, INK);
      ranWhisker(p, m, L, e, r, y, n - f * 0.4 - 6);
      let x0 = n + Math.min(L.lw * 0.16, 26) + 8;
      const out = outcome(e, lang);
      if (out) {
        // At the right edge (a phone, many lanes) the badge goes to the
        // node's left rather than off the canvas.
        const bw = p.measure(out.text, L.small + 1, true) + 10;
        if (x0 + bw > L.width - 2) { badge(p, n - f * 0.6 - bw, y, out, L, e.seq); x0 = L.width; } else x0 = badge(p, x0, y, out, L, e.seq) + 6;
      }
      const room = (L.x.get('nodeR:' + e.node) ?? L.width) - x0 - 4;
      const name = (e.cmd || [''])[0];
      if (name && p.measure(name, L.small, true) <= room) { // the name whole or not at all
        const w = p.text(x0, y + f * 0.35, name, { size: L.small, color: INK, bold: true, role: 'command', seq: e.seq });
        keysText(p, m, L, e, x0 + w + 8, y, lang);
      }
      break;
    }
    case 'reply': {
      const out = outcome(e, lang);
      const x0 = x + f * 0.6 + p.measure('← ', f, true);
      const bw = out ? p.measure(out.text, L.small + 1, true) + 10 : 0;
      if (x0 + bw > L.width - 2) {
        // No room to the right (the last lanes of a narrow screen): the
        // badge goes to the left of the client's lane.
        if (out) badge(p, x - f * 0.6 - bw, y, out, L, e.seq);
      } else {
        p.text(x + f * 0.6, y + f * 0.35, '←', { size: f, color: c, bold: true });
        if (out) badge(p, x0, y, out, L, e.seq);
      }
      break;
    }
    case 'lost': {
      const at = (x + n) / 2 + f;
      const what = e.name ? nm(e.name, lang) : tr('lost', lang);
      const end = pill(p, at + p.measure(what, L.small + 1, true) / 2 + 6, y, what, BAD, L, { role: 'mark', seq: e.seq });
      const msg = note || fmtCmd(e.cmd, e.script);
      if (msg) p.text(end + 6, y + L.small * 0.35, msg, { size: L.small, color: BAD, bg: '#fff', max: right - end - 6, role: 'note', seq: e.seq });
      break;
    }
    case 'timeout':
      cross(p, x, y, f * 0.35, BAD, 2);
      pill(p, x + f * 0.7 + p.measure(tr('timeout', lang), L.small + 1, true) / 2 + 6, y, tr('timeout', lang), BAD, L, { role: 'mark', seq: e.seq });
      break;
    case 'start':
      p.circle(x, y, f * 0.35, '#fff', c);
      p.text(x + f * 0.7, y + f * 0.35, thread + tr('start', lang), { size: L.small, color: MUTED, role: 'label', seq: e.seq });
      break;
    case 'done':
      p.rect(x - f * 0.3, y - f * 0.3, f * 0.6, f * 0.6, e.note ? BAD : c);
      p.text(x + f * 0.7, y + f * 0.35, thread + tr('done', lang) + (note ? ': ' + note : ''), { size: L.small, color: e.note ? BAD : MUTED, max: right - x - f, role: 'label', seq: e.seq });
      break;
    case 'mark': {
      const bad = setbacks.has(e.name);
      const label = thread + nm(e.name, lang);
      const w = p.measure(label, L.small + 1, true);
      const end = pill(p, x + w / 2 + 6 + f * 0.4, y, label, bad ? BAD : c, L, { role: 'mark', seq: e.seq });
      if (note) p.text(end + 6, y + L.small * 0.35, note, { size: L.small, color: bad ? BAD : MUTED, bg: 'rgba(255,255,255,0.85)', max: right - end - 6, role: 'note', seq: e.seq });
      break;
    }
    case 'init':
      p.rect(n - f * 0.4, y - f * 0.4, f * 0.8, f * 0.8, '#fff', INK);
      keysText(p, m, L, e, n + Math.min(L.lw * 0.16, 26) + 12, y, lang);
      p.text(n - f * 0.9, y + f * 0.35, tr('init', lang) + (note ? ' — ' + note : ''), { size: L.small, color: MUTED, align: 'right', max: Math.max(n - L.gutter - 12, 30), role: 'label', seq: e.seq });
      break;
    case 'expire': {
      cross(p, n, y, f * 0.45, BAD, 3);
      const label = `${(e.keys || []).map((k) => k.key).join(', ')} ${tr('expired', lang)}`;
      const room = n - L.gutter - 12;
      const w = p.measure(label, f, true);
      if (w + 20 <= room) {
        p.text(n - f, y + f * 0.35, label, { size: f, color: BAD, bold: true, align: 'right', bg: '#fff', role: 'mark', seq: e.seq });
        if (note) p.text(n + f, y + f * 0.35, note, { size: L.small, color: BAD, bg: '#fff', max: right - n - f, role: 'note', seq: e.seq });
      } else {
        const end = p.text(n + f, y + f * 0.35, label, { size: f, color: BAD, bold: true, bg: '#fff', role: 'mark', seq: e.seq });
        if (note) p.text(n + f + end + 8, y + f * 0.35, note, { size: L.small, color: BAD, bg: '#fff', max: right - n - f - end - 8, role: 'note', seq: e.seq });
      }
      break;
    }
    case 'fault': {
      const at = e.client && !e.node ? x : e.node ? n : x;
      if (e.effect === 'client-dies' || e.effect === 'node-down') cross(p, at, y, f * 0.55, BAD, 4);
      else p.poly([[at, y - f * 0.55], [at + f * 0.55, y], [at, y + f * 0.55], [at - f * 0.55, y]], BAD);
      const label = '⚡ ' + nm(e.name, lang);
      const w = p.measure(label, f, true);
      const x0 = at === n && e.node && w + 20 <= n - L.gutter - 12 ? n - f - w : at + f * 0.8;
      p.text(x0, y + f * 0.35, label, { size: f, color: BAD, bold: true, bg: '#fff', role: 'mark', seq: e.seq });
      if (note) {
        const nx0 = x0 < at ? at + f * 0.8 : x0 + w + 8;
        p.text(nx0, y + f * 0.35, note, { size: L.small, color: BAD, bg: '#fff', max: right - nx0, role: 'note', seq: e.seq });
      }
      break;
    }
    case 'verdict': {
      // Its explanation wrapped over as many lines as it needs (the
      // layout made the row that tall), never cut.
      const color = e.name === 'safe' ? '#00573f' : '#8a3200';
      const lines = L.lines(r) || [verdictText(e, lang)];
      const full = verdictText(e, lang);
      lines.forEach((s, i) => p.text(L.gutter + 6, y + f * 0.35 + i * L.lineH, s, { size: f, color, bold: true, max: L.width - L.gutter - 12, role: 'verdict', seq: e.seq, full }));
      break;
    }
  }
  if (o.saySeqs && o.saySeqs.has(e.seq)) {
    p.circle(7, y, L.small * 0.5, INK);
    p.text(7, y + L.small * 0.35, 'i', { size: L.small - 1, color: '#fff', align: 'center', bold: true });
  }
}

function keysText(p, m, L, e, x0, y, lang) {
  if (!e.keys || !e.keys.length) return;
  const s = e.keys.map((k) => keyState(k, lang)).join(', ');
  const room = (L.x.get('nodeR:' + e.node) ?? L.width) - x0 - 4;
  if (room < 24) return;
  p.text(x0, y + L.small * 0.35, s, { size: L.small, color: MUTED, max: room, role: 'keys', seq: e.seq });
}
