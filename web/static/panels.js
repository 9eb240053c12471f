// The side panels, each a pure function of the state: narration, verdict,
// keys, the scheduler's choice of client, the fault targets.

import { t, pick } from './i18n.js';
import { fmtTime, clientColor } from './draw.js';

const el = (tag, props = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('data-') || k === 'title' || k === 'lang') e.setAttribute(k, v);
    else e[k] = v;
  }
  for (const k of kids) if (k != null) e.append(k);
  return e;
};

/** narration shows the latest narration line big, earlier ones small. */
export function renderNarration(root, history, st, onRef) {
  const says = st.model.says;
  root.textContent = '';
  history.textContent = '';
  if (!says.length) {
    root.append(el('p', { class: 'say intro' }, st.snap && st.snap.step > 0 ? (pick(st.snap.lesson, st.lang)) : t('welcome', st.lang)));
    return;
  }
  const last = says[says.length - 1];
  if (st.snap && st.snap.offScript) root.append(el('p', { class: 'off-script', 'data-testid': 'off-script' }, t('offScript', st.lang)));
  root.append(el('p', { class: 'say', 'data-seq': String(last.seq) }, pick(last.say, st.lang)));
  for (const s of says.slice(0, -1)) {
    const li = el('li', {}, el('button', { class: 'link', onclick: () => onRef(s.refs && s.refs[0]) }, pick(s.say, st.lang)));
    history.append(li);
  }
}

/** verdict lists the checker's verdicts with their explanations and the
 * events they point at; before the end it says the run is still going. */
export function renderVerdict(root, st, onRef) {
  root.textContent = '';
  const vs = st.model.verdicts;
  if (!vs.length) {
    root.className = 'verdict none';
    root.append(el('p', {}, st.model.rows.length ? t('running', st.lang) : t('nothingYet', st.lang)));
    return;
  }
  const safe = vs.every((v) => v.name === 'safe');
  root.className = 'verdict ' + (safe ? 'safe' : 'bad');
  for (const v of vs) {
    const refs = (v.refs || []).map((r) => el('button', { class: 'ref', onclick: () => onRef(r) }, '#' + r));
    root.append(el('div', { class: 'v', 'data-name': v.name },
      el('b', { class: 'badge' }, (v.name === 'safe' ? '✓ ' : '✗ ') + v.name),
      el('p', {}, pick(v.say, st.lang) || v.note || (v.name === 'safe' ? t('safe', st.lang) : '')),
      refs.length ? el('p', { class: 'refs' }, ...refs) : null));
  }
}

/** keys shows every node's keys at the cursor with owner and TTL left. */
export function renderKeys(root, st) {
  root.textContent = '';
  const nodes = (st.snap && st.snap.nodes) || [];
  for (const n of nodes) {
    const box = el('div', { class: 'node' + (n.down ? ' down' : '') });
    box.append(el('h4', {}, '■ ' + n.name + (n.down ? ' — ' + t('down', st.lang) : '')));
    if (!n.keys.length) box.append(el('p', { class: 'muted' }, t('noKeys', st.lang)));
    const tb = el('table');
    for (const k of n.keys) {
      const tr = el('tr', { 'data-key': k.key });
      tr.append(el('th', {}, k.key));
      tr.append(el('td', { class: 'val' }, k.type === 'string' ? JSON.stringify(k.value) : '{' + (k.value || '') + '}'));
      const own = el('td', { class: 'owner' });
      if (k.owner) {
        own.append(el('span', { class: 'dot' }, '●'), ' ' + k.owner);
        own.style.color = clientColor(st.model, k.owner);
      }
      tr.append(own);
      const ttl = el('td', { class: 'ttl' });
      if (k.ttl >= 0) {
        const total = totalTTL(st.model, n.name, k);
        ttl.append(el('meter', { min: 0, max: total || k.ttl || 1, value: k.ttl }), ' ' + fmtTime(k.ttl * 1e6));
      } else ttl.append('∞');
      tr.append(ttl);
      tb.append(tr);
    }
    if (n.keys.length) box.append(tb);
    root.append(box);
  }
}

function totalTTL(m, node, k) {
  for (const id of m.open) {
    const s = m.spans[id];
    if (s.type === 'lease' && s.node === node && s.key === k.key) return s.ttl;
  }
  return 0;
}

/** pending offers the clients that can move as buttons. */
export function renderPending(root, st, onMove) {
  root.textContent = '';
  const p = st.pending || [];
  if (!p.length) {
    root.append(el('p', { class: 'muted' }, st.snap ? t('noPending', st.lang) : ''));
    return;
  }
  for (const c of p) {
    const b = el('button', { 'data-testid': 'move-' + c, onclick: () => onMove(c) }, '▶ ' + c + ' ' + t('moves', st.lang));
    b.style.borderColor = clientColor(st.model, c);
    root.append(b);
  }
}

/** targets fills a select with names, keeping the choice. */
export function renderTargets(sel, names) {
  const key = names.join('|');
  if (sel.dataset.key === key) return;
  const keep = sel.value;
  sel.dataset.key = key;
  sel.textContent = '';
  for (const n of names) sel.append(el('option', { value: n }, n));
  if (names.includes(keep)) sel.value = keep;
}
