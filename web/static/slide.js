// Exports at slide size: the rows in view, or a chosen range of rows,
// drawn into a 16:9 frame (1280×720 units: an SVG of that size, a PNG of
// 1920×1080) under a caption that wraps rather than lose its end. The
// rows are laid out as in Presenter mode and scaled down, as a whole, as
// far as they need to fit; a wider layout then gives long commands and
// verdicts their room.

import { layout, wrap } from './layout.js';
import { drawRows } from './draw.js';
import { clientColor } from './lanes.js';
import { INK } from './paint.js';

export const SLIDE_W = 1280;
export const SLIDE_H = 720;
export const PNG_SCALE = 1.5; // 1920×1080
const MIN_SCALE = 0.25; // below it the rows would not be read: fewer rows go in

/** planSlide fits rows r0..r1 of model m into the frame under the caption
 * caption(r0, r1) gives: it lays them out at SLIDE_W / scale, the scale
 * as large as fits (at most 1); rows that would need less than a quarter
 * of their size are left out, from the end. o: {lang, timed,
 * measure(text, size, bold)}. */
export function planSlide(m, r0, r1, caption, o) {
  const W = SLIDE_W, H = SLIDE_H, pad = 18, cap = 22, head = 44;
  const fit = (r1) => {
    const text = caption(r0, r1);
    const lines = wrap(text, W - 2 * pad, (s) => o.measure(s, cap, true));
    const capH = 12 + lines.length * Math.round(cap * 1.3) + 6;
    const avail = H - capH - 6;
    let s = 1, L = null;
    for (let i = 0; i < 4; i++) {
      L = layout(m, W / s, 40, true, o.measure, o.lang, o.timed);
      const need = head + L.top(r1 + 1) - L.top(r0);
      if (need * s <= avail + 0.5) break;
      s = Math.max(MIN_SCALE, (avail / need) * 0.999);
    }
    let r = r1;
    while (r > r0 && (head + L.top(r + 1) - L.top(r0)) * s > avail + 0.5) r--;
    return { r0, r1: r, s, L, text, lines, capH, head, pad, cap };
  };
  let plan = fit(r1);
  if (plan.r1 < r1) plan = fit(plan.r1); // the caption names the rows that went in
  return plan;
}

/** drawSlide draws a planned slide on painter p (a SLIDE_W × SLIDE_H
 * frame): the caption, whole, on as many lines as it takes; the lane
 * names; the rows, scaled. view: drawRows' options. */
export function drawSlide(p, m, plan, view) {
  const { r0, r1, s, L, lines, capH, head, pad, cap } = plan;
  p.rect(0, 0, SLIDE_W, SLIDE_H, '#ffffff');
  p.rect(0, 0, SLIDE_W, capH, '#f6f6f4');
  const capLH = Math.round(cap * 1.3);
  lines.forEach((t, i) => p.text(pad, 12 + cap * 0.95 + i * capLH, t, { size: cap, bold: true, color: INK, role: 'caption', full: plan.text }));
  const need = head + L.top(r1 + 1) - L.top(r0), w = SLIDE_W / s;
  p.push(s, 0, capH);
  p.rect(0, 0, w, head, '#f6f6f4');
  for (const l of L.lanes) {
    const name = (l.kind === 'client' ? '● ' : '■ ') + l.name;
    p.text(l.x, head * 0.66, name, { size: 20, bold: true, align: 'center', color: l.kind === 'client' ? clientColor(m, l.name) : INK, max: Math.max(l.right - l.left - 4, 24), role: 'lane' });
  }
  p.line(0, head, w, head, '#d6d6d6', 1);
  p.clip(0, head, w, need - head);
  drawRows(p, m, L, r0, r1, head - L.top(r0), view);
  p.pop();
}
