// The timeline component: a canvas that draws only the visible window of
// rows, a scroller that gives the log its height, a windowed DOM list of the
// visible events (for screen readers, tooltips, clicks and tests), and the
// lane headers (a client's header lets it make its next move).

import { CanvasPainter, SvgPainter } from './paint.js';
import { layout, drawRows } from './draw.js';

export const FONT = 'system-ui, "Noto Sans", "Noto Sans CJK SC", "PingFang SC", "Microsoft YaHei", sans-serif';

export class Timeline {
  constructor({ root, canvas, scroll, spacer, list, lanes, onPick, onMove }) {
    Object.assign(this, { root, canvas, scroll, spacer, list, lanes, onPick, onMove });
    this.state = null;
    this.follow = true;
    this.pending = false;
    this.lastDraw = 0;
    this.scroll.addEventListener('scroll', () => {
      const atEnd = this.scroll.scrollTop + this.scroll.clientHeight >= this.scroll.scrollHeight - 4;
      this.follow = atEnd;
      this.request();
    });
    new ResizeObserver(() => this.request()).observe(this.scroll);
    this.list.addEventListener('click', (ev) => {
      const li = ev.target.closest('li[data-seq]');
      if (li) this.onPick(Number(li.dataset.seq));
    });
  }

  rowH() { return this.state && this.state.presenter ? 40 : 28; }

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

  /** scrollToRow brings a row into the middle of the view. */
  scrollToRow(r) {
    const H = this.rowH();
    this.follow = false;
    this.scroll.scrollTop = Math.max(0, r * H - this.scroll.clientHeight / 2);
  }

  draw() {
    const st = this.state;
    if (!st) return;
    const t0 = performance.now();
    const m = st.model;
    const H = this.rowH();
    const total = m.rows.length * H + H * 2;
    if (this.spacer.style.height !== total + 'px') this.spacer.style.height = total + 'px';
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
    const L = layout(m, w, H, st.presenter);
    const top = this.scroll.scrollTop;
    const r0 = Math.max(0, Math.floor(top / H) - 1);
    const r1 = Math.min(m.rows.length - 1, Math.ceil((top + h) / H) + 1);
    const opts = this.options();
    if (m.rows.length) drawRows(new CanvasPainter(ctx, FONT), m, L, r0, r1, -top, opts);
    this.drawNow(ctx, L, m.rows.length * H - top, w);
    this.window(r0, r1, H);
    this.header(L);
    this.lastDraw = performance.now() - t0;
    this.root.dataset.rows = String(m.rows.length);
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
    ctx.fillText(st.ended ? (st.lang === 'zh' ? '结束' : 'end') : (st.lang === 'zh' ? '▼ 现在' : '▼ now'), 6, y + L.small + 4);
  }

  /** window keeps one <li> per visible event, placed over its row. */
  window(r0, r1, H) {
    const m = this.state.model;
    const want = new Map();
    for (let r = r0; r <= r1 && r < m.rows.length; r++) want.set(m.rows[r].seq, r);
    for (const li of [...this.list.children]) {
      const seq = Number(li.dataset.seq);
      if (!want.has(seq) || m.rows[want.get(seq)].seq !== seq || li.dataset.gen !== String(this.state.gen)) li.remove();
      else want.delete(seq);
    }
    for (const [seq, r] of want) {
      const e = m.rows[r];
      const li = document.createElement('li');
      li.dataset.testid = 'event';
      li.setAttribute('data-testid', 'event');
      li.dataset.seq = String(seq);
      li.dataset.kind = e.kind;
      li.dataset.gen = String(this.state.gen);
      if (e.name) li.dataset.name = e.name;
      li.style.top = r * H + 'px';
      li.style.height = H + 'px';
      // The tooltip is the detail: a named script's SHA1 or body, as Redis got it.
      li.title = (e.text || '') + (e.script && e.cmd ? '\n' + e.cmd.join(' ') : '');
      li.textContent = e.text || e.kind;
      this.list.appendChild(li);
    }
    for (const li of this.list.children) {
      const seq = Number(li.dataset.seq);
      li.classList.toggle('hl', !!(this.state.highlight && this.state.highlight.has(seq)));
    }
  }

  header(L) {
    const key = L.lanes.map((l) => l.kind + l.name + Math.round(l.x)).join('|') + (this.state.pending || []).join(',') + this.state.lang;
    if (this.lanes.dataset.key === key) return;
    this.lanes.dataset.key = key;
    this.lanes.textContent = '';
    const pending = new Set(this.state.pending || []);
    for (const l of L.lanes) {
      let el;
      if (l.kind === 'client') {
        el = document.createElement('button');
        el.className = 'lane client' + (pending.has(l.name) ? ' can' : '');
        el.setAttribute('data-testid', 'lane-' + l.name);
        el.style.borderColor = el.style.color = clientColorOf(this.state.model, l.name);
        el.textContent = (pending.has(l.name) ? '▶ ' : '● ') + l.name;
        el.title = this.state.lang === 'zh' ? `让 ${l.name} 走下一步` : `Let ${l.name} make its next move`;
        el.disabled = !pending.has(l.name);
        el.addEventListener('click', () => this.onMove(l.name));
      } else {
        el = document.createElement('span');
        el.className = 'lane node';
        el.textContent = '■ ' + l.name;
      }
      el.style.left = l.x + 'px';
      this.lanes.appendChild(el);
    }
  }

  /** svg draws the whole log (up to maxRows rows) as an SVG document. */
  svg(maxRows = 4000) {
    const st = this.state, m = st.model;
    const H = 28, w = Math.max(this.scroll.clientWidth, 900);
    const rows = Math.min(m.rows.length, maxRows);
    const head = 36;
    const L = layout(m, w, H, false);
    const measure = document.createElement('canvas').getContext('2d');
    const p = new SvgPainter(w, head + rows * H + 10, FONT, measure);
    for (const l of L.lanes) p.text(l.x, 24, (l.kind === 'client' ? '● ' : '■ ') + l.name, { size: 15, bold: true, align: 'center', color: l.kind === 'client' ? clientColorOf(m, l.name) : '#1b1b1b' });
    if (rows) drawRows(p, m, L, 0, rows - 1, head, { ...this.options(), selected: null });
    return p.toString();
  }

  /** png draws the whole log (as far as a canvas can hold) into a PNG blob. */
  png() {
    const st = this.state, m = st.model;
    const H = 28, w = Math.max(this.scroll.clientWidth, 900), head = 36;
    const rows = Math.min(m.rows.length, Math.floor((16000 - head) / H));
    const c = document.createElement('canvas');
    c.width = w * 2;
    c.height = (head + rows * H + 10) * 2;
    const ctx = c.getContext('2d');
    ctx.scale(2, 2);
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, w, head + rows * H + 10);
    const L = layout(m, w, H, false);
    const p = new CanvasPainter(ctx, FONT);
    for (const l of L.lanes) p.text(l.x, 24, (l.kind === 'client' ? '● ' : '■ ') + l.name, { size: 15, bold: true, align: 'center', color: l.kind === 'client' ? clientColorOf(m, l.name) : '#1b1b1b' });
    if (rows) drawRows(p, m, L, 0, rows - 1, head, { ...this.options(), selected: null });
    return new Promise((res) => c.toBlob(res, 'image/png'));
  }
}

import { clientColor as clientColorOf } from './draw.js';
