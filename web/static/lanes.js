// lanes: where a client's or node's lane is, the colour of a client, and
// the cross both requests and rows draw.

import { PALETTE } from './paint.js';

const extra = new Map();
/** clientColor gives a client its lane colour: the palette first, then
 * hues spread around the wheel, so that many clients stay apart. */
export function clientColor(m, name) {
  const i = Math.max(m.clients.indexOf(name), 0);
  if (i < PALETTE.length) return PALETTE[i];
  if (!extra.has(i)) {
    const h = (i * 137.508 + 20) % 360, l = i % 2 ? 0.34 : 0.44, sat = 0.75;
    const f = (n) => {
      const k = (n + h / 30) % 12, a = sat * Math.min(l, 1 - l);
      return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1)))).toString(16).padStart(2, '0');
    };
    extra.set(i, '#' + f(0) + f(8) + f(4));
  }
  return extra.get(i);
}

export const cx = (L, name) => L.x.get('client:' + name) ?? L.gutter;
export const nx = (L, name) => L.x.get('node:' + name) ?? L.width - 20;

export function cross(p, x, y, s, color, w = 3) {
  p.line(x - s, y - s, x + s, y + s, color, w);
  p.line(x - s, y + s, x + s, y - s, color, w);
}
