// The WebSocket link to the server (docs/protocol.md): JSON messages,
// request ids, reconnection with backoff that resumes the same session.

/** PROTOCOL is the protocol version this page speaks: the server's
 * ProtocolVersion when they were built together (a Go test holds them
 * equal); a welcome with another version is from a server updated since. */
export const PROTOCOL = 4;

/** takeEarly is the socket early.js opened (index.html), once; null on
 * a page without it (the remote), after it was taken, or when this runs
 * before early.js did (which then opens none). */
function takeEarly() {
  const e = window.lockstepEarly;
  window.lockstepEarly = null;
  return e && e.ws ? e : null;
}

export class Link {
  constructor(onMessage, onStatus) {
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.nextID = 1;
    this.queue = [];
    this.ws = null;
    this.delay = 250;
    this.session = sessionStorage.getItem('lockstep.session') || '';
  }

  connect() {
    // The socket early.js opened as the page started, once: it said hello
    // (and may have asked for the first lesson: firstLoad is that request's
    // id); every reconnection opens a new one here.
    const early = takeEarly();
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = early ? early.ws : new WebSocket(`${proto}//${location.host}/ws`);
    this.ws = ws;
    if (early) {
      this.nextID = Math.max(this.nextID, early.next);
      this.firstLoad = early.load;
    }
    const on = {
      open: () => {
        this.part = null;
        this.delay = 250;
        this.onStatus('open');
        if (!early) ws.send(JSON.stringify({ op: 'hello', session: this.session, id: this.nextID++ }));
      },
      message: (ev) => this.receive(ws, ev),
      close: (ev) => {
        this.ws = null;
        this.onStatus('closed', ev.code);
        if (ev.code === 4000 || this.stopped) return; // opened in another tab: do not fight over it
        setTimeout(() => this.connect(), this.delay);
        this.delay = Math.min(this.delay * 2, 5000);
      },
    };
    if (early) early.take(on);
    else {
      ws.onopen = on.open;
      ws.onmessage = on.message;
      ws.onclose = on.close;
    }
  }

  /** takeFirstLoad is the id of the first lesson's load early.js sent
   * before the page's modules ran (0 if none), once: the page then asks
   * for no other. */
  takeFirstLoad() {
    const id = this.firstLoad || 0;
    this.firstLoad = 0;
    return id;
  }

  receive(ws, ev) {
    let m;
    try { m = JSON.parse(ev.data); } catch { return; }
    m = this.join(m);
    if (!m) return; // a part of a long state: more follow
    if (m.type === 'welcome') {
      this.session = m.session;
      sessionStorage.setItem('lockstep.session', m.session);
      const q = this.queue;
      this.queue = [];
      this.onMessage(m);
      for (const s of q) ws.send(s);
      return;
    }
    this.onMessage(m);
  }

  /** join takes a long run's state, sent in parts (docs/protocol.md: each
   * part but the last carries `more` and no snapshot, each from where the
   * one before ended), as one state: null for a part before the last, the
   * whole state at the last; any other message as it is. */
  join(m) {
    if (m.type !== 'state') return m;
    const held = this.part;
    this.part = null;
    if (held && m.re === held.re && m.from === held.from + held.events.length) {
      m.events = held.events.concat(m.events || []);
      m.from = held.from;
    }
    if (!m.more) return m;
    m.events = m.events || [];
    this.part = m;
    return null;
  }

  /** stop closes the link for good: no reconnection. */
  stop() {
    this.stopped = true;
    if (this.ws) this.ws.close();
  }

  /** send queues a request until the socket is open; it returns the id. */
  send(op, args = {}) {
    const id = this.nextID++;
    const s = JSON.stringify({ ...args, op, id });
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(s);
    else this.queue.push(s);
    return id;
  }

  /** raw sends text as is (tests use it to send bad input). */
  raw(text) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(text);
  }
}
