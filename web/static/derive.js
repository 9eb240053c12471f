// The timeline's model, derived from the event log: one row per event
// (narration excepted), a lane per client and per node, and spans that
// cross rows (requests, critical sections, pauses, lock leases, overlaps of
// critical sections, partitions, downed nodes). Critical sections are the
// checker's, which the server sends on the events that change them (cs). Spans are
// indexed by buckets of rows so that drawing a window costs what the window
// shows, not what the log holds.

export const BUCKET = 32;

export function newModel(clients = [], nodes = []) {
  const m = {
    events: [], rows: [], rowOfSeq: new Map(), clients: [], nodes: [],
    spans: [], open: new Set(), buckets: [], says: [], verdicts: [],
    reqs: new Map(), byWho: new Map(), leases: new Map(), inside: new Set(),
    overlap: null, parts: new Map(), downs: new Map(),
    masters: [], // the nodes with a replica, from their replicas' init events
  };
  for (const c of clients) lane(m, c, 'client');
  for (const n of nodes) lane(m, n, 'node');
  return m;
}

function lane(m, name, kind) {
  if (!name) return;
  const list = kind === 'client' ? m.clients : m.nodes;
  if (!list.includes(name)) list.push(name);
}

function openSpan(m, s) {
  s.id = m.spans.length;
  m.spans.push(s);
  m.open.add(s.id);
  return s;
}

function closeSpan(m, s, r1) {
  if (!s || s.r1 !== undefined) return;
  s.r1 = r1;
  m.open.delete(s.id);
  for (let b = Math.floor(s.r0 / BUCKET); b <= Math.floor(r1 / BUCKET); b++) {
    (m.buckets[b] ||= []).push(s.id);
  }
}

/** spansIn lists the spans that touch rows r0..r1 (open ones included). */
export function spansIn(m, r0, r1) {
  const seen = new Set();
  const out = [];
  for (let b = Math.floor(r0 / BUCKET); b <= Math.floor(r1 / BUCKET); b++) {
    for (const id of m.buckets[b] || []) {
      if (seen.has(id)) continue;
      seen.add(id);
      const s = m.spans[id];
      if (s.r1 >= r0 && s.r0 <= r1) out.push(s);
    }
  }
  for (const id of m.open) {
    const s = m.spans[id];
    if (s.r0 <= r1) out.push(s);
  }
  return out;
}

/** append adds events (in order) to the model. */
export function append(m, events) {
  for (const e of events) add(m, e);
}

function add(m, e) {
  m.events.push(e);
  if (e.kind === 'say') {
    m.says.push(e);
    const ref = e.refs && e.refs.length ? m.rowOfSeq.get(e.refs[0]) : undefined;
    m.rowOfSeq.set(e.seq, ref ?? Math.max(m.rows.length - 1, 0));
    return;
  }
  const r = m.rows.length;
  m.rows.push(e);
  m.rowOfSeq.set(e.seq, r);
  if (e.client) lane(m, e.client, 'client');
  if (e.node) lane(m, e.node, 'node');
  if (e.cs) { // the checker's critical sections, sent by the server
    for (const c of e.cs.leave || []) leave(m, c, r);
    for (const c of e.cs.enter || []) enter(m, c, r);
  }
  const who = e.client;
  switch (e.kind) {
    case 'send': {
      const s = openSpan(m, { type: 'req', r0: r, client: who, node: e.node, send: r });
      m.reqs.set(e.seq, s);
      break;
    }
    case 'exec': {
      const s = m.reqs.get(e.req);
      if (s) s.exec = r;
      if (e.keys) lease(m, e, r);
      break;
    }
    case 'reply': case 'timeout': {
      const s = m.reqs.get(e.req);
      if (s) { s[e.kind] = r; closeSpan(m, s, r); m.reqs.delete(e.req); }
      if (e.keys) lease(m, e, r); // a live lease renewed: its key's TTL full again
      break;
    }
    case 'lost': {
      const s = m.reqs.get(e.req);
      if (s) s.lost = r;
      break;
    }
    case 'expire': case 'init': {
      if (e.keys) lease(m, e, r);
      const of = e.kind === 'init' && e.master; // a replica's master
      if (of && !m.masters.includes(of)) m.masters.push(of);
      break;
    }
    case 'fault':
      fault(m, e, r);
      break;
    case 'verdict':
      m.verdicts.push(e);
      break;
  }
}

function enter(m, who, r) {
  const cur = m.byWho.get(who) || {};
  if (cur.cs) return;
  cur.cs = openSpan(m, { type: 'cs', r0: r, client: who });
  m.byWho.set(who, cur);
  m.inside.add(who);
  if (m.inside.size >= 2) {
    // An overlap names exactly who is inside: when a third enters, the
    // span of two ends and one of three begins.
    if (m.overlap) closeSpan(m, m.overlap, Math.max(r - 1, m.overlap.r0));
    m.overlap = openSpan(m, { type: 'overlap', r0: r, who: [...m.inside] });
  }
}

function leave(m, who, r) {
  const cur = m.byWho.get(who);
  if (!cur || !cur.cs) return;
  closeSpan(m, cur.cs, r);
  cur.cs = null;
  m.inside.delete(who);
  if (m.overlap) {
    closeSpan(m, m.overlap, r);
    m.overlap = m.inside.size >= 2 ? openSpan(m, { type: 'overlap', r0: r, who: [...m.inside] }) : null;
  }
}

function lease(m, e, r) {
  for (const k of e.keys) {
    const id = e.node + '\u0000' + k.key;
    const cur = m.leases.get(id);
    const gone = k.ttl === -2;
    const same = cur && !gone && cur.owner === k.owner && cur.expire === (k.expire || 0) && cur.value === k.value;
    if (same) continue;
    if (cur) { closeSpan(m, cur, r); m.leases.delete(id); }
    if (!gone && k.owner) {
      const s = openSpan(m, {
        type: 'lease', r0: r, node: e.node, key: k.key, owner: k.owner, value: k.value,
        expire: k.expire || 0, ttl: k.ttl, t0: e.t,
      });
      m.leases.set(id, s);
    }
  }
}

// fault draws what a fault event did, by its effect (sim.Effects, declared
// beside each fault kind on the server): the page knows effects, never
// fault kinds, so a new kind with a known effect needs no code here.
function fault(m, e, r) {
  switch (e.effect) {
    case 'client-stops': {
      const cur = m.byWho.get(e.client) || {};
      if (!cur.stopped) cur.stopped = openSpan(m, { type: 'stopped', r0: r, client: e.client });
      m.byWho.set(e.client, cur);
      break;
    }
    case 'client-goes-on':
    case 'client-dies': {
      const cur = m.byWho.get(e.client);
      if (cur && cur.stopped) { closeSpan(m, cur.stopped, r); cur.stopped = null; }
      break;
    }
    case 'link-cut':
      if (!m.parts.has(e.node)) m.parts.set(e.node, openSpan(m, { type: 'cut', r0: r, node: e.node, client: e.client }));
      break;
    case 'link-mended':
      if (m.parts.has(e.node)) { closeSpan(m, m.parts.get(e.node), r); m.parts.delete(e.node); }
      break;
    case 'node-down':
      if (!m.downs.has(e.node)) m.downs.set(e.node, openSpan(m, { type: 'down', r0: r, node: e.node }));
      break;
    case 'node-up':
      if (m.downs.has(e.node)) { closeSpan(m, m.downs.get(e.node), r); m.downs.delete(e.node); }
      for (const [id, s] of m.leases) if (s.node === e.node) { closeSpan(m, s, r); m.leases.delete(id); }
      if (e.keys) lease(m, e, r);
      break;
  }
}

/** truncate makes a fresh model holding the first n events of m. */
export function truncate(m, n, clients, nodes) {
  const f = newModel(clients, nodes);
  append(f, m.events.slice(0, n));
  return f;
}
