// draw paints rows r0..r1 of a timeline model with any painter (canvas or
// SVG). It is a pure function of the model, a layout (layout.js) and the
// view options.

import { spansIn } from './derive.js';
import { BAD, INK, MUTED, RULE } from './paint.js';
import { fill } from './i18n.js';
import { clientColor, cx, nx, cross } from './lanes.js';
import { drawRow } from './row.js';
import { fmtTime } from './format.js';

function arrowHead(p, x1, y1, x2, y2, color, s) {
  const a = Math.atan2(y2 - y1, x2 - x1);
  p.poly([[x2, y2], [x2 - s * Math.cos(a - 0.45), y2 - s * Math.sin(a - 0.45)], [x2 - s * Math.cos(a + 0.45), y2 - s * Math.sin(a + 0.45)]], color);
}

/**
 * drawRows paints rows r0..r1 with their top at top + L.top(r).
 * o: {lang, highlight: Set of seqs, selected: seq, cursorRow, ended}
 */
export function drawRows(p, m, L, r0, r1, top, o) {
  const H = L.rowH;
  const y = (r) => top + L.top(r) + H / 2;
  const lang = o.lang;
  const last = m.rows.length - 1;
  r1 = Math.min(r1, last);
  const yTop = top + L.top(r0);
  const yBot = top + L.top(r1 + 1);

  // Row stripes, highlighted rows, verdict bands.
  for (let r = r0; r <= r1; r++) {
    const e = m.rows[r];
    if (e.kind === 'verdict') {
      p.rect(0, top + L.top(r), L.width, L.height(r), e.name === 'safe' ? '#dff3ea' : '#fbe3d6');
    } else if (r % 2 === 1) {
      p.rect(0, top + L.top(r), L.width, H, '#f7f7f7');
    }
    if (o.highlight && o.highlight.has(e.seq)) p.rect(0, top + L.top(r), L.width, L.height(r), '#fff2b3');
    if (o.selected === e.seq) p.rect(1, top + L.top(r) + 1, L.width - 2, L.height(r) - 2, null, INK);
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
      const a = top + L.top(s.r0), b = top + L.top(end(s) + 1);
      p.rect(0, a, L.width, b - a, 'rgba(213,94,0,0.10)');
      p.rect(2, a, 8, b - a, BAD);
      // At the far right of its first row (an "enter" mark, drawn by its
      // client's lane), clear of the row's number in the gutter.
      p.text(L.width - 12, a + H / 2 + L.small * 0.35, '⚠ ' + fill('insideTogether', lang, { who: s.who.join(' + ') }), { size: L.small, color: BAD, bold: true, align: 'right', bg: 'rgba(255,255,255,0.85)', role: 'overlap', seq: m.rows[s.r0] && m.rows[s.r0].seq });
    }
  }
  for (const s of spans) {
    const a = y(s.r0), b = y(end(s));
    switch (s.type) {
      case 'cs': {
        const x = cx(L, s.client), c = clientColor(m, s.client), w = Math.min(18, L.lw * 0.25);
        p.rect(x - w / 2, a, w, Math.max(b - a, 2), c + '55', c);
        break;
      }
      case 'stopped': {
        const x = cx(L, s.client);
        for (let yy = a; yy < b; yy += 10) p.line(x - 6, yy, x + 6, Math.min(yy + 5, b), MUTED, 2);
        break;
      }
      case 'down': {
        const x = nx(L, s.node);
        p.rect(x - 6, a, 12, b - a, 'rgba(0,0,0,0.18)', INK, [4, 3]);
        break;
      }
      case 'cut': {
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
        p.line(x2, y(s.exec), (x1 + x2) / 2, top + L.top(last + 1), c, 1.5, [2, 4]);
      }
    } else if (s.lost !== undefined) {
      const mx = (x1 + x2) / 2, my = y(s.lost);
      p.line(x1, y(s.send), mx, my, c, 2);
      cross(p, mx, my, L.font * 0.5, BAD);
    } else if (s.r1 === undefined) {
      p.line(x1, y(s.send), (x1 + x2) / 2, top + L.top(last + 1), c, 1.5, [2, 4]);
    }
  }
  if (L.timed) drawTime(p, m, L, r0, r1, top, lang);
  // One glyph and caption per row.
  for (let r = r0; r <= r1; r++) drawRow(p, m, L, m.rows[r], r, y(r), o, r === 0 || m.rows[r - 1].t !== m.rows[r].t);
}

/** zigzag draws a break line from x0 to x1 around height y: teeth w wide
 * and 2a high. */
function zigzag(p, x0, x1, y, w, a) {
  for (let x = x0; x < x1; x += 2 * w) {
    p.line(x, y - a, Math.min(x + w, x1), y + a, MUTED, 1.5);
    p.line(x + w, y + a, Math.min(x + 2 * w, x1), y - a, MUTED, 1.5);
  }
}

// The time ticks' steps, in ms: the first that leaves room for a label.
const TICKS = [1, 2, 5, 10, 20, 50, 100, 200, 500];

/** drawTime draws the time view's marks over rows r0..r1 (and the gaps
 * above them): the ticks of virtual time in the gutter, between rows far
 * enough apart, and each break across the lanes with the time it leaves
 * out, so that a long idle stretch reads as long without a page of blank. */
function drawTime(p, m, L, r0, r1, top, lang) {
  const H = L.rowH;
  const step = (TICKS.find((s) => s * L.pxPerMs >= L.small * 3) || 1000) * 1e6;
  for (let r = Math.max(r0, 1); r <= Math.min(r1 + 1, m.rows.length - 1); r++) {
    const a = m.rows[r - 1].t, b = m.rows[r].t;
    for (let t = (Math.floor(a / step) + 1) * step; t < b; t += step) {
      const yy = L.yAt(t, r);
      if (yy === null) break;
      // a tick too near a row's own time label would crowd it
      if (yy - (L.top(r - 1) + H / 2) < L.small * 1.3 || L.top(r) + H / 2 - yy < L.small * 1.3) continue;
      p.line(L.gutter - 12, top + yy, L.gutter - 4, top + yy, MUTED, 1);
      if (!L.narrow) p.text(L.gutter - 14, top + yy + L.small * 0.35, fmtTime(t, 3), { size: L.small - 1, color: MUTED, align: 'right', role: 'tick' });
    }
  }
  for (const b of L.breaks) {
    if (b.r < r0 || b.r > r1 + 1) continue;
    const y0 = top + b.y, h = b.h, mid = y0 + h / 2;
    p.rect(0, y0 + 3, L.width, h - 6, '#f3f3f1');
    for (const yy of [y0 + h * 0.28, y0 + h * 0.72]) zigzag(p, 0, L.width, yy, 8, 3);
    p.text(L.width / 2, mid + L.small * 0.4, fill('timeBreak', lang, { d: fmtTime(b.dt, 3) }), { size: L.small + 1, color: INK, bold: true, align: 'center', bg: '#f3f3f1', role: 'break', seq: m.rows[b.r].seq });
  }
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
    const ya = top + L.top(r) + (r === s.r0 ? H / 2 : 0), yb = top + L.top(r) + (r === r1 ? H / 2 : L.height(r));
    right.push([x0 + w, ya], [x0 + w, yb]);
    left.push([x0, ya], [x0, yb]);
  }
  p.poly([...left, ...right.reverse()], c, 0.55);
}
