// The WebSocket link to the server (docs/protocol.md): JSON messages,
// request ids, reconnection with backoff that resumes the same session.

/** PROTOCOL is the protocol version this page speaks: the server's
 * ProtocolVersion when they were built together (a Go test holds them
 * equal); a welcome with another version is from a server updated since. */
export const PROTOCOL = 4;

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
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}/ws`);
    this.ws = ws;
    ws.onopen = () => {
      this.part = null;
      this.delay = 250;
      this.onStatus('open');
      ws.send(JSON.stringify({ op: 'hello', session: this.session, id: this.nextID++ }));
    };
    ws.onmessage = (ev) => {
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
    };
    ws.onclose = (ev) => {
      this.ws = null;
      this.onStatus('closed', ev.code);
      if (ev.code === 4000 || this.stopped) return; // opened in another tab: do not fight over it
      setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, 5000);
    };
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
