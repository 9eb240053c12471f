// Two painters with one small drawing API, so that the same drawing code
// fills the on-screen canvas and writes the SVG export.

// The clients' colours: each at least 4.5:1 against white (the timeline
// and the lane names) and against PANEL, the side panels' and the side by
// side's lane bar's grey (they write their names and labels, and wash
// out on no projector; TestBrowserPaletteContrast), and told apart
// by colour-blind viewers: the first four differ by a colour distance
// (CIELAB ΔE) of 25 or more under simulated protanopia, deuteranopia and
// tritanopia (Machado et al. 2009), the first five by 10 or more; blue and
// orange, the easiest pair, come first. Vermillion (darkened to 4.9:1) is
// kept for what went wrong; every colour comes with a label or a shape.
export const PALETTE = ['#0072B2', '#A85A00', '#8842F0', '#D71161', '#2E7D32', '#000000'];
/** PANEL is the side panels' background (app.css --panel), the darkest
 * that client colours are written on. */
export const PANEL = '#f6f6f4';
export const BAD = '#C4480A';
export const INK = '#1b1b1b';
export const MUTED = '#6b6b6b';
export const RULE = '#d6d6d6';

// A painter given rec (an array) records every label it writes with its
// role (outcome, mark, note, …), the event's seq, the text drawn, the
// whole text it stands for (full: all the lines of a text written over
// several, or what a label shortened on purpose would have said) and
// whether it lost characters to an ellipsis (cut): the page's draw model,
// which the browser tests read.

export class CanvasPainter {
  constructor(ctx, font, rec = null) { this.c = ctx; this.font = font; this.rec = rec; }
  line(x1, y1, x2, y2, color, width = 1, dash = null) {
    const c = this.c;
    c.beginPath();
    c.strokeStyle = color;
    c.lineWidth = width;
    c.setLineDash(dash || []);
    c.moveTo(x1, y1);
    c.lineTo(x2, y2);
    c.stroke();
    c.setLineDash([]);
  }
  rect(x, y, w, h, fill, stroke = null, dash = null) {
    const c = this.c;
    if (fill) { c.fillStyle = fill; c.fillRect(x, y, w, h); }
    if (stroke) { c.strokeStyle = stroke; c.lineWidth = 1.5; c.setLineDash(dash || []); c.strokeRect(x, y, w, h); c.setLineDash([]); }
  }
  poly(pts, fill, alpha = 1) {
    if (pts.length < 3) return;
    const c = this.c;
    c.beginPath();
    c.moveTo(pts[0][0], pts[0][1]);
    for (const p of pts.slice(1)) c.lineTo(p[0], p[1]);
    c.closePath();
    c.globalAlpha = alpha;
    c.fillStyle = fill;
    c.fill();
    c.globalAlpha = 1;
  }
  circle(x, y, r, fill, stroke = null) {
    const c = this.c;
    c.beginPath();
    c.arc(x, y, r, 0, Math.PI * 2);
    if (fill) { c.fillStyle = fill; c.fill(); }
    if (stroke) { c.strokeStyle = stroke; c.lineWidth = 2; c.stroke(); }
  }
  /** push draws what follows scaled by s from (dx, dy), until pop. */
  push(s, dx, dy) {
    this.c.save();
    this.c.translate(dx, dy);
    this.c.scale(s, s);
  }
  /** clip keeps what follows, until pop, inside a rectangle. */
  clip(x, y, w, h) {
    this.c.beginPath();
    this.c.rect(x, y, w, h);
    this.c.clip();
  }
  pop() { this.c.restore(); }
  measure(s, size, bold) {
    this.c.font = `${bold ? '600 ' : ''}${size}px ${this.font}`;
    return this.c.measureText(s).width;
  }
  /** text draws s with its left (align 'left'), centre or right at x; bg
   * fills a box behind it, halo outlines its letters in white (it stays
   * readable over lanes and bars, which still show around it). */
  text(x, y, s, { size = 13, color = INK, align = 'left', bold = false, bg = null, halo = false, max = 0, role = '', seq = 0, full = s } = {}) {
    const c = this.c;
    const asked = s;
    s = fit(this, s, size, bold, max);
    c.font = `${bold ? '600 ' : ''}${size}px ${this.font}`;
    const w = c.measureText(s).width;
    const left = align === 'left' ? x : align === 'right' ? x - w : x - w / 2;
    if (this.rec && role) this.rec.push({ role, seq, text: s, full, cut: s !== asked, left, right: left + w, size, y, color });
    if (bg) { c.fillStyle = bg; c.fillRect(left - 3, y - size * 0.8, w + 6, size * 1.15); }
    c.textBaseline = 'alphabetic';
    if (halo) {
      c.strokeStyle = '#ffffff';
      c.lineWidth = Math.max(3, size * 0.22);
      c.lineJoin = 'round';
      c.strokeText(s, left, y);
    }
    c.fillStyle = color;
    c.fillText(s, left, y);
    return w;
  }
}

function fit(p, s, size, bold, max) {
  if (!max || p.measure(s, size, bold) <= max) return s;
  let lo = 0, hi = s.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (p.measure(s.slice(0, mid) + '…', size, bold) <= max) lo = mid; else hi = mid - 1;
  }
  return s.slice(0, lo) + '…';
}

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export class SvgPainter {
  constructor(width, height, font, measureCtx, rec = null) {
    this.w = width; this.h = height; this.font = font; this.out = []; this.m = measureCtx; this.rec = rec;
    this.open = []; // the groups each push opened
    this.clips = 0;
  }
  push(s, dx, dy) {
    this.out.push(`<g transform="translate(${dx.toFixed(1)} ${dy.toFixed(1)}) scale(${s.toFixed(4)})">`);
    this.open.push(1);
  }
  clip(x, y, w, h) {
    const id = 'clip' + ++this.clips;
    this.out.push(`<clipPath id="${id}"><rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${Math.max(w, 0).toFixed(1)}" height="${Math.max(h, 0).toFixed(1)}"/></clipPath><g clip-path="url(#${id})">`);
    if (this.open.length) this.open[this.open.length - 1]++;
  }
  pop() {
    for (let n = this.open.pop() || 0; n > 0; n--) this.out.push('</g>');
  }
  line(x1, y1, x2, y2, color, width = 1, dash = null) {
    this.out.push(`<line x1="${x1.toFixed(1)}" y1="${y1.toFixed(1)}" x2="${x2.toFixed(1)}" y2="${y2.toFixed(1)}" stroke="${color}" stroke-width="${width}"${dash ? ` stroke-dasharray="${dash.join(' ')}"` : ''}/>`);
  }
  rect(x, y, w, h, fill, stroke = null, dash = null) {
    this.out.push(`<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${Math.max(w, 0).toFixed(1)}" height="${Math.max(h, 0).toFixed(1)}" fill="${fill || 'none'}"${stroke ? ` stroke="${stroke}" stroke-width="1.5"` : ''}${dash ? ` stroke-dasharray="${dash.join(' ')}"` : ''}/>`);
  }
  poly(pts, fill, alpha = 1) {
    if (pts.length < 3) return;
    this.out.push(`<polygon points="${pts.map((p) => p[0].toFixed(1) + ',' + p[1].toFixed(1)).join(' ')}" fill="${fill}" fill-opacity="${alpha}"/>`);
  }
  circle(x, y, r, fill, stroke = null) {
    this.out.push(`<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${r}" fill="${fill || 'none'}"${stroke ? ` stroke="${stroke}" stroke-width="2"` : ''}/>`);
  }
  measure(s, size, bold) {
    this.m.font = `${bold ? '600 ' : ''}${size}px ${this.font}`;
    return this.m.measureText(s).width;
  }
  text(x, y, s, { size = 13, color = INK, align = 'left', bold = false, bg = null, halo = false, max = 0, role = '', seq = 0, full = s } = {}) {
    const asked = s;
    s = fit(this, s, size, bold, max);
    const w = this.measure(s, size, bold);
    const left = align === 'left' ? x : align === 'right' ? x - w : x - w / 2;
    if (this.rec && role) this.rec.push({ role, seq, text: s, full, cut: s !== asked, left, right: left + w, size, y, color });
    if (bg) this.rect(left - 3, y - size * 0.8, w + 6, size * 1.15, bg);
    const outline = halo ? ` stroke="#ffffff" stroke-width="${Math.max(3, size * 0.22).toFixed(1)}" stroke-linejoin="round" paint-order="stroke"` : '';
    this.out.push(`<text x="${left.toFixed(1)}" y="${y.toFixed(1)}" font-size="${size}"${bold ? ' font-weight="600"' : ''} fill="${color}"${outline}>${esc(s)}</text>`);
    return w;
  }
  toString() {
    return `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="${this.w}" height="${this.h}" viewBox="0 0 ${this.w} ${this.h}" font-family="${esc(this.font)}">\n<rect width="100%" height="100%" fill="#ffffff"/>\n${this.out.join('\n')}\n</svg>\n`;
  }
}
