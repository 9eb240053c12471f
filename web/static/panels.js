// The side panels, each a pure function of the state: narration, verdict,
// keys, the scheduler's choice of client, the fault targets.

import { t, pick, fill, name as nm, verdictName } from './i18n.js';
import { clientColor } from './lanes.js';
import { fmtTime, outcome, OUTCOME } from './format.js';
import { el } from './dom.js';


/** narration shows the latest narration line big, earlier ones small:
 * the run's say events up to the cursor, nothing it has not reached.
 * Before the first one it says the story is told as it happens (never the
 * lesson's paragraph: that tells how the run ends). lesson.ShownAt states
 * the rule; its test holds every lesson to it. */
export function renderNarration(root, history, st, onRef) {
  const says = st.model.says;
  root.textContent = '';
  history.textContent = '';
  if (!says.length) {
    root.append(el('p', { class: 'say intro' }, t(st.snap && st.snap.step > 0 ? 'storyAhead' : 'welcome', st.lang)));
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
    renderKept(root, st, onRef);
    return;
  }
  const safe = vs.every((v) => v.name === 'safe');
  root.className = 'verdict ' + (safe ? 'safe' : 'bad');
  for (const v of vs) {
    const refs = (v.refs || []).map((r) => el('button', { class: 'ref', onclick: () => onRef(r) }, '#' + r));
    root.append(el('div', { class: 'v', 'data-name': v.name },
      el('b', { class: 'badge' }, (v.name === 'safe' ? '✓ ' : '✗ ') + verdictName(v.name, st.lang)),
      el('p', {}, pick(v.say, st.lang) || (v.name === 'safe' ? t('safe', st.lang) : '')),
      refs.length ? el('p', { class: 'refs' }, ...refs) : null));
  }
  renderKept(root, st, onRef);
}

/** renderKept adds the breaks the run's system stopped (a stale write the
 * fenced storage refused), each a positive line with its events. */
function renderKept(root, st, onRef) {
  for (const k of (st.snap && st.snap.kept) || []) {
    const refs = (k.refs || []).map((r) => el('button', { class: 'ref', onclick: () => onRef(r) }, '#' + r));
    root.append(el('div', { class: 'kept', 'data-kept': k.name, 'data-testid': 'kept' },
      el('b', { class: 'badge' }, '✓ ' + fill('kept', st.lang, { v: verdictName(k.name, st.lang) })),
      el('p', {}, pick(k.say, st.lang)),
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
    root.append(el('p', { class: 'muted' }, st.snap ? t(st.snap.ended ? 'runOver' : 'noPending', st.lang) : ''));
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

const KIND = { send: 'kindSend', exec: 'kindExec', reply: 'kindReply', lost: 'kindLost', timeout: 'kindTimeout', start: 'kindStart', done: 'kindDone', mark: 'kindMark', init: 'kindInit', expire: 'kindExpire', fault: 'kindFault', verdict: 'kindVerdict' };

/** keysBefore finds, for each key an event shows, its state on that node
 * just before the event: the last earlier event on the node that showed it. */
function keysBefore(m, e) {
  const out = new Map();
  const want = new Set((e.keys || []).map((k) => k.key));
  if (!want.size) return out;
  const i = m.events.indexOf(e);
  for (let j = i - 1; j >= 0 && out.size < want.size; j--) {
    const p = m.events[j];
    if (p.node !== e.node || !p.keys) continue;
    for (const k of p.keys) if (want.has(k.key) && !out.has(k.key)) out.set(k.key, { k, t: p.t });
  }
  return out;
}

function keyCell(k, lang) {
  if (!k || k.ttl === -2 || !k.type) return el('span', { class: 'muted' }, t('dAbsent', lang));
  const v = k.type === 'string' ? JSON.stringify(k.value) : '{' + (k.value || '') + '}';
  let ttl = t('dNoTTL', lang);
  if (k.ttl >= 0) ttl = 'TTL ' + fmtTime(k.ttl * 1e6) + (k.expire ? ' → ' + fmtTime(k.expire * 1e6) : '');
  return el('span', {}, el('code', {}, v), k.owner ? el('b', { class: 'owner' }, ' (' + k.owner + ')') : null, el('span', { class: 'ttl muted' }, ' · ' + ttl));
}

/** detail shows everything about the selected event: the command and its
 * arguments in full, the reply, the keys before and after, the node, the
 * client's thread, and what the verdict and the narration make of it. */
export function renderDetail(root, st, onRef) {
  root.textContent = '';
  const m = st.model, lang = st.lang;
  const e = st.selected != null ? m.events.find((x) => x.seq === st.selected) : null;
  root.dataset.seq = e ? String(e.seq) : '';
  if (!e) {
    root.append(el('p', { class: 'muted' }, t('detailNone', lang)));
    return;
  }
  const head = '#' + e.seq + ' · ' + (KIND[e.kind] ? t(KIND[e.kind], lang) : e.kind) + (e.name ? ' · ' + nm(e.name, lang) : '');
  root.append(el('p', { class: 'd-head' }, el('b', {}, head)));
  const dl = el('dl');
  const row = (k, ...v) => dl.append(el('dt', {}, t(k, lang)), el('dd', {}, ...v));
  row('dStep', String(e.step), ' · ', fmtTime(e.t));
  if (e.until > e.t) row('dRan', el('span', { class: 'ran' }, fill('dRanWithin', lang, { from: fmtTime(e.t), to: fmtTime(e.until), width: fmtTime(e.until - e.t) })));
  if (e.client) {
    const c = el('b', {}, '● ' + e.client);
    c.style.color = clientColor(m, e.client);
    row('dClient', c, e.thread ? ' · ' + t('dThread', lang) + ' ' : '', e.thread ? el('code', {}, e.thread) : null);
  }
  if (e.node) row('dNode', el('code', {}, e.node));
  if (e.req) row('dRequest', el('button', { class: 'ref', onclick: () => onRef(e.req) }, '#' + e.req), e.sent ? ' · ' + t('dSentAt', lang) + ' ' + fmtTime(e.sent) : '');
  if (e.cmd && e.cmd.length) {
    const args = el('ol', { class: 'args', start: 0 });
    e.cmd.forEach((a) => args.append(el('li', {}, a.includes('\n') ? el('pre', { tabindex: '0' }, a) : el('code', {}, a))));
    row('dCommand', args);
  }
  if (e.reply != null && e.reply !== '') {
    const out = outcome(e, lang);
    const b = el('span', { class: 'outcome ' + out.cls }, out.text);
    const c = OUTCOME[out.cls] || OUTCOME.val;
    b.style.background = c.fill;
    b.style.color = c.ink;
    b.style.borderColor = c.ink;
    row('dReply', b, ' ', el('code', { class: 'reply' }, e.reply));
  }
  if (e.note) row('dNote', pick(e.note, lang));
  if (e.say) row('dNote', pick(e.say, lang));
  if (e.keys && e.keys.length) {
    const before = keysBefore(m, e);
    const tb = el('div', { class: 'd-keys' });
    for (const k of e.keys) {
      const b = before.get(k.key);
      tb.append(el('div', { class: 'd-key', 'data-key': k.key }, el('code', { class: 'k' }, k.key),
        el('div', {}, el('span', { class: 'muted' }, t('dKeysBefore', lang) + ' '), keyCell(b && b.k, lang)),
        el('div', {}, el('span', { class: 'muted' }, t('dKeysAfter', lang) + ' '), keyCell(k, lang))));
    }
    row('dKey', tb);
  }
  const roles = [];
  for (const v of m.verdicts) if ((v.refs || []).includes(e.seq)) roles.push(el('li', {}, fill('dRoleProves', lang, { v: v.name, seq: v.seq })));
  for (const s of m.says) if ((s.refs || []).includes(e.seq)) roles.push(el('li', {}, fill('dRoleNarrated', lang, { say: pick(s.say, lang) })));
  if (e.refs && e.refs.length) roles.push(el('li', {}, ...e.refs.map((r) => el('button', { class: 'ref', onclick: () => onRef(r) }, '#' + r))));
  if (m.verdicts.length) row('dRole', roles.length ? el('ul', { class: 'roles' }, ...roles) : t('dRoleNone', lang));
  else if (roles.length) row('dRole', el('ul', { class: 'roles' }, ...roles));
  root.append(dl);
}

const COUNTED = new Set(['retry', 'bought', 'listed', 'missed', 'sold-out', 'deduct', 'acquired', 'no-quorum', 'quorum', 'too-late', 'renewed', 'release-refused', 'write-rejected', 'wrote', 'empty', 'gave-up']);

/** counters counts the marks a lesson talks about (retries, purchases,
 * quorums…), in total and per client; false when there are none. */
export function renderCounters(root, st) {
  root.textContent = '';
  const by = new Map();
  for (const e of st.model.rows) {
    if (e.kind !== 'mark' || !COUNTED.has(e.name)) continue;
    if (!by.has(e.name)) by.set(e.name, new Map());
    const c = by.get(e.name);
    c.set(e.client, (c.get(e.client) || 0) + 1);
  }
  if (!by.size) return false;
  const tb = el('table', { class: 'counts' });
  for (const [n, c] of by) {
    const total = [...c.values()].reduce((a, b) => a + b, 0);
    const per = el('td', { class: 'per' });
    for (const [who, k] of c) {
      const s = el('span', {}, who + ' ' + k);
      s.style.color = clientColor(st.model, who);
      per.append(s, ' ');
    }
    tb.append(el('tr', { 'data-name': n }, el('th', {}, nm(n, st.lang)), el('td', { class: 'total' }, String(total)), per));
  }
  root.append(tb);
  return true;
}

/** faultNodes lists the nodes a fault kind of the welcome message's rows
 * (docs/protocol.md) can aim at now, by the node state it applies to: the
 * nodes that are up, those that are down (Restart), or the masters that
 * are up and have a replica (Fail over). */
export function faultNodes(st, applies) {
  const nodes = (st.snap && st.snap.nodes) || [];
  if (applies === 'down') return nodes.filter((n) => n.down).map((n) => n.name);
  if (applies === 'master') return st.model.masters.filter((n) => nodes.some((x) => x.name === n && !x.down));
  return nodes.filter((n) => !n.down).map((n) => n.name);
}

/** faults offers only the faults this scenario can take now: none once the
 * run is over, a client fault while there are clients, a node fault while a
 * node is in the state it applies to; it says when nobody can make progress. */
export function renderFaults(st, $) {
  const snap = st.snap;
  const nodes = snap.nodes || [];
  const over = snap.ended;
  const shown = { client: false, node: false };
  for (const b of document.querySelectorAll('[data-fault]')) {
    const r = st.faults.find((x) => x.do === b.dataset.fault);
    const side = r && r.target === 'client' ? 'client' : 'node';
    b.hidden = over || !r || (side === 'client' ? snap.clients.length === 0 : faultNodes(st, r.applies).length === 0);
    shown[side] ||= !b.hidden;
  }
  $('client-faults').hidden = !shown.client;
  $('node-faults').hidden = !shown.node;
  $('no-faults').hidden = shown.client || shown.node;
  const stuck = !over && nodes.length > 0 && nodes.every((n) => n.down);
  $('stuck').hidden = !stuck;
  if (stuck) $('stuck').textContent = t('stuck', st.lang);
}
