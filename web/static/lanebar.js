// The lane bar over the timeline: a header per lane (a client's is a
// button that makes its next move), in the time view each clock at the
// cursor, and the fitting that keeps those labels clear of each other.

import { clientColor as clientColorOf } from './lanes.js';
import { fmtTime } from './format.js';
import { t as tr, fill } from './i18n.js';

/** renderLaneBar writes the lane headers of layout L into bar (the
 * gutter's head, a name per lane, the clocks in the time view) and fits
 * them apart; onMove(c) lets client c make its next move. It writes
 * nothing when what it would write is what bar shows. */
export function renderLaneBar(bar, st, L, onMove) {
  const snap = st.snap;
  const key = L.lanes.map((l) => l.kind + l.name + Math.round(l.x)).join('|') + (st.pending || []).join(',') + st.lang + L.gutter + st.presenter +
    (L.timed && snap ? '|' + snap.t + JSON.stringify([snap.nodes.map((n) => n.clock || 0), snap.skews || {}]) : '');
  if (bar.dataset.key === key) return;
  bar.dataset.key = key;
  bar.textContent = '';
  const pending = new Set(st.pending || []);
  const head = document.createElement('span');
  head.className = 'gutter-head';
  head.style.width = L.gutter + 'px';
  head.textContent = tr(L.narrow ? 'gutterHeadNarrow' : 'gutterHead', st.lang); // a narrow gutter has no time column
  head.title = tr('cursorTip', st.lang);
  head.dataset.short = '#';
  bar.appendChild(head);
  for (const l of L.lanes) {
    let el;
    if (l.kind === 'client') {
      el = document.createElement('button');
      el.className = 'lane client' + (pending.has(l.name) ? ' can' : '');
      el.setAttribute('data-testid', 'lane-' + l.name);
      el.style.borderColor = el.style.color = clientColorOf(st.model, l.name);
      el.textContent = (L.narrow ? '' : pending.has(l.name) ? '▶ ' : '● ') + l.name;
      el.title = fill('letMove', st.lang, { c: l.name });
      el.disabled = !pending.has(l.name);
      el.addEventListener('click', () => onMove(l.name));
    } else {
      el = document.createElement('span');
      el.className = 'lane node';
      el.textContent = (L.narrow ? '' : '■ ') + l.name;
    }
    el.lane = l;
    el.dataset.short = l.name;
    el.style.left = l.x + 'px';
    // On a phone a node's name starts at its lane's left edge, clear of
    // the client headers to its left.
    if (L.narrow && l.kind === 'node') { el.style.left = l.left + 2 + 'px'; el.style.transform = 'none'; }
    bar.appendChild(el);
    // The last node's name, on a lane narrower than it, ends at the
    // timeline's right edge rather than past it.
    if (L.narrow && l.kind === 'node' && l.left + 2 + el.offsetWidth > L.width) el.style.left = Math.max(0, L.width - el.offsetWidth - 2) + 'px';
  }
  bar.classList.toggle('timed', !!L.timed);
  bar.classList.remove('two');
  clocks(bar, st, L);
  fitApart([...bar.querySelectorAll('.lane')], head, L.width, !!st.presenter);
  fitApart([...bar.querySelectorAll('.lane-clock')], null, L.width);
}

/** clocks writes into bar, in the time view, each node's and each skewed
 * client's clock at the cursor under its lane's name. */
function clocks(bar, st, L) {
  const snap = st.snap;
  if (!L.timed || !snap) return;
  const off = new Map((snap.nodes || []).map((n) => ['node:' + n.name, n.clock || 0]));
  for (const [c, d] of Object.entries(snap.skews || {})) off.set('client:' + c, d);
  for (const l of L.lanes) {
    const d = off.get(l.kind + ':' + l.name);
    if (d === undefined) continue; // a client on the world's clock shows none
    const sign = d > 0 ? fill('clockAhead', st.lang, { d: fmtTime(d, 3) }) : d < 0 ? fill('clockBehind', st.lang, { d: fmtTime(-d, 3) }) : '';
    const el = document.createElement('span');
    el.className = 'lane-clock' + (d ? ' off' : '');
    el.setAttribute('data-testid', 'clock-' + l.name);
    el.dataset.ns = String(snap.t + d);
    el.textContent = '◔ ' + fmtTime(snap.t + d, 3) + (sign ? (st.lang === 'zh' ? '（' + sign + '）' : ' (' + sign + ')') : '');
    el.title = fill('clockTip', st.lang, { who: l.name, now: fmtTime(snap.t, 3), d: sign || tr('clockRight', st.lang) });
    el.lane = l;
    el.style.left = (L.narrow ? l.left + 2 : l.x) + 'px';
    if (L.narrow) el.style.transform = 'none';
    bar.appendChild(el);
  }
}

/** fitApart makes labels placed side by side along the lane bar (the
 * lane names, the clocks) keep clear of each other, of the gutter's head
 * and of the bar's right edge: a smaller size first, down to 13 px; then
 * the names alone (no ● ▶ ■: a client that can move still shows it by its
 * ring) and the gutter's head as "#", down to 11 px; then each label in
 * its own lane (e.lane: a node's from its lane's left edge), cut to the
 * lane's width with an ellipsis (the whole name stays in its tooltip and
 * its accessible name).
 * big (Presenter mode, read from the back of a room) goes no smaller than
 * 16 px on one line; past that the labels take two lines, every other
 * one on the lower (class low; the bar gets class two), whole and then
 * as names alone, each at the largest size from 18 down to 14 px at
 * which they clear their neighbours on their own line. Cutting is the last resort
 * there too, and TestBrowserPresenter fails on it. (The ring of a client
 * that can move is drawn outside its box on a laptop, and so may touch a
 * neighbour there; in Presenter mode it is drawn inside.) */
function fitApart(els, head, width, big = false) {
  if (!els.length) return;
  const bar = els[0].parentElement, full = parseFloat(getComputedStyle(els[0]).fontSize);
  const long = els.map((e) => e.textContent), headLong = head ? head.textContent : '';
  // The gutter's head holds the left of the bar as far as its text goes
  // (and 10 px more), a short text less than the whole gutter.
  const headEnd = () => {
    const r = document.createRange();
    r.selectNodeContents(head);
    return Math.min(r.getBoundingClientRect().right + 10, head.getBoundingClientRect().right);
  };
  const clash = () => {
    const base = bar.getBoundingClientRect().left;
    const start = head ? headEnd() : -Infinity;
    const prev = [start, start]; // the right edge of the last label on each line
    for (const e of els) {
      const r = e.getBoundingClientRect(), line = e.classList.contains('low') ? 1 : 0;
      if (r.left < prev[line] + 2 || r.right > base + width + 0.5) return true;
      prev[line] = r.right;
    }
    return false;
  };
  const sized = (size) => { for (const e of els) e.style.fontSize = size + 'px'; };
  const shrink = (min) => {
    let size = parseFloat(getComputedStyle(els[0]).fontSize);
    while (clash() && size > min) sized(--size);
    return !clash();
  };
  // named writes the labels as their names alone (or whole again).
  const named = (short) => {
    els.forEach((e, i) => {
      e.textContent = short && e.dataset.short ? e.dataset.short : long[i];
      e.classList.toggle('tight', short);
    });
    if (head) head.textContent = short ? head.dataset.short || '' : headLong;
  };
  if (shrink(big ? 16 : 13)) return;
  named(true);
  if (shrink(big ? 16 : 11)) return;
  if (big) {
    els.forEach((e, i) => e.classList.toggle('low', i % 2 === 1));
    bar.classList.add('two');
    for (const short of [false, true]) {
      named(short);
      sized(Math.min(full, 18)); // two lines of 18 px fit the bar (presenter.css)
      if (shrink(14)) return;
    }
  }
  for (const e of els) {
    const l = e.lane;
    if (!l) continue;
    if (!e.title) e.title = e.textContent;
    if (!e.getAttribute('aria-label')) e.setAttribute('aria-label', e.textContent);
    e.classList.add('cut');
    if (l.kind === 'node') { e.style.left = l.left + 2 + 'px'; e.style.transform = 'none'; }
    e.style.maxWidth = Math.max(l.right - l.left - 4, 14) + 'px';
  }
}
