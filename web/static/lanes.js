// lanes: where a client's or node's lane is, the colour of a client, and
// the cross both requests and rows draw.

import { PALETTE, PANEL } from './paint.js';

const extra = new Map();
const panel = [1, 3, 5].map((i) => parseInt(PANEL.slice(i, i + 2), 16) / 255);
/** clientColor gives a client its lane colour: the palette first, then
 * hues spread around the wheel (the golden angle), each as light as a
 * 4.6:1 contrast against the side panels' grey (PANEL, darker than the
 * timeline's white) allows, so that many clients stay apart and readable
 * wherever their names are written. */
export function clientColor(m, name) {
  const i = Math.max(m.clients.indexOf(name), 0);
  if (i < PALETTE.length) return PALETTE[i];
  if (!extra.has(i)) {
    const h = (i * 137.508 + 20) % 360, sat = i % 2 ? 0.75 : 0.95;
    let lo = 0, hi = 0.6;
    for (let k = 0; k < 24; k++) {
      const mid = (lo + hi) / 2;
      if (contrast(hsl(h, sat, mid), panel) >= 4.6) lo = mid; else hi = mid;
    }
    extra.set(i, hex(hsl(h, sat, lo)));
  }
  return extra.get(i);
}

/** hsl gives the sRGB (0..1) of a hue, saturation and lightness. */
function hsl(h, s, l) {
  const a = s * Math.min(l, 1 - l);
  const f = (n) => { const k = (n + h / 30) % 12; return l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1)); };
  return [f(0), f(8), f(4)];
}

const hex = (rgb) => '#' + rgb.map((v) => Math.round(v * 255).toString(16).padStart(2, '0')).join('');

/** contrast is the WCAG contrast ratio of an sRGB colour (0..1) against
 * a lighter one, bg (white unless given). */
export function contrast(rgb, bg = [1, 1, 1]) {
  const lin = (v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
  const lum = (c) => 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]);
  const a = lum(rgb), b = lum(bg);
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

export const cx = (L, name) => L.x.get('client:' + name) ?? L.gutter;
export const nx = (L, name) => L.x.get('node:' + name) ?? L.width - 20;

export function cross(p, x, y, s, color, w = 3) {
  p.line(x - s, y - s, x + s, y + s, color, w);
  p.line(x - s, y + s, x + s, y - s, color, w);
}
