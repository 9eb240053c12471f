// Side by side, drawn: the two runs of a comparison as two timelines,
// each drawn by the main timeline's renderer (derive.js's model, layout.js,
// draw.js), their rows aligned (row n of the left beside row n of the
// right: both layouts share one row geometry, each row as tall as the
// taller side needs), the first row where they part marked on both, the
// rows each side has reached at the session's step lit and the rest
// dimmed under a "now" line. One scroller moves both; a windowed list of
// the visible rows (one <li> a row a side) is what a screen reader reads,
// a click seeks and a test finds.

import { newModel, append } from './derive.js';
import { layout } from './layout.js';
import { drawRows } from './draw.js';
import { CanvasPainter, SvgPainter, BAD, INK, MUTED } from './paint.js';
import { clientColor } from './lanes.js';
import { describe } from './format.js';
import { t, fill } from './i18n.js';
import { FONT } from './timeline.js';

/** GAP is the room between the two timelines, px. */
export const GAP = 14;

const SIDES = ['left', 'right'];

/** shareRows gives the rows of two layouts one geometry: row r is as tall as
 * the taller of its two sides, and the first differing row (diverge, -1:
 * none) has a band above it (band px) where its mark is written. It sets
 * top, height, rowAt and total on both layouts and returns the band's
 * top (or -1). */
export function shareRows(Ls, n, diverge, band) {
  const tops = new Float64Array(n + 1);
  const hs = new Float64Array(n);
  let y = 0, at = -1;
  for (let r = 0; r < n; r++) {
    if (r === diverge) { at = y; y += band; }
    hs[r] = Math.max(...Ls.map((L) => L.height(r)));
    tops[r] = y;
    y += hs[r];
  }
  tops[n] = y;
  const H = Ls[0].rowH;
  for (const L of Ls) {
    L.top = (r) => (r <= n ? tops[Math.max(0, r)] : y + (r - n) * H);
    L.height = (r) => (r < n ? hs[Math.max(0, r)] : H);
    L.total = y;
    L.rowAt = (yy) => {
      let lo = 0, hi = Math.max(n - 1, 0);
      while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (tops[mid] <= yy) lo = mid; else hi = mid - 1; }
      return lo;
    };
  }
  return at;
}

/** Sides draws a comparison's two runs in a scroller over two canvases. */
export class Sides {
  /** root holds the view; onSeek(step) moves the session's run to a
   * step. */
  constructor(root, onSeek) {
    this.root = root;
    this.onSeek = onSeek;
    this.view = null; // {res, lang, presenter, step, ended, clients, unfair}
    this.sel = -1; // the selected row (keyboard, click), -1 none
    this.drawn = { left: [], right: [] }; // the labels of the last frame, each side
    this.pending = false;
    root.textContent = '';
    const mk = (tag, cls, attrs = {}) => {
      const e = document.createElement(tag);
      if (cls) e.className = cls;
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
      return e;
    };
    this.heads = mk('div', 'sbs-heads');
    this.head = {}; this.lanes = {};
    for (const s of SIDES) {
      this.head[s] = mk('div', 'sbs-head ' + s, { 'data-testid': 'sbs-head-' + s });
      this.lanes[s] = mk('div', 'sbs-lanes ' + s, { 'aria-hidden': 'true' });
    }
    this.heads.append(this.head.left, mk('div', 'sbs-gap'), this.head.right, this.lanes.left, mk('div', 'sbs-gap'), this.lanes.right);
    this.stage = mk('div', 'sbs-stage');
    this.canvas = {}; this.list = {};
    for (const s of SIDES) this.canvas[s] = mk('canvas', 'sbs-canvas ' + s, { 'aria-hidden': 'true', 'data-testid': 'sbs-canvas-' + s });
    this.scroll = mk('div', 'sbs-scroll', { tabindex: '0', role: 'region', 'data-testid': 'sbs-scroll' });
    this.spacer = mk('div', 'sbs-spacer');
    this.scroll.append(this.spacer);
    for (const s of SIDES) {
      this.list[s] = mk('ol', 'sbs-rows ' + s, { 'data-testid': 'sbs-rows-' + s });
      this.scroll.append(this.list[s]);
    }
    this.stage.append(this.canvas.left, this.canvas.right, this.scroll);
    root.append(this.heads, this.stage);
    this.scroll.addEventListener('scroll', () => this.request());
    new ResizeObserver(() => this.request()).observe(this.scroll);
    this.scroll.addEventListener('click', (ev) => {
      const li = ev.target.closest('li[data-row]');
      if (li) this.pick(Number(li.dataset.row) - 1, li.dataset.side);
    });
    // ↑ ↓ select a row (both sides: they are aligned), Enter goes to its
    // moment in both runs, Escape drops the selection; the page's other
    // keys (Space steps, ← goes back, …) pass on to it.
    this.scroll.addEventListener('keydown', (ev) => {
      if (ev.ctrlKey || ev.metaKey || ev.altKey || !this.view) return;
      const n = this.rows();
      if (ev.key === 'ArrowUp' || ev.key === 'ArrowDown') {
        const d = ev.key === 'ArrowUp' ? -1 : 1;
        this.select(Math.max(0, Math.min(n - 1, (this.sel < 0 ? this.cursor('left') : this.sel) + d)));
      } else if (ev.key === 'Enter' && this.sel >= 0) {
        this.pick(this.sel, 'left');
      } else if (ev.key === 'Escape' && this.sel >= 0) {
        this.sel = -1;
        this.request();
      } else return;
      ev.preventDefault();
      ev.stopPropagation();
    });
  }

  /** rows is the number of aligned rows: the longer side's. */
  rows() {
    const r = this.view && this.view.res;
    return r ? Math.max(r.left.rows.length, r.right.rows.length) : 0;
  }

  /** set takes what to draw and schedules a redraw. */
  set(view) {
    const again = !this.view || this.view.res !== view.res;
    this.view = view;
    if (again) this.sel = -1;
    this.scroll.setAttribute('aria-label', t('sbsLabel', view.lang));
    this.request();
  }

  request() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => { this.pending = false; this.draw(); });
  }

  /** select marks row r on both sides and scrolls it into view. */
  select(r) {
    this.sel = r;
    this.reveal(r);
    this.request();
  }

  /** pick selects row r and moves the run to the moment side's row r
   * happened (the other side's when this side has no row r). */
  pick(r, side) {
    const res = this.view && this.view.res;
    if (!res) return;
    const row = res[side].rows[r] || res[side === 'left' ? 'right' : 'left'].rows[r];
    this.select(r);
    if (row) this.onSeek(row.at);
  }

  /** cursor is the last row of a side reached at the session's step (-1:
   * none). */
  cursor(side) {
    const v = this.view;
    if (!v || !v.res) return -1;
    const rows = v.res[side].rows;
    if (v.ended) return rows.length - 1;
    let c = -1;
    rows.forEach((x, i) => { if (x.at <= v.step) c = i; });
    return c;
  }

  /** reveal scrolls just enough to show row r (and the mark above the
   * first difference, for that row). */
  reveal(r) {
    const g = this.geometry();
    if (!g || r < 0) return;
    const L = g.L.left, h = this.scroll.clientHeight;
    const top = L.top(r) - (r === this.view.res.diverge ? g.band : 0), bot = L.top(r) + L.height(r);
    if (top < this.scroll.scrollTop) this.scroll.scrollTop = top;
    else if (bot > this.scroll.scrollTop + h) this.scroll.scrollTop = Math.min(top, bot - h);
  }

  /** toFirst scrolls the first difference into the middle of the view and
   * selects it. */
  toFirst() {
    const g = this.geometry(), d = this.view && this.view.res ? this.view.res.diverge : -1;
    if (!g || d < 0) return;
    this.sel = d;
    this.scroll.scrollTop = Math.max(0, g.L.left.top(d) - g.band - this.scroll.clientHeight / 3);
    this.scroll.focus({ preventScroll: true });
    this.request();
  }

  /** models are the two runs' timeline models (kept per answer). */
  models() {
    const v = this.view;
    if (this.modelsOf === v.res) return this.ms;
    const clients = v.clients && v.clients.length ? v.clients : [];
    this.ms = {};
    for (const s of SIDES) {
      const rows = v.res[s].rows;
      // A run the right did not face as the left did says so on its verdict rows too.
      const evs = s === 'right' && v.unfair ? rows.map((e) => (e.kind === 'verdict' && e.name === 'safe' ? { ...e, sign: '⚠ ' } : e)) : rows;
      const m = newModel(clients, []);
      append(m, evs);
      this.ms[s] = m;
    }
    this.modelsOf = v.res;
    return this.ms;
  }

  /** geometry lays both sides out at the scroller's width (kept until the
   * answer, the width, the language or the row height change). */
  geometry() {
    const v = this.view;
    if (!v || !v.res) return null;
    const W = this.scroll.clientWidth;
    const w = Math.max(Math.floor((W - GAP) / 2), 120);
    // In Presenter mode the rows are 17 px in rows 30 px tall rather than
    // the timeline's 20 in 40: two timelines share the width, and the
    // screen's height goes to rows (at least 14 at 1280×720 in a class).
    const H = v.presenter ? 30 : 28;
    const key = [w, H, v.lang].join('|');
    if (this.g && this.g.res === v.res && this.g.key === key) return this.g;
    const ms = this.models();
    const measurer = this.measurer || (this.measurer = new CanvasPainter(document.createElement('canvas').getContext('2d'), FONT));
    const measure = (s, size, bold) => measurer.measure(s, size, bold);
    const L = {};
    for (const s of SIDES) L[s] = layout(ms[s], w, H, v.presenter ? 17 : false, measure, v.lang, false);
    const band = Math.round(H * 1.15);
    const bandAt = shareRows([L.left, L.right], this.rows(), v.res.diverge, band);
    this.g = { res: v.res, key, w, H, L, band, bandAt };
    return this.g;
  }

  draw() {
    const v = this.view;
    // Nothing to draw on while the view is closed (no width).
    if (!v || !v.res || !this.root.isConnected || this.root.hidden || !this.scroll.clientWidth) return;
    const g = this.geometry();
    const total = g.L.left.total + g.H * 2;
    if (this.spacer.style.height !== total + 'px') this.spacer.style.height = total + 'px';
    const W = this.scroll.clientWidth, h = this.scroll.clientHeight;
    this.heads.style.width = W + 'px';
    this.heads.style.gridTemplateColumns = `${g.w}px ${GAP}px ${g.w}px`;
    const top = this.scroll.scrollTop;
    const dpr = window.devicePixelRatio || 1;
    const ms = this.models();
    for (const s of SIDES) {
      const c = this.canvas[s];
      if (c.width !== Math.round(g.w * dpr) || c.height !== Math.round(h * dpr)) {
        c.width = Math.round(g.w * dpr);
        c.height = Math.round(h * dpr);
        c.style.width = g.w + 'px';
        c.style.height = h + 'px';
      }
      c.style.left = (s === 'left' ? 0 : g.w + GAP) + 'px';
      const ctx = c.getContext('2d');
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(0, 0, g.w, h);
      const L = g.L[s], m = ms[s];
      const r0 = Math.max(0, L.rowAt(top) - 1), r1 = L.rowAt(top + h) + 1;
      this.drawn[s] = [];
      this.paint(new CanvasPainter(ctx, FONT, this.drawn[s]), s, m, L, r0, r1, -top, h);
      this.window(s, m, L, r0, Math.min(r1, m.rows.length - 1));
      this.header(s, m, L);
    }
    this.root.dataset.lang = v.lang; // drawn in this language (tests wait for it)
    this.root.dataset.rows = String(this.rows());
  }

  /** paint draws side s's rows r0..r1 (their tops at top + L.top(r)) on
   * painter p, a view height tall: the rows by the main renderer, then the
   * first difference's band and frame, the rows not reached yet dimmed
   * under the "now" line, and the end of a run shorter than the other. */
  paint(p, s, m, L, r0, r1, top, height) {
    const v = this.view, res = v.res, n = m.rows.length, d = res.diverge;
    const w = L.width, H = L.rowH;
    const sel = this.sel >= 0 && this.sel < n ? this.sel + 1 : null;
    if (n && r0 < n) drawRows(p, m, L, r0, Math.min(r1, n - 1), top, { lang: v.lang, selected: sel, saySeqs: null });
    // Below a run's last row (the other side runs on): greyed, and said at
    // the top of what is left of the view, so that a blank side never
    // looks like one still to come.
    if (n && r1 >= n - 1) {
      const y = top + L.top(n);
      if (y < height) {
        p.rect(0, Math.max(y, 0), w, height - Math.max(y, 0), '#f3f3f1');
        p.text(w / 2, Math.max(y, 0) + H / 2 + L.small * 0.4, fill('sbsEnded', v.lang, { row: n }), { size: L.small + 1, color: INK, bold: true, align: 'center', role: 'end' });
      }
    }
    // The rows not reached yet, dimmed under the "now" line (its label at
    // the line, in the gutter, clear of the rows' numbers).
    const cur = this.cursor(s);
    const now = !v.ended && cur < n - 1 ? top + L.top(cur + 1) - (cur + 1 === d ? this.g.band : 0) : Infinity;
    if (now < height) p.rect(0, Math.max(now, 0), w, Math.max(0, Math.min(height, top + L.top(n)) - Math.max(now, 0)), 'rgba(255,255,255,0.5)');
    // The first difference, over everything: a band above its row with
    // the mark, the row framed.
    if (d >= 0 && d <= r1 + 1 && d >= r0 - 1) {
      const y0 = top + L.top(d) - this.g.band;
      p.rect(0, y0, w, this.g.band, '#fbe3d6');
      p.rect(0, y0, 6, this.g.band + L.height(d), BAD);
      p.text(w / 2, y0 + this.g.band / 2 + L.small * 0.45, '▼ ' + fill('sbsFirst', v.lang, { row: d + 1 }) + ' ▼', { size: L.small + 2, color: '#8a3200', bold: true, align: 'center', role: 'diverge', seq: d + 1 });
      if (d < n) {
        const a = top + L.top(d), b = a + L.height(d);
        for (const [x1, y1, x2, y2] of [[0, a, w, a], [0, b, w, b], [w - 1.5, a, w - 1.5, b]]) p.line(x1, y1, x2, y2, BAD, 3);
      }
    }
    if (now < height && now >= -H) {
      p.line(0, now + 1, w, now + 1, INK, 1.5, [6, 4]);
      p.text(L.gutter - 10, Math.max(now + L.small * 0.4, L.small + 2), t('now', v.lang), { size: L.small, color: INK, bold: true, bg: '#ffffff', align: 'right', role: 'now', seq: cur + 1 });
    }
  }

  /** window keeps one <li> per visible row of side s, placed over it:
   * its text in the reader's words, the first difference said first. */
  window(s, m, L, r0, r1) {
    const v = this.view, d = v.res.diverge, cur = this.cursor(s);
    const list = this.list[s];
    list.style.left = (s === 'left' ? 0 : this.g.w + GAP) + 'px';
    list.style.width = this.g.w + 'px';
    list.setAttribute('aria-label', (s === 'left' ? t('cmpLeft', v.lang) : t('cmpRight', v.lang)));
    const gen = [v.lang, this.g.key, d, cur, this.sel].join('|');
    const want = new Map();
    for (let r = r0; r <= r1; r++) want.set(r, true);
    for (const li of [...list.children]) {
      const r = Number(li.dataset.row) - 1;
      if (!want.has(r) || li.dataset.gen !== gen) li.remove();
      else want.delete(r);
    }
    for (const r of want.keys()) {
      const e = m.rows[r];
      const li = document.createElement('li');
      li.dataset.row = String(r + 1);
      li.dataset.side = s;
      li.dataset.kind = e.kind;
      li.dataset.gen = gen;
      li.dataset.text = e.text || '';
      li.setAttribute('data-testid', 'sbs-row');
      if (r === d) li.dataset.first = 'true';
      if (r === cur) li.dataset.cursor = 'true';
      if (r > cur && !v.ended) li.dataset.future = 'true';
      li.style.top = L.top(r) + 'px';
      li.style.height = L.height(r) + 'px';
      const parts = describe(e, v.lang);
      const say = parts.map((x) => (typeof x === 'string' ? x : x.code)).join('');
      li.textContent = (r === d ? fill('sbsFirst', v.lang, { row: r + 1 }) + ': ' : '') + say;
      li.title = t('cmpSeek', v.lang) + '\n' + say;
      if (r === this.sel) li.setAttribute('aria-current', 'true');
      list.append(li);
    }
  }

  /** header writes side s's lane names over its lanes. */
  header(s, m, L) {
    const box = this.lanes[s];
    const key = L.lanes.map((l) => l.kind + l.name + Math.round(l.x)).join('|') + this.view.presenter;
    if (box.dataset.key === key) return;
    box.dataset.key = key;
    box.textContent = '';
    for (const l of L.lanes) {
      const e = document.createElement('span');
      e.className = 'lane ' + l.kind;
      // On a phone's narrow side a node's name goes on the strip's second
      // line (compare.css), without its square, from its lane's left edge
      // (the last lane's reaches left from the side's edge): centred on
      // its lane, between the clients' names, it was "■…"
      const edge = L.narrow && l.kind === 'node', last = l === L.lanes[L.lanes.length - 1];
      e.textContent = (l.kind === 'client' ? '● ' : edge ? '' : '■ ') + l.name;
      if (l.kind === 'client') e.style.color = clientColor(m, l.name);
      e.style.left = edge && last ? 'auto' : (edge ? l.left + 1 : l.x) + 'px';
      if (edge) e.style.transform = 'none';
      if (edge && last) e.style.right = '1px';
      e.style.maxWidth = edge && last ? '60%' : Math.max(l.right - l.left - 2, 24) + 'px';
      e.title = l.name;
      box.append(e);
    }
  }

  /** audit draws both sides whole at the current width into recording
   * painters and returns every label written, per side (role, seq, text,
   * y, …): the comparison's draw model, which the browser tests read. */
  audit() {
    const g = this.geometry();
    if (!g) return { left: [], right: [] };
    const ms = this.models(), out = {};
    const measure = document.createElement('canvas').getContext('2d');
    for (const s of SIDES) {
      const L = g.L[s], rec = [];
      const p = new SvgPainter(g.w, L.total + g.H, FONT, measure, rec);
      this.paint(p, s, ms[s], L, 0, this.rows(), 0, L.total + g.H);
      for (const l of rec) if (l.left < -0.5 || l.right > g.w + 0.5) l.cut = true;
      out[s] = rec;
    }
    return out;
  }
}
