// Where the timeline puts things: the gutter, one lane per client and per
// node, and each row's top and height. A row is one line high, except a
// verdict's, which is as tall as its explanation wrapped to the width:
// the verdict is what a lesson is for, and it is never cut.

import { pick, verdictName } from './i18n.js';
import { fmtCmd } from './format.js';

/** verdictText is a verdict row's whole text in lang. A verdict given a
 * sign of its own (e.sign: the side by side's ⚠ on a run that did not face
 * the same faults) is written with it in place of ✓ or ✗. */
export function verdictText(e, lang) {
  const say = pick(e.say, lang);
  return (e.sign || (e.name === 'safe' ? '✓ ' : '✗ ')) + verdictName(e.name, lang) + (say ? ' — ' + say : '');
}

/** wrap breaks text into lines no wider than width (by words, and between
 * any two Chinese characters); a word wider than a line is broken too. */
export function wrap(text, width, measure) {
  const tokens = text.match(/[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f](?:[，。；：、）」』》！？]*)|[^\s\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f]+\s*|\s+/g) || [];
  const lines = [];
  let line = '';
  for (let tok of tokens) {
    if (measure(line + tok.trimEnd()) <= width) { line += tok; continue; }
    if (line.trim()) lines.push(line.trimEnd());
    line = '';
    tok = tok.trimStart();
    while (tok && measure(tok.trimEnd()) > width) { // a word longer than a line
      let n = tok.length - 1;
      while (n > 1 && measure(tok.slice(0, n)) > width) n--;
      lines.push(tok.slice(0, n));
      tok = tok.slice(n);
    }
    line = tok;
  }
  if (line.trim() || !lines.length) lines.push(line.trimEnd());
  return lines;
}

// The measured widths of command texts, by size and text: a layout
// measures each send's command, and most repeat (bounded, cleared when full).
const widths = new Map();
function widthOf(text, size, measure) {
  const k = size + '|' + text;
  let w = widths.get(k);
  if (w === undefined) {
    if (widths.size > 20000) widths.clear();
    w = measure(text, size, false);
    widths.set(k, w);
  }
  return w;
}

/** commandText is a send's whole text: its thread (other than main), then
 * the command as redis-cli shows it. */
export function commandText(e) {
  if (e.cmdText === undefined) e.cmdText = (e.thread && e.thread !== 'main' ? e.thread + ': ' : '') + fmtCmd(e.cmd, e.script);
  return e.cmdText;
}

/** placeCommand decides how a send's whole command is written beside its
 * client's lane: to the right, over the lanes beyond (or to the left when
 * the right has less room: the last lanes of a phone), at the row's size;
 * smaller, down to the small labels' size, when that makes it fit; else
 * at the small size over as many lines as it needs (the row grows).
 * It gives {size, left, lines, room}. */
export function placeCommand(L, e, measure) {
  const full = commandText(e), f = L.font;
  const x = L.x.get('client:' + e.client) ?? L.gutter;
  const gap = f * 0.7, right = L.width - 4 - (x + gap), left = x - gap - L.gutter - 2;
  const room = Math.max(right, left);
  for (let size = f; size >= L.small; size--) {
    const w = widthOf(full, size, measure);
    if (w <= right) return { size, left: false, lines: [full], room: right };
    if (w <= left) return { size, left: true, lines: [full], room: left };
  }
  const size = L.small;
  return { size, left: left > right, lines: wrap(full, Math.max(room, 40), (s) => measure(s, size, false)), room };
}

/** layout places the lanes (a gutter for step and time, then one lane per
 * client and per node) and the rows. measure(text, size, bold) gives a
 * text's width; with it, a verdict row grows to hold its wrapped text.
 * timed places the rows by virtual time (timedRows) instead of one under
 * the other. big is Presenter mode's size (20 px, a command at least 16),
 * or a font size in px for a size between (Side by side in Presenter mode:
 * its smaller reaches 15 px, the code's size there). */
export function layout(m, width, rowH, big, measure, lang, timed = false) {
  // The gutter holds "#seq" and the time side by side: wide enough for the
  // longest number in the log, so that they never run together.
  const sized = typeof big === 'number';
  const small = sized ? Math.min(big, 15) : big ? 16 : 11;
  const last = m.rows.length ? m.rows[m.rows.length - 1].seq : 0;
  const digits = Math.max(3, String(last).length);
  // On a phone the time column gives its room to the lanes (the cursor
  // and the detail panel still say the time).
  const narrow = width < 600;
  // "#seq" starts at 16 px (after the narration's mark); the time ends 10 px
  // short of the gutter's rule. Measured when a measure is given.
  const lastT = m.rows.length ? m.rows[m.rows.length - 1].t : 0;
  const seqW = measure ? measure('#' + '8'.repeat(digits), small, false) : small * 0.62 * (digits + 1);
  const timeW = narrow ? 0 : measure ? measure(String(Math.floor(lastT / 1e9)).replace(/\d/g, '8') + '.8888s', small, true) + 10 : small * 0.62 * 8;
  const gutter = Math.ceil(16 + seqW + timeW + (narrow ? 6 : 14));
  const lanes = [...m.clients.map((n) => ({ name: n, kind: 'client', w: 1 })), ...m.nodes.map((n) => ({ name: n, kind: 'node', w: narrow ? 1.3 : 1.8 }))];
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
  const font = sized ? big : big ? 20 : 13;
  const L = { gutter, lanes, lw: unit, x, rowH, width, font, small, narrow, lineH: Math.round(font * 1.35), timed, breaks: [] };
  rows(L, m, measure, lang);
  if (timed) timedRows(L, m);
  return L;
}

// The time view's scale: a millisecond of virtual time is PX_PER_MS pixels
// at the normal row height (presenter mode scales it with the rows). A gap
// between two rows longer than BREAK_MS, in which nothing happens, is
// drawn as a break BREAK_ROWS rows high, marked, with its length.
export const PX_PER_MS = 1;
export const BREAK_MS = 600;
const BREAK_ROWS = 2.5;

/** timedRows places L's rows by virtual time: between two rows, the
 * space their time apart takes at the scale (at least the upper row's own
 * height, so that no two rows overlap: a 1 ms reply sits right under its
 * request, a 100 ms wait is 100 px, a 5 s pause is long). A longer gap
 * than BREAK_MS is a break (L.breaks: {r, y, h, dt}, the space above row
 * r). L.yAt(t) gives the height of virtual time t (ns) outside breaks,
 * for the time ticks. */
function timedRows(L, m) {
  const n = m.rows.length, H = L.rowH;
  const k = (PX_PER_MS * H) / 28 / 1e6; // px per ns
  const tops = new Float64Array(n + 1);
  const height = L.height;
  L.breaks = [];
  for (let r = 1; r <= n; r++) {
    const above = tops[r - 1] + height(r - 1);
    if (r === n) { tops[r] = above; break; }
    const dt = m.rows[r].t - m.rows[r - 1].t;
    if (dt > BREAK_MS * 1e6) {
      const h = Math.round(BREAK_ROWS * H);
      L.breaks.push({ r, y: above, h, dt });
      tops[r] = above + h;
    } else {
      // The rows' middles are dt apart at the scale, or as close as the
      // upper row's height lets them be.
      const mid = tops[r - 1] + H / 2 + dt * k;
      tops[r] = Math.max(above, mid - H / 2);
    }
  }
  L.top = (r) => tops[Math.max(0, Math.min(r, n))];
  L.total = tops[n];
  L.rowAt = (y) => {
    let lo = 0, hi = Math.max(n - 1, 0);
    while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (tops[mid] <= y) lo = mid; else hi = mid - 1; }
    return lo;
  };
  // yAt(t): the height at which virtual time t falls, between the middles
  // of the rows around it (null inside a break or outside the log).
  const broken = new Set(L.breaks.map((b) => b.r));
  L.yAt = (t, r) => {
    if (r < 1 || r >= n || broken.has(r)) return null;
    const a = m.rows[r - 1], b = m.rows[r];
    if (!(t > a.t && t < b.t)) return null;
    const ya = tops[r - 1] + H / 2, yb = tops[r] + H / 2;
    return ya + ((t - a.t) / (b.t - a.t)) * (yb - ya);
  };
  L.pxPerMs = k * 1e6;
}

/** rows gives L the rows' geometry: L.top(r), L.height(r), L.rowAt(y),
 * L.lines(r), a verdict row's wrapped lines, and L.command(r), a send's
 * command written over several lines (placeCommand). Only those rows are
 * taller than rowH, so the extra heights are kept for them alone. */
function rows(L, m, measure, lang) {
  const H = L.rowH, n = m.rows.length;
  const at = [], cum = [0], lines = new Map(), cmds = new Map(), extra = new Map();
  const textW = L.width - L.gutter - 12;
  // A hidden timeline (width 0, as under the side-by-side view) is not
  // wrapped: a line a character wide would cost a measure per character.
  const wrapping = measure && textW >= 80;
  for (const v of m.verdicts || []) {
    const r = m.rowOfSeq ? m.rowOfSeq.get(v.seq) : m.rows.indexOf(v);
    if (r === undefined || r < 0) continue;
    const ls = wrapping ? wrap(verdictText(v, lang), textW, (s) => measure(s, L.font, true)) : [verdictText(v, lang)];
    lines.set(r, ls);
    if (ls.length > 1) extra.set(r, (ls.length - 1) * L.lineH);
  }
  if (wrapping) {
    for (let r = 0; r < n; r++) {
      if (m.rows[r].kind !== 'send') continue;
      const c = placeCommand(L, m.rows[r], measure);
      if (c.lines.length < 2) continue;
      cmds.set(r, c);
      extra.set(r, (c.lines.length - 1) * Math.round(c.size * 1.3));
    }
  }
  at.push(...extra.keys());
  at.sort((a, b) => a - b);
  for (const r of at) cum.push(cum[cum.length - 1] + extra.get(r));
  // before(r): how many taller rows come before row r.
  const before = (r) => {
    let lo = 0, hi = at.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (at[mid] < r) lo = mid + 1; else hi = mid; }
    return lo;
  };
  L.top = (r) => r * H + cum[before(r)];
  L.height = (r) => H + (extra.get(r) || 0);
  L.lines = (r) => lines.get(r);
  L.command = (r) => cmds.get(r);
  L.total = n * H + cum[cum.length - 1];
  L.rowAt = (y) => {
    let lo = 0, hi = Math.max(n - 1, 0);
    while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (L.top(mid) <= y) lo = mid; else hi = mid - 1; }
    return lo;
  };
}
