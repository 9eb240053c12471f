// The code view: beside the timeline, the lock code the chosen client runs
// (the real Go source of internal/lock and its Lua scripts, served by the
// server at /source/), with the line that sent the current command lit.
// The engine records each command's call site (event.src: file, line, the
// frames further out, and for a script the redis.call commands it ran); the
// view follows the cursor, the selection and the chosen client.

import { fill } from './i18n.js';
import { el } from './dom.js';
import { fmtCmd } from './format.js';

const CMD_KINDS = new Set(['send', 'exec', 'reply', 'lost', 'timeout']);

/** current finds the command the view shows for a client ('' follows the
 * newest command of any client), or for the selected event when it is a
 * command: its send event (which carries the call site), its exec (which
 * carries what a script ran) and the event itself. */
export function current(events, client, selected) {
  const bySeq = (seq) => (events[seq - 1] && events[seq - 1].seq === seq ? events[seq - 1] : events.find((e) => e.seq === seq));
  let ev = null;
  if (selected != null) {
    const s = bySeq(selected);
    if (s && CMD_KINDS.has(s.kind) && (!client || s.client === client)) ev = s;
  }
  if (!ev) {
    for (let i = events.length - 1; i >= 0; i--) {
      const e = events[i];
      if (CMD_KINDS.has(e.kind) && e.client && (!client || e.client === client)) { ev = e; break; }
    }
  }
  if (!ev) return null;
  const send = ev.kind === 'send' ? ev : bySeq(ev.req) || ev;
  let exec = ev.kind === 'exec' ? ev : null;
  if (!exec) {
    for (let i = send.seq; i < events.length && i < send.seq + 4000; i++) {
      const e = events[i];
      if (e && e.kind === 'exec' && e.req === send.seq) { exec = e; break; }
      if (e && e.kind === 'reply' && e.req === send.seq) break;
    }
  }
  return { ev, send, exec, client: ev.client };
}

/** lastLockCommand is a client's latest command before seq that came
 * from lock code, as current gives it, or null. */
function lastLockCommand(events, client, seq) {
  for (let i = Math.min(seq, events.length) - 1; i >= 0; i--) {
    const e = events[i];
    if (e.kind === 'send' && e.client === client && e.src) return current(events, client, e.seq);
  }
  return null;
}

/** luaLines maps the commands a script ran, in order, to the lines of its
 * redis.call (or pcall) that ran them: each is the first line at or after
 * the previous match that calls that command. */
export function luaLines(text, calls, start = 0) {
  const lines = text.split('\n');
  const out = [];
  let from = start;
  for (const c of calls || []) {
    const re = new RegExp(`redis\\.p?call\\(\\s*['"]${c}['"]`, 'i');
    for (let i = from; i < lines.length; i++) {
      if (re.test(lines[i])) { out.push(i + 1); from = i; break; }
    }
  }
  return out;
}

/** body lists the lines of a script that are code (not comments or blank). */
function body(text) {
  const out = [];
  text.split('\n').forEach((l, i) => { if (l.trim() && !l.trim().startsWith('--')) out.push(i + 1); });
  return out;
}

/** libScript finds where a library's script is written: a name such as
 * redsync.deleteScript is the variable deleteScript of the library under
 * redsync/ (snap.libs), in its scripts file; the script is the backquoted
 * text from the variable's line. null for a script of internal/lock. */
export function libScript(name, libs) {
  const dot = name.indexOf('.');
  if (dot < 0 || name.endsWith('.lua')) return null;
  const dir = name.slice(0, dot);
  const lib = (libs || {})[dir];
  if (!lib || !lib.scripts) return null;
  return { path: dir + '/' + lib.scripts, name: name.slice(dot + 1) };
}

/** scriptBlock gives the lines [first, last] (1-based) of the variable
 * name's backquoted script in a Go file's text, or null. */
export function scriptBlock(text, name) {
  const lines = text.split('\n');
  const decl = new RegExp(`^\\s*(var\\s+)?${name}\\s*=`);
  const first = lines.findIndex((l) => decl.test(l));
  if (first < 0) return null;
  let ticks = 0;
  for (let i = first; i < lines.length; i++) {
    ticks += (lines[i].match(/`/g) || []).length;
    if (ticks >= 2) return [first + 1, i + 1];
  }
  return null;
}

export class CodeView {
  constructor(root) {
    this.root = root;
    this.client = ''; // '' follows the newest command
    this.files = new Map(); // path -> text (or a promise)
    this.own = null; // the scenario's own locks' code, path -> text (snap.own)
    this.frame = 0; // which frame of the call site is shown: 0 the innermost
    this.key = '';
    this.hidden = localStorage.getItem('lockstep.code') === 'off';
    this.onChange = () => {};
  }

  fetch(path) {
    // A lock the scenario declares comes with the snapshot, not /source/.
    if (this.own && Object.prototype.hasOwnProperty.call(this.own, path)) return this.own[path];
    const got = this.files.get(path);
    if (typeof got === 'string') return got;
    if (!got) {
      // A failed fetch leaves the file empty rather than loading for ever.
      const done = (t) => { this.files.set(path, t); this.key = ''; this.onChange(); };
      this.files.set(path, fetch('/source/' + path).then((r) => (r.ok ? r.text() : '')).then(done, () => done('')));
    }
    return null;
  }

  /** toggle shows or hides the view (remembered); the header's Code
   * button calls it. */
  toggle() {
    this.hidden = !this.hidden;
    localStorage.setItem('lockstep.code', this.hidden ? 'off' : 'on');
    this.key = '';
    this.onChange();
  }

  /** render draws the view for the state (app.js's store). */
  render(st) {
    document.body.classList.toggle('no-code', this.hidden);
    const btn = document.getElementById('code-toggle');
    if (btn) btn.setAttribute('aria-pressed', String(!this.hidden));
    this.root.hidden = this.hidden;
    const snap = st.snap;
    if (!snap) return;
    this.own = snap.own || null;
    const clients = snap.clients || [];
    if (this.client && !clients.includes(this.client)) this.client = '';
    const cur = current(st.model.events, this.client, st.selected);
    const who = cur ? cur.client : this.client || clients[0] || '';
    // A workload command (the stock, the storage) is not lock code: the
    // view keeps the client's latest lock command lit.
    const lockCmd = cur && !cur.send.src ? lastLockCommand(st.model.events, who, cur.send.seq) : cur;
    const src = lockCmd && lockCmd.send.src;
    const frames = src ? [src, ...(src.via || [])] : [];
    const frame = frames[Math.min(this.frame, Math.max(frames.length - 1, 0))];
    const file = frame ? frame.file : (snap.code || {})[who] || '';
    const lib = src && lockCmd.send.script ? libScript(lockCmd.send.script, snap.libs) : null;
    const script = src && lockCmd.send.script ? (lib ? lib.path : 'scripts/' + lockCmd.send.script) : '';
    const calls = lockCmd && lockCmd.exec && lockCmd.exec.src ? lockCmd.exec.src.calls || [] : null;
    const key = JSON.stringify([st.lang, this.hidden, clients, this.client, who, cur && cur.ev.seq, file, frame && frame.line, script, calls, this.frame]);
    if (key === this.key) return;
    this.key = key;
    const root = this.root;
    root.textContent = '';
    if (this.hidden) return; // the column is gone (the page's grid gives its room to the timeline)
    root.append(el('div', { class: 'code-head' }, el('h3', {}, fill('codeOf', st.lang, { client: who || '—' }))));
    const tabs = el('div', { class: 'code-clients', role: 'group', 'aria-label': fill('code', st.lang) });
    const tab = (name, label, title) => el('button', { class: 'code-client' + (this.client === name ? ' on' : ''), 'aria-pressed': String(this.client === name), 'data-client': name, title: title || '', onclick: () => { this.client = name; this.frame = 0; this.key = ''; this.onChange(); } }, label);
    tabs.append(tab('', fill('codeAuto', st.lang), fill('codeAutoTip', st.lang)));
    for (const c of clients) tabs.append(tab(c, c));
    root.append(tabs);
    if (!cur) {
      root.append(el('p', { class: 'code-note' }, fill('codeNone', st.lang, { client: who })));
    } else {
      const sender = cur.send.client + (cur.send.thread && cur.send.thread !== 'main' ? '/' + cur.send.thread : '');
      const cmd = sender + ' -> ' + cur.send.node + ': ' + fmtCmd(cur.send.cmd, cur.send.script); // from the event's fields, not its line
      root.append(el('p', { class: 'code-cmd', 'data-testid': 'code-cmd', 'data-seq': String(cur.ev.seq) }, el('code', {}, fill('codeCmd', st.lang, { seq: cur.ev.seq, kind: cur.ev.kind, cmd }))));
      if (!cur.send.src) root.append(el('p', { class: 'code-note', 'data-testid': 'code-workload' }, fill('codeWorkload', st.lang, { client: who, cmd: (cur.send.cmd || []).slice(0, 3).join(' ') }) + (src ? ' ' + fill('codeLast', st.lang, { seq: lockCmd.send.seq }) : '')));
    }
    if (frames.length > 1) {
      const crumbs = el('p', { class: 'code-frames' });
      frames.forEach((f, i) => {
        if (i > 0) crumbs.append(' ← ');
        crumbs.append(el('button', { class: 'link' + (i === this.frame ? ' on' : ''), 'data-frame': String(i), onclick: () => { this.frame = i; this.key = ''; this.onChange(); } }, el('code', {}, `${f.func || ''} (${f.file}:${f.line})`)));
      });
      root.append(crumbs);
    }
    if (file) root.append(this.pane(file, frame ? [frame.line] : [], frame ? 'active' : '', st.lang, snap.libs));
    if (script) {
      const text = this.fetch(script);
      let lit = [];
      if (text != null && lib) {
        // a library's script, written inside its Go source
        const block = scriptBlock(text, lib.name);
        if (block && calls && calls.length) lit = luaLines(text, calls, block[0] - 1);
        else if (block) for (let i = block[0]; i <= block[1]; i++) lit.push(i);
      } else if (text != null) {
        lit = calls && calls.length ? luaLines(text, calls) : body(text);
      }
      root.append(el('p', { class: 'code-note' }, fill('codeScript', st.lang, { name: lockCmd.send.script }) + ' — ' + fill(calls && calls.length ? 'codeRan' : 'codeAll', st.lang)));
      root.append(this.pane(script, lit, calls && calls.length ? 'ran' : 'all', st.lang, snap.libs));
    }
  }

  /** pane shows one file with its lit lines, scrolled to the first. Its
   * header names the file as a reader finds it: internal/lock/FILE, or a
   * library's module and version, its licence and the file within it. */
  pane(path, lit, how, lang, libs) {
    const text = this.fetch(path);
    // A region of its own, reachable by the keyboard, to scroll through.
    const title = fileTitle(path, libs, lang, this.own);
    const box = el('div', { class: 'code-pane', 'data-file': path, tabindex: '0', role: 'region', 'aria-label': title });
    box.append(el('div', { class: 'code-file' }, title));
    if (text == null) {
      box.append(el('p', { class: 'code-note' }, fill('codeLoading', lang, { file: path })));
      return box;
    }
    const ol = el('ol', { class: 'code-lines' });
    const on = new Set(lit);
    let first = null;
    text.split('\n').forEach((line, i) => {
      const n = i + 1;
      const li = el('li', { 'data-line': String(n) }, el('code', {}, line || ' '));
      if (on.has(n)) {
        li.className = 'lit ' + how;
        if (how === 'active') li.setAttribute('data-testid', 'code-line-active');
        if (how === 'ran') li.setAttribute('data-testid', 'code-line-ran');
        first ||= li;
      }
      ol.append(li);
    });
    box.append(ol);
    if (first) requestAnimationFrame(() => { box.scrollTop = Math.max(0, first.offsetTop - box.clientHeight / 3); });
    return box;
  }
}

/** fileTitle names a file of /source/ for the code view's header; a file
 * of a lock the scenario declares (own) is named as the scenario's. */
export function fileTitle(path, libs, lang, own) {
  if (own && Object.prototype.hasOwnProperty.call(own, path)) return fill('codeOwn', lang, { file: path });
  const dir = path.split('/')[0];
  const lib = (libs || {})[dir];
  if (!lib || !path.includes('/')) return 'internal/lock/' + path;
  return fill('codeLib', lang, { module: lib.module, version: lib.version, license: lib.license, file: path.slice(dir.length + 1) });
}
