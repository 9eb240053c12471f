// A live run kept as its recording (docs/services.md, "Recordings and
// share links"). A run in real time cannot be replayed from a schedule:
// once it has ended the server sends its recorded log (live-recording:
// the events with their wall-clock stamps and verdicts, when and where it
// ran, compressed), which a share link carries; a page that opens the
// link is shown that log, marked as recorded, and Run it again starts a
// new run in real time, marked as a new run.

const $ = (id) => document.getElementById(id);

// The words of this part of the page, in English and 中文.
const WORDS = {
  recorded: ['A recorded run, not a run now: it ran on {at} on {server}. You see its log as it was recorded, with its milliseconds and its verdicts.', '这是一次录下的运行，不是现在的运行：它于 {at} 在 {server} 上运行。你看到的是当时录下的日志，毫秒数和结论都与当时相同。'],
  again: ['A new run in real time, not the recording: the same schedule gives the same verdict, not the same milliseconds.', '这是一次新的实时运行，不是那次录制：同样的安排得到同样的结论，但不是同样的毫秒数。'],
  runAgain: ['Run it again', '重新运行'],
  // ZooKeeper's session, drawn beside the lock as the key `session`
  sessionBar: ["The session's bar is what is left of the holder's ZooKeeper session as its client last heard: each reply it hears renews it; when it runs out the server may expire the session and delete the holder's node.", '会话条表示持有者的 ZooKeeper 会话还剩多少（以它的客户端最后一次听到的为准）：它每听到一次回复就续期一次；耗尽后服务器可能让会话过期并删除持有者的节点。'],
  tooBig: ['This run is {kib} KiB as a recording, over the {max} KiB a link carries: the link opens the lesson, not this run.', '这次运行录下来有 {kib} KiB，超过了链接可携带的 {max} KiB：链接只会打开这节课，而不是这次运行。'],
};

/** say gives a word of WORDS in lang with its {names} filled. */
function say(key, lang, vals = {}) {
  let s = WORDS[key][lang === 'zh' ? 1 : 0];
  for (const [k, v] of Object.entries(vals)) s = s.split('{' + k + '}').join(String(v));
  return s;
}

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
