// The timeline component: a canvas that draws only the visible window of
// rows, a scroller that gives the log its height, a windowed DOM list of the
// visible events (for screen readers, tooltips, clicks and tests), and the
// lane headers (lanebar.js: a client's header lets it make its next move).

import { CanvasPainter, SvgPainter } from './paint.js';
import { drawRows } from './draw.js';
import { layout } from './layout.js';
import { renderLaneBar } from './lanebar.js';
import { planSlide, drawSlide, SLIDE_W, SLIDE_H, PNG_SCALE } from './slide.js';
import { describe, fmtTime } from './format.js';
import { t as tr, fill } from './i18n.js';

export const FONT = 'system-ui, "Noto Sans", "Noto Sans CJK SC", "PingFang SC", "Microsoft YaHei", sans-serif';

export class Timeline {
  constructor({ root, canvas, scroll, spacer, list, lanes, onPick, onMove, onFollow }) {
    Object.assign(this, { root, canvas, scroll, spacer, list, lanes, onPick, onMove, onFollow });
    this.state = null;
    // follow: the view sticks to the newest row. away: the user scrolled
    // off on purpose (wheel, touch, scrollbar, keys); only that stops the
    // following across new steps. A jump to an event (a #ref) stops it
    // until the next new row.
    this.follow = true;
    this.away = false;
    this.rows = 0;
    this.userAt = 0;
    this.pending = false;
    this.lastDraw = 0;
    this.drawn = [];
    const user = () => { this.userAt = performance.now(); };
    for (const ev of ['wheel', 'touchmove', 'pointerdown']) this.scroll.addEventListener(ev, user, { passive: true });
    this.root.addEventListener('keydown', (ev) => { if (['PageUp', 'PageDown', 'ArrowUp', 'ArrowDown', 'Home', 'End'].includes(ev.key)) user(); });
    this.scroll.addEventListener('scroll', () => {
      const atEnd = this.scroll.scrollTop + this.scroll.clientHeight >= this.scroll.scrollHeight - 4;
      if (performance.now() - this.userAt < 1500) {
        this.away = !atEnd;
        this.setFollow(atEnd);
      } else if (atEnd && !this.away) this.setFollow(true);
      this.request();
    });
    new ResizeObserver(() => this.request()).observe(this.scroll);
    this.list.addEventListener('click', (ev) => {
      const li = ev.target.closest('li[data-seq]');
      if (li) this.onPick(Number(li.dataset.seq));
    });
  }

  rowH() { return this.state && this.state.presenter ? 40 : 28; }

  /** layoutAt lays the log out at width w in the page's language, with
   * this canvas measuring the verdicts' text (kept until the log, the
   * width, the language or the row height change). */
  layoutAt(w) {
    const st = this.state, m = st.model, H = this.rowH();
    const key = st.gen + '|' + m.rows.length + '|' + m.verdicts.length + '|' + w + '|' + H + '|' + st.lang + '|' + !!st.timeScale;
    if (this.L && this.layoutKey === key) return this.L;
    const measure = this.measurer || (this.measurer = new CanvasPainter(document.createElement('canvas').getContext('2d'), FONT));
    this.L = layout(m, w, H, st.presenter, (s, size, bold) => measure.measure(s, size, bold), st.lang, !!st.timeScale);
    this.layoutKey = key;
    return this.L;
  }

  /** rowTop is the top of row r in the scroller (rows are not all one
   * height: a verdict's is as tall as its wrapped text). */
  rowTop(r) { return this.state ? this.layoutAt(this.scroll.clientWidth).top(r) : r * this.rowH(); }

  /** rowHeight is the height of row r. */
  rowHeight(r) { return this.state ? this.layoutAt(this.scroll.clientWidth).height(r) : this.rowH(); }

  /** set takes a new state and schedules a redraw. */
  set(state) {
    this.state = state;
    this.request();
  }

  request() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => { this.pending = false; this.draw(); });
  }

  setFollow(on) {
    if (this.follow === on) return;
    this.follow = on;
    if (this.onFollow) this.onFollow(on);
  }

  /** followNewest goes back to following the newest row. */
  followNewest() {
    this.away = false;
    this.setFollow(true);
    this.request();
  }

  /** reset starts a new run's view: following, nothing scrolled away. */
  reset() {
    this.away = false;
    this.userAt = 0; // a scroll of the last run's, reported late, is not the user's in this one
    this.rows = 0;
    this.setFollow(true);
  }

  /** scrollToRow brings a row into the middle of the view; the view stops
   * following until the next new row (or for good if the user then
   * scrolls away). */
  scrollToRow(r) {
    this.setFollow(false);
    this.scroll.scrollTop = Math.max(0, this.rowTop(r) - this.scroll.clientHeight / 2);
  }

  /** reveal scrolls just enough to show a row. */
  reveal(r) {
    const H = this.rowHeight(r), top = this.rowTop(r), h = this.scroll.clientHeight;
    if (top < this.scroll.scrollTop) { this.setFollow(false); this.scroll.scrollTop = top; }
    else if (top + H > this.scroll.scrollTop + h) { this.scroll.scrollTop = top + H - h; }
  }

  draw() {
    const st = this.state;
    if (!st) return;
    const t0 = performance.now();
    const m = st.model;
    const H = this.rowH();
    const L = this.layoutAt(this.scroll.clientWidth);
    const total = L.total + H * 2;
    if (this.spacer.style.height !== total + 'px') this.spacer.style.height = total + 'px';
    if (m.rows.length > this.rows && !this.away) this.setFollow(true);
    this.rows = m.rows.length;
    if (this.follow) this.scroll.scrollTop = this.scroll.scrollHeight;
    const w = this.scroll.clientWidth, h = this.scroll.clientHeight;
    const dpr = window.devicePixelRatio || 1;
    if (this.canvas.width !== Math.round(w * dpr) || this.canvas.height !== Math.round(h * dpr)) {
      this.canvas.width = Math.round(w * dpr);
      this.canvas.height = Math.round(h * dpr);
      this.canvas.style.width = w + 'px';
      this.canvas.style.height = h + 'px';
    }
    const ctx = this.canvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, w, h);
    const top = this.scroll.scrollTop;
    const r0 = Math.max(0, L.rowAt(top) - 1);
    const r1 = Math.min(m.rows.length - 1, L.rowAt(top + h) + 1);
    const opts = this.options();
    this.drawn = [];
    if (m.rows.length) drawRows(new CanvasPainter(ctx, FONT, this.drawn), m, L, r0, r1, -top, opts);
    this.drawNow(ctx, L, L.total - top, w);
    this.window(r0, r1, L);
    renderLaneBar(this.lanes, this.state, L, (c) => this.onMove(c));
    this.lastDraw = performance.now() - t0;
    this.root.dataset.rows = String(m.rows.length);
    this.root.dataset.lang = st.lang; // drawn in this language (tests wait for it)
    this.root.dataset.scale = L.timed ? 'time' : 'rows'; // and at this scale
    // The first lesson on screen: a mark for measurements (Lighthouse's
    // user timings, scripts/lighthouse.sh).
    if (!this.shown && st.snap) {
      this.shown = true;
      performance.mark('lockstep-first-lesson');
    }
  }

  options() {
    const st = this.state;
    return { lang: st.lang, highlight: st.highlight, selected: st.selected, saySeqs: st.saySeqs };
  }

  drawNow(ctx, L, y, w) {
    if (y < 0 || y > this.scroll.clientHeight) return;
    ctx.strokeStyle = '#1b1b1b';
    ctx.setLineDash([6, 4]);
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.moveTo(0, y + 1);
    ctx.lineTo(w, y + 1);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.font = `600 ${L.small}px ${FONT}`;
    ctx.fillStyle = '#1b1b1b';
    const st = this.state;
    ctx.fillText(tr(st.snap && st.snap.ended ? 'ended' : 'now', st.lang), 6, y + L.small + 4);
  }

  /** window keeps one <li> per visible event, placed over its row. */
  window(r0, r1, L) {
    const m = this.state.model;
    const want = new Map();
    for (let r = r0; r <= r1 && r < m.rows.length; r++) want.set(m.rows[r].seq, r);
    this.gaps(r0, r1, L);
    for (const li of [...this.list.children]) {
      if (li.dataset.gap) continue;
      const seq = Number(li.dataset.seq);
      if (!want.has(seq) || m.rows[want.get(seq)].seq !== seq || li.dataset.gen !== this.state.gen + this.state.lang) li.remove();
      else want.delete(seq);
    }
    for (const [seq, r] of want) {
      const e = m.rows[r];
      const li = document.createElement('li');
      li.dataset.testid = 'event';
      li.setAttribute('data-testid', 'event');
      li.dataset.seq = String(seq);
      li.dataset.kind = e.kind;
      li.dataset.gen = this.state.gen + this.state.lang;
      if (e.name) li.dataset.name = e.name;
      li.style.top = L.top(r) + 'px';
      li.style.height = L.height(r) + 'px';
      const parts = describe(e, this.state.lang);
      li.title = parts.map((x) => (typeof x === 'string' ? x : x.code)).join('') +
        // and a named script's SHA1 or body, as Redis got it
        (e.script && e.cmd ? '\n' + e.cmd.join(' ') : '');
      for (const x of parts) {
        if (typeof x === 'string') li.append(x);
        else { const c = document.createElement('code'); c.textContent = x.code; li.append(c); }
      }
      this.list.appendChild(li);
    }
    for (const li of this.list.children) {
      if (li.dataset.gap) continue;
      const seq = Number(li.dataset.seq);
      li.classList.toggle('hl', !!(this.state.highlight && this.state.highlight.has(seq)));
    }
  }

  /** gaps keeps one <li> per break of the time view in rows r0..r1+1,
   * placed over it: what a screen reader reads and a test finds of it. */
  gaps(r0, r1, L) {
    const st = this.state, m = st.model;
    const want = new Map();
    for (const b of L.breaks || []) if (b.r >= r0 && b.r <= r1 + 1) want.set(String(m.rows[b.r].seq), b);
    for (const li of [...this.list.querySelectorAll('li[data-gap]')]) {
      if (!want.has(li.dataset.gap) || li.dataset.gen !== st.gen + st.lang + L.rowH) li.remove();
      else want.delete(li.dataset.gap);
    }
    for (const [seq, b] of want) {
      const li = document.createElement('li');
      li.setAttribute('data-testid', 'time-break');
      li.className = 'gap';
      li.dataset.gap = seq; // the break lies above this event
      li.dataset.ns = String(b.dt);
      li.dataset.gen = st.gen + st.lang + L.rowH;
      li.style.top = b.y + 'px';
      li.style.height = b.h + 'px';
      li.textContent = fill('timeBreak', st.lang, { d: fmtTime(b.dt, 3) });
      this.list.appendChild(li);
    }
  }

  /** audit draws the whole log at the current width into a recording
   * painter and returns every label written (role, seq, text, cut). */
  audit() {
    const st = this.state, m = st.model;
    const w = this.scroll.clientWidth;
    const L = this.layoutAt(w);
    const rec = [];
    const measure = document.createElement('canvas').getContext('2d');
    const p = new SvgPainter(w, L.total, FONT, measure, rec);
    if (m.rows.length) drawRows(p, m, L, 0, m.rows.length - 1, 0, this.options());
    // A label drawn past the canvas's edges is cut as surely as one with an ellipsis.
    for (const l of rec) if (l.left < -0.5 || l.right > w + 0.5) l.cut = true;
    return rec;
  }

  /** rowsInView gives the rows wholly in the timeline's view, {r0, r1}
   * (the rows partly in view when none is whole). */
  rowsInView() {
    const m = this.state.model, n = m.rows.length;
    if (!n) return { r0: 0, r1: -1 };
    const L = this.layoutAt(this.scroll.clientWidth);
    const top = this.scroll.scrollTop, h = this.scroll.clientHeight;
    let r0 = L.rowAt(top), r1 = L.rowAt(top + h);
    if (L.top(r0) < top - 1 && r0 < r1) r0++;
    if (L.top(r1) + L.height(r1) > top + h + 1 && r1 > r0) r1--;
    return { r0: Math.max(0, r0), r1: Math.min(n - 1, r1) };
  }

  /** slideTo draws rows r0..r1 at slide size (slide.js) on painter p,
   * under caption and the rows' #numbers; it returns the rows drawn. */
  slideTo(p, caption, r0, r1, measure) {
    const st = this.state, m = st.model;
    const rows = (a, b) => (m.rows[a] ? ' · #' + m.rows[a].seq + (b > a ? '–#' + m.rows[b].seq : '') : '');
    const plan = planSlide(m, r0, r1, (a, b) => caption + rows(a, b), { lang: st.lang, timed: !!st.timeScale, measure });
    drawSlide(p, m, plan, { ...this.options(), selected: null });
    return { r0: plan.r0, r1: plan.r1 };
  }

  /** svg draws rows r0..r1 as a 16:9 SVG document (1280×720). */
  svg(caption, r0, r1) {
    const p = new SvgPainter(SLIDE_W, SLIDE_H, FONT, document.createElement('canvas').getContext('2d'));
    this.slideTo(p, caption, r0, r1, (s, size, bold) => p.measure(s, size, bold));
    return p.toString();
  }

  /** png draws rows r0..r1 as a 16:9 PNG (1920×1080), as a Blob. */
  png(caption, r0, r1) {
    const c = document.createElement('canvas');
    c.width = SLIDE_W * PNG_SCALE;
    c.height = SLIDE_H * PNG_SCALE;
    const ctx = c.getContext('2d');
    ctx.scale(PNG_SCALE, PNG_SCALE);
    const measure = new CanvasPainter(document.createElement('canvas').getContext('2d'), FONT);
    this.slideTo(new CanvasPainter(ctx, FONT), caption, r0, r1, (s, size, bold) => measure.measure(s, size, bold));
    return new Promise((res) => c.toBlob(res, 'image/png'));
  }
}

