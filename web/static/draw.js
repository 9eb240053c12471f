// draw paints rows r0..r1 of a timeline model with any painter (canvas or
// SVG). It is a pure function of the model, a layout and the view options.

import { spansIn } from './derive.js';
import { PALETTE, BAD, GOOD, INK, MUTED, RULE } from './paint.js';
import { t as tr, pick } from './i18n.js';

/** fmtTime writes virtual nanoseconds as the server does: 1.002s. With
 * digits, to that many decimals of a second (the narrow time column shows
 * 4: a run on real Redis logs microseconds; the event's own text keeps them). */
export function fmtTime(ns, digits = 6) {
  const neg = ns < 0;
  const s = (Math.abs(ns) / 1e9).toFixed(digits).replace(/0+$/, '').replace(/\.$/, '');
  return (neg ? '-' : '') + s + 's';
}

/** fmtCmd writes a command as redis-cli shows it, hiding long scripts; an
 * EVAL or EVALSHA of a script the server named shows the name (the event's
 * script field) where Redis got the body or the SHA1. */
export function fmtCmd(args, script) {
  if (!args) return '';
  if (script && args.length > 1 && /^eval(sha)?$/i.test(args[0])) args = [args[0], script, ...args.slice(2)];
  return args.map((a, i) => {
    if (i === 1 && a.length > 40 && /^eval$/i.test(args[0])) a = '<script>';
    if (a.length > 24 && /^[0-9a-f-]{24,}$/i.test(a)) a = a.slice(0, 8) + '…';
    return a === '' || /[\s"']/.test(a) ? JSON.stringify(a) : a;
  }).join(' ');
}

export function clientColor(m, name) {
  const i = m.clients.indexOf(name);
  return PALETTE[(i < 0 ? 0 : i) % PALETTE.length];
}

/** layout places the lanes: a gutter for step and time, then one lane per
 * client and per node. */
export function layout(m, width, rowH, big) {
  const gutter = big ? 130 : 104;
  const lanes = [...m.clients.map((n) => ({ name: n, kind: 'client', w: 1 })), ...m.nodes.map((n) => ({ name: n, kind: 'node', w: 1.8 }))];
  const total = lanes.reduce((a, l) => a + l.w, 0) || 1;
  const unit = Math.max((width - gutter) / total, 20);
  const x = new Map();
  let left = gutter;
  for (const l of lanes) {
    l.left = left;
    l.right = left + unit * l.w;
    l.x = l.kind === 'node' ? left + unit * l.w * 0.3 : left + (unit * l.w) / 2;
    left = l.right;
    x.set(l.kind + ':' + l.name, l.x);
    x.set(l.kind + 'R:' + l.name, l.right);
  }
  const font = big ? 20 : 13;
  return { gutter, lanes, lw: unit, x, rowH, width, font, small: big ? 16 : 11 };
}

const cx = (L, name) => L.x.get('client:' + name) ?? L.gutter;
const nx = (L, name) => L.x.get('node:' + name) ?? L.width - 20;

function arrowHead(p, x1, y1, x2, y2, color, s) {
  const a = Math.atan2(y2 - y1, x2 - x1);
  p.poly([[x2, y2], [x2 - s * Math.cos(a - 0.45), y2 - s * Math.sin(a - 0.45)], [x2 - s * Math.cos(a + 0.45), y2 - s * Math.sin(a + 0.45)]], color);
}

function cross(p, x, y, s, color, w = 3) {
  p.line(x - s, y - s, x + s, y + s, color, w);
  p.line(x - s, y + s, x + s, y - s, color, w);
}

/**
 * drawRows paints rows r0..r1 with their top at top + r*rowH.
 * o: {lang, highlight: Set of seqs, selected: seq, cursorRow, ended}
 */
export function drawRows(p, m, L, r0, r1, top, o) {
  const H = L.rowH;
  const y = (r) => top + r * H + H / 2;
  const lang = o.lang;
  const last = m.rows.length - 1;
  r1 = Math.min(r1, last);
  const yTop = top + r0 * H;
  const yBot = top + (r1 + 1) * H;

  // Row stripes, highlighted rows, verdict bands.
  for (let r = r0; r <= r1; r++) {
    const e = m.rows[r];
    if (e.kind === 'verdict') {
      p.rect(0, top + r * H, L.width, H, e.name === 'safe' ? '#dff3ea' : '#fbe3d6');
    } else if (r % 2 === 1) {
      p.rect(0, top + r * H, L.width, H, '#f7f7f7');
    }
    if (o.highlight && o.highlight.has(e.seq)) p.rect(0, top + r * H, L.width, H, '#fff2b3');
    if (o.selected === e.seq) p.rect(1, top + r * H + 1, L.width - 2, H - 2, null, INK);
  }
  // Lanes.
  for (const l of L.lanes) {
    if (l.kind === 'client') p.line(l.x, yTop, l.x, yBot, RULE, 2);
    else p.line(l.x, yTop, l.x, yBot, '#7a7a7a', 4);
  }
  p.line(L.gutter - 4, yTop, L.gutter - 4, yBot, RULE, 1);

  const spans = spansIn(m, r0, r1);
  const end = (s) => (s.r1 === undefined ? last : s.r1);
  // Background spans first: overlaps, critical sections, pauses, downed nodes, partitions, leases.
  for (const s of spans) {
    if (s.type === 'overlap') {
      const a = top + s.r0 * H, b = top + (end(s) + 1) * H;
      p.rect(0, a, L.width, b - a, 'rgba(213,94,0,0.10)');
      p.rect(2, a, 8, b - a, BAD);
      // At the far right of its first row (an "enter" mark, drawn by its
      // client's lane), clear of the row's number in the gutter.
      p.text(L.width - 12, a + H / 2 + L.small * 0.35, '⚠ ' + s.who.join(' + ') + ' ' + tr('inside', lang), { size: L.small, color: BAD, bold: true, align: 'right', bg: 'rgba(255,255,255,0.85)' });
    }
  }
  for (const s of spans) {
    const a = top + s.r0 * H + H / 2, b = top + end(s) * H + H / 2;
    switch (s.type) {
      case 'cs': {
        const x = cx(L, s.client), c = clientColor(m, s.client), w = Math.min(18, L.lw * 0.25);
        p.rect(x - w / 2, a, w, Math.max(b - a, 2), c + '55', c);
        break;
      }
      case 'pause': {
        const x = cx(L, s.client);
        for (let yy = a; yy < b; yy += 10) p.line(x - 6, yy, x + 6, Math.min(yy + 5, b), MUTED, 2);
        break;
      }
      case 'down': {
        const x = nx(L, s.node);
        p.rect(x - 6, a, 12, b - a, 'rgba(0,0,0,0.18)', INK, [4, 3]);
        break;
      }
      case 'partition': {
        const x = nx(L, s.node) - Math.min(L.lw * 0.3, 40);
        p.line(x, a, x, b, BAD, 3, [8, 5]);
        break;
      }
      case 'lease': drawLease(p, m, L, s, top, end(s)); break;
    }
  }
  // Requests: an arrow to the node and one back.
  for (const s of spans) {
    if (s.type !== 'req') continue;
    const c = clientColor(m, s.client), x1 = cx(L, s.client), x2 = nx(L, s.node);
    const hs = L.font * 0.7;
    if (s.exec !== undefined) {
      p.line(x1, y(s.send), x2, y(s.exec), c, 2);
      arrowHead(p, x1, y(s.send), x2, y(s.exec), c, hs);
      if (s.reply !== undefined) {
        p.line(x2, y(s.exec), x1, y(s.reply), c, 2, [6, 3]);
        arrowHead(p, x2, y(s.exec), x1, y(s.reply), c, hs);
      } else if (s.lost !== undefined) {
        const mx = (x1 + x2) / 2, my = y(s.lost);
        p.line(x2, y(s.exec), mx, my, c, 2, [6, 3]);
        cross(p, mx, my, L.font * 0.5, BAD);
      } else if (s.r1 === undefined) {
        p.line(x2, y(s.exec), (x1 + x2) / 2, y(last) + H / 2, c, 1.5, [2, 4]);
      }
    } else if (s.lost !== undefined) {
      const mx = (x1 + x2) / 2, my = y(s.lost);
      p.line(x1, y(s.send), mx, my, c, 2);
      cross(p, mx, my, L.font * 0.5, BAD);
    } else if (s.r1 === undefined) {
      p.line(x1, y(s.send), (x1 + x2) / 2, y(last) + H / 2, c, 1.5, [2, 4]);
    }
  }
  // One glyph and caption per row.
  for (let r = r0; r <= r1; r++) drawRow(p, m, L, m.rows[r], r, y(r), o, r === 0 || m.rows[r - 1].t !== m.rows[r].t);
}

function drawLease(p, m, L, s, top, r1) {
  const H = L.rowH;
  const x0 = nx(L, s.node) + 6;
  const full = Math.min(L.lw * 0.16, 26);
  const c = clientColor(m, s.owner);
  const width = (r) => {
    if (s.expire <= 0 || s.ttl <= 0) return full;
    const left = s.expire * 1e6 - m.rows[r].t;
    return full * Math.max(0, Math.min(1, left / (s.ttl * 1e6)));
  };
  const left = [], right = [];
  for (let r = s.r0; r <= r1; r++) {
    const w = width(r);
    const ya = top + r * H + (r === s.r0 ? H / 2 : 0), yb = top + r * H + (r === r1 ? H / 2 : H);
    right.push([x0 + w, ya], [x0 + w, yb]);
    left.push([x0, ya], [x0, yb]);
  }
  p.poly([...left, ...right.reverse()], c, 0.55);
}

function pill(p, x, y, text, color, L, o = {}) {
  const size = L.small + 1;
  const max = L.lw * 1.8;
  while (text.length > 4 && p.measure(text, size, true) > max) text = text.slice(0, -2);
  if (p.measure(text, size, true) > max) text = text.slice(0, 3);
  const w = p.measure(text, size, true);
  x = Math.max(x, L.gutter + w / 2 + 8);
  p.rect(x - w / 2 - 6, y - size * 0.75, w + 12, size * 1.35, o.fill || '#ffffff', color);
  p.text(x, y + size * 0.35, text, { size, color: o.ink || color, align: 'center', bold: true });
}

function drawRow(p, m, L, e, r, y, o, newTime) {
  const lang = o.lang;
  const f = L.font;
  p.text(16, y + f * 0.35, '#' + e.seq, { size: L.small, color: MUTED });
  if (newTime) p.text(L.gutter - 10, y + f * 0.35, fmtTime(e.t, 4), { size: L.small, color: INK, align: 'right', bold: true });
  const x = e.client ? cx(L, e.client) : 0;
  const n = e.node ? nx(L, e.node) : 0;
  const c = e.client ? clientColor(m, e.client) : INK;
  const capMax = L.lw * 0.92;
  const thread = e.thread && e.thread !== 'main' ? e.thread + ': ' : '';
  switch (e.kind) {
    case 'send':
      p.circle(x, y, f * 0.3, c);
      p.text(x + f * 0.7, y + f * 0.35, thread + fmtCmd(e.cmd, e.script), { size: f, color: INK, bg: 'rgba(255,255,255,0.85)', max: capMax * 0.95 });
      break;
    case 'exec': {
      p.rect(n - f * 0.4, y - f * 0.4, f * 0.8, f * 0.8, c, INK);
      const x0 = n + Math.min(L.lw * 0.16, 26) + 12;
      const room = (L.x.get('nodeR:' + e.node) ?? L.width) - x0 - 4;
      const w = p.text(x0, y + f * 0.35, `${(e.cmd || [''])[0]} → ${e.reply ?? ''}`, { size: f, color: INK, bold: true, max: Math.max(room, 20) * 0.75 });
      keysText(p, m, L, e, n, y, w + 10);
      break;
    }
    case 'reply':
      p.text(x + f * 0.7, y + f * 0.35, '← ' + (e.reply ?? ''), { size: f, color: c, bold: true, bg: 'rgba(255,255,255,0.85)', max: capMax * 0.9 });
      break;
    case 'lost':
      p.text((x + n) / 2 + f, y + f * 0.35, tr('lost', lang) + ': ' + (e.note || fmtCmd(e.cmd, e.script)), { size: L.small, color: BAD, bold: true, bg: '#fff', max: L.lw });
      break;
    case 'timeout':
      cross(p, x, y, f * 0.35, BAD, 2);
      p.text(x + f * 0.7, y + f * 0.35, 'timeout', { size: f, color: BAD, bold: true, bg: '#fff' });
      break;
    case 'start':
      p.circle(x, y, f * 0.35, '#fff', c);
      p.text(x + f * 0.7, y + f * 0.35, thread + 'start', { size: L.small, color: MUTED });
      break;
    case 'done':
      p.rect(x - f * 0.3, y - f * 0.3, f * 0.6, f * 0.6, e.note ? BAD : c);
      p.text(x + f * 0.7, y + f * 0.35, thread + 'done' + (e.note ? ': ' + e.note : ''), { size: L.small, color: e.note ? BAD : MUTED, max: capMax });
      break;
    case 'mark': {
      const bad = /refused|failed|gave-up|sold-out/.test(e.name);
      pill(p, x, y, thread + e.name + (e.note ? ' · ' + e.note : ''), bad ? BAD : c, L);
      break;
    }
    case 'init':
      p.rect(n - f * 0.4, y - f * 0.4, f * 0.8, f * 0.8, '#fff', INK);
      keysText(p, m, L, e, n, y, 0);
      p.text(n - f * 0.9, y + f * 0.35, 'init', { size: L.small, color: MUTED, align: 'right' });
      break;
    case 'expire':
      cross(p, n, y, f * 0.45, BAD, 3);
      p.text(n - f, y + f * 0.35, `${(e.keys || []).map((k) => k.key).join(', ')} ${tr('expired', lang)}${e.note ? ' — ' + e.note : ''}`, { size: f, color: BAD, bold: true, align: 'right', bg: '#fff', max: Math.min(L.lw * 1.8, n - L.gutter - 10) });
      break;
    case 'fault': {
      const at = e.client && !e.node ? x : e.node ? n : x;
      if (e.name === 'crash' || e.name === 'node-crash' || e.name === 'failover') cross(p, at, y, f * 0.55, BAD, 4);
      else p.poly([[at, y - f * 0.55], [at + f * 0.55, y], [at, y + f * 0.55], [at - f * 0.55, y]], BAD);
      const label = '⚡ ' + e.name + (e.note ? ': ' + e.note : '');
      if (at === n && e.node) p.text(at - f, y + f * 0.35, label, { size: f, color: BAD, bold: true, align: 'right', bg: '#fff', max: Math.min(L.lw * 1.8, n - L.gutter - 10) });
      else p.text(at + f * 0.8, y + f * 0.35, label, { size: f, color: BAD, bold: true, bg: '#fff', max: capMax * 1.6 });
      break;
    }
    case 'verdict': {
      const safe = e.name === 'safe';
      const say = pick(e.say, lang) || e.note || '';
      p.text(L.gutter + 6, y + f * 0.35, (safe ? '✓ ' : '✗ ') + e.name + (say ? ' — ' + say : ''), { size: f, color: safe ? '#00573f' : '#8a3200', bold: true, max: L.width - L.gutter - 12 });
      break;
    }
  }
  if (o.saySeqs && o.saySeqs.has(e.seq)) {
    p.circle(7, y, L.small * 0.5, INK);
    p.text(7, y + L.small * 0.35, 'i', { size: L.small - 1, color: '#fff', align: 'center', bold: true });
  }
}

function keysText(p, m, L, e, n, y, dx) {
  if (!e.keys || !e.keys.length) return;
  const s = e.keys.map((k) => {
    if (k.ttl === -2) return k.key + ' gone';
    let v = k.type === 'string' ? JSON.stringify(k.value.length > 10 ? k.value.slice(0, 8) + '…' : k.value) : '{…}';
    if (k.owner) v = k.owner;
    return k.key + '=' + v + (k.ttl >= 0 ? ' ' + fmtTime(k.ttl * 1e6) : '');
  }).join(', ');
  const x0 = n + Math.min(L.lw * 0.16, 26) + 12 + dx;
  const room = (L.x.get('nodeR:' + e.node) ?? L.width) - x0 - 4;
  p.text(x0, y + L.small * 0.35, s, { size: L.small, color: MUTED, max: Math.max(room, 20) });
}
