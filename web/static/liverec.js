// A live run kept as its recording (docs/services.md, "Recordings and
// share links"). A run in real time cannot be replayed from a schedule:
// once it has ended the server sends its recorded log (live-recording:
// the events with their wall-clock stamps and verdicts, when and where it
// ran, compressed), which a share link carries; a page that opens the
// link is shown that log, marked as recorded, and Run it again starts a
// new run in real time, marked as a new run.

import { fill } from './i18n.js';

const $ = (id) => document.getElementById(id);

/** say gives a word of this part of the page (the catalogue's
 * page.liverec.<key>) in lang with its {names} filled. */
const say = (key, lang, vals = {}) => fill('liverec.' + key, lang, vals);

let kept = null; // the last recording the server sent: {id, at, text, kib, max}

/** onMessage keeps a live-recording message; true if it was one. */
export function onLiveMessage(m) {
  if (m.type !== 'live-recording') return false;
  const a = m.args || {};
  kept = { id: m.name, at: a.at || '', text: m.text || '', kib: a.kib, max: a.max };
  return true;
}

/** mine is the recording of the run snap shows, if the server sent it. */
function mine(snap) {
  const lv = snap && snap.live;
  return lv && kept && kept.id === snap.scenario && kept.at === lv.at ? kept : null;
}

/** liveLink is what a share link carries of a live run: its recording
 * (r) once it has ended; nothing more for a run not ended or too big for
 * a link, whose link opens the lesson. */
export function liveLink(snap) {
  const k = mine(snap);
  return k && k.text ? { r: k.text } : {};
}

/** when says an RFC 3339 time in the page's language, to the second. */
function when(at, lang) {
  const d = new Date(at);
  if (isNaN(d)) return at;
  return d.toLocaleString(lang === 'zh' ? 'zh-CN' : 'en-GB', { dateStyle: 'medium', timeStyle: 'medium' });
}

/** barWords is what the real-time notice says of the bars drawn: lease
 * (the lease's sentence) when a lease's bar is drawn, the session's when
 * ZooKeeper's session is (the key `session`); nothing before either. */
export function barWords(st, lease) {
  const spans = (st.model && st.model.spans) || [];
  const bar = (session) => spans.some((sp) => sp.type === 'lease' && sp.expire > 0 && (sp.key === 'session') === session);
  return (bar(false) ? ' ' + lease : '') + (bar(true) ? ' ' + say('sessionBar', st.lang) : '');
}

/** renderLive shows whether the live run is a recording or a new run
 * after one (in place of the real-time notice, which speaks of a run
 * now), with Run it again; again() asks for the new run. */
export function renderLive(st, again) {
  const box = $('live-recorded'), snap = st.snap, lv = snap && snap.live;
  const k = mine(snap), big = !!(k && !k.text && k.kib);
  const show = !!(lv && (lv.recorded || lv.again || big));
  box.hidden = !show;
  if (!show) return;
  const words = [];
  if (lv.recorded) words.push(say('recorded', st.lang, { at: when(lv.at, st.lang), server: lv.server }));
  else if (lv.again) words.push(say('again', st.lang));
  if (big) words.push(say('tooBig', st.lang, { kib: k.kib, max: k.max }));
  const s = words.join(' ');
  const p = $('live-recorded-text');
  if (p.textContent !== s) p.textContent = s;
  if (lv.recorded) $('live-banner').hidden = true; // it speaks of a run now
  const b = $('live-again');
  b.hidden = !lv.recorded;
  b.textContent = say('runAgain', st.lang);
  b.onclick = again;
}
