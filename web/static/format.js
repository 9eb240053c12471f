// The text forms of events, as the timeline, the panels and the tooltips
// write them: times, commands, a reply's outcome, a key's state, and a
// whole event as a line for screen readers.

import { INK } from './paint.js';
import { t as tr, pick, name as nm, fill } from './i18n.js';

/** fmtTime writes virtual nanoseconds as the server does: 1.002s. With
 * digits, to that many decimals of a second (the narrow time column shows
 * 4: a run on real Redis logs microseconds; the event's own text keeps them). */
export function fmtTime(ns, digits = 6) {
  const neg = ns < 0;
  const s = (Math.abs(ns) / 1e9).toFixed(digits).replace(/0+$/, '').replace(/\.$/, '');
  return (neg ? '-' : '') + s + 's';
}

/** fmtCmd writes a command as redis-cli shows it, hiding long scripts; an
 * EVAL or EVALSHA of a script the server named shows the name (the event's
 * script field) where Redis got the body or the SHA1. */
export function fmtCmd(args, script) {
  if (!args) return '';
  if (script && args.length > 1 && /^eval(sha)?$/i.test(args[0])) args = [args[0], script, ...args.slice(2)];
  return args.map((a, i) => {
    if (i === 1 && a.length > 40 && /^eval$/i.test(args[0])) a = '<script>';
    if (a.length > 24 && /^[0-9a-f-]{24,}$/i.test(a)) a = a.slice(0, 8) + '…';
    return a === '' || /[\s"']/.test(a) ? JSON.stringify(a) : a;
  }).join(' ');
}

/** outcome sums up an event's reply in a few characters that are never
 * cut: OK, (nil), an integer, an error's code, a value, a list's length.
 * It reads the reply's answer, its type and gist as the engine read them
 * from the server (docs/protocol.md), never the reply's text. cls is its
 * class: ok, nil, int, err, val. */
export function outcome(e, lang) {
  if (e.reply == null || e.reply === '') return null;
  const a = e.answer || {}, g = a.gist || '';
  switch (a.type) {
    case 'ok': return { cls: 'ok', text: 'OK' };
    case 'nil': return { cls: 'nil', text: '(nil)' };
    case 'empty': return { cls: 'nil', text: '[ ]' };
    case 'int': return { cls: 'int', text: g };
    case 'refused': return { cls: 'err', text: nm('refused', lang) };
    case 'error': return { cls: 'err', text: g || tr('replyError', lang) };
    case 'list': return { cls: 'val', text: '[' + fill('items', lang, { n: g }) + ']' };
    case 'string': return { cls: 'val', text: '"' + (g.length > 12 ? g.slice(0, 8) + '…' : g) + '"' };
  }
  const r = a.type === 'status' ? g : e.reply; // a status (QUEUED), or a reply the engine did not type
  return { cls: 'val', text: r.length > 12 ? r.slice(0, 10) + '…' : r };
}

export const OUTCOME = {
  ok: { fill: '#dff3ea', ink: '#00573f' }, nil: { fill: '#ececec', ink: '#3d3d3d' },
  int: { fill: '#e3eefa', ink: '#004a78' }, err: { fill: '#fbe3d6', ink: '#8a3200' }, val: { fill: '#fff', ink: INK },
};

/** keyState writes one key's state as the timeline shows it. */
export function keyState(k, lang, full = false) {
  if (k.ttl === -2) return k.key + ' ' + tr('gone', lang);
  let v = k.type === 'string' ? JSON.stringify(!full && k.value.length > 10 ? k.value.slice(0, 8) + '…' : k.value) : '{' + (full ? k.value || '' : '…') + '}';
  if (k.owner && !full) v = k.owner;
  return k.key + '=' + v + (k.ttl >= 0 ? ' ' + fmtTime(k.ttl * 1e6) : '');
}

/** describe writes an event as a line of parts in lang, for screen readers
 * and the rows' tooltips: plain words as strings, and what is code
 * (commands, replies, key states) as {code}. */
export function describe(e, lang) {
  const out = ['#' + e.seq + ' ' + fmtTime(e.t) + ' · '];
  const who = (e.client || '') + (e.thread && e.thread !== 'main' ? '/' + e.thread : '');
  const keys = () => (e.keys && e.keys.length ? [' | ', { code: e.keys.map((k) => keyState(k, lang, true)).join(', ') }] : []);
  switch (e.kind) {
    case 'send': out.push(who + ' → ' + e.node + ': ', { code: fmtCmd(e.cmd, e.script) }); break;
    case 'exec': out.push(e.node + ' ← ' + who + ': ', { code: fmtCmd(e.cmd, e.script) }, ' → ', { code: e.reply ?? '' }, ...keys()); break;
    case 'reply': out.push(who + ' ← ' + e.node + ': ', { code: e.reply ?? '' }); break;
    case 'verdict': out.push((e.name === 'safe' ? '✓ ' : '✗ ') + e.name + ' — ' + pick(e.say, lang)); break;
    default: {
      const what = e.kind === 'mark' || e.kind === 'fault' || (e.kind === 'lost' && e.name) ? nm(e.name, lang) : tr(e.kind === 'expire' ? 'expired' : e.kind, lang);
      out.push([who, e.node].filter(Boolean).join(' · ') + ' ' + what + (e.note ? ': ' + pick(e.note, lang) : ''));
      if (e.cmd) out.push(' ', { code: fmtCmd(e.cmd, e.script) });
      out.push(...keys());
    }
  }
  return out;
}
