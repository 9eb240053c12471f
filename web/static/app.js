// Lockstep's page. The server owns the world; the page asks it to step,
// seek, fork and replay, and draws what it answers. This file wires the
// parts together: the link to the server and its messages, the one
// render() every change goes through, and the hooks tests use.
//
//   store.js     the state (log, snapshot, view choices) and its reducer
//   controls.js  step, back, play, scrubber, seed, faults, language…
//   keyboard.js  the keys
//   picker.js    the scenario picker
//   editor.js    the YAML editor and its problems
//   share.js     share links and exports; liverec.js a live run kept as its recording
//   toast.js     brief messages and the server's errors
//   timeline.js  the timeline: layout.js places rows and lanes, draw.js
//                paints them, format.js writes events as text
//   panels.js    the side panels
//   lesson.js    the lesson's paragraph: its plan mark, More on a phone
//   phone.js     a phone's swipe, bottom dock and step bar padding
//   i18n.js      the page's words, from words.js (the catalogue's page.…,
//                made by go generate); messages.js the server's error codes

import { Link, PROTOCOL } from './socket.js';
import { Timeline } from './timeline.js';
import { renderNarration, renderVerdict, renderKeys, renderPending, renderDetail, renderCounters } from './panels.js';
import { t, fill, pick, apply, KEYS, untranslated, verdictNames } from './i18n.js';
import { decodeRun, download, shareURL, initShare, onLiveMessage, renderLive, barWords } from './share.js';
import { Explore } from './explore.js';
import { state, reduce, focus, onChange } from './store.js';
import { initControls, renderControls, buildFaultMenu } from './controls.js';
import { initKeyboard } from './keyboard.js';
import { initPicker, fillLabs, renderPicker } from './picker.js';
import { initEditor, takeYAML, setProblems, checkExpect, relabelErrors, followLoaded } from './editor.js';
import { showError, relabelToast } from './toast.js';
import { CodeView } from './code.js';
import { setSetbacks } from './row.js';
import { Chapters } from './chapters.js';
import { Challenge } from './challenge.js';
import { Compare } from './compare.js';
import { Report } from './report.js';
import { Classroom } from './class.js';
import { Pairing } from './pair.js';
import { initLesson, renderLessonPlan, lessonMore } from './lesson.js';
import { initPhone, dockDetail } from './phone.js';

const $ = (id) => document.getElementById(id);

const link = new Link(onMessage, onStatus);
const explorer = new Explore(link, () => state.lang);
const comparer = new Compare(link, () => state, (step) => link.send('seek', { step }));
const reporter = new Report(link, () => state, (lock) => comparer.show(lock));
// Check my lock: what to check, asked first (or the loaded run's card, kept),
// or the editor's file's card (the loaded scenario of it, or its only one).
$('mine-open').onclick = () => reporter.begin();
$('editor-mine').onclick = () => reporter.check({ yaml: $('editor').value, scenario: state.snap ? state.snap.scenario : '' });
const tl = new Timeline({
  root: $('timeline'), canvas: $('tl-canvas'), scroll: $('tl-scroll'), spacer: $('tl-spacer'),
  list: $('tl-events'), lanes: $('lanes'),
  onPick: (seq) => { state.selected = seq; render(); },
  onMove: (c) => link.send('step-client', { client: c }),
  onFollow: (on) => { $('follow').hidden = on; },
});

// The teaching tools (code.js, chapters.js, challenge.js).
const code = new CodeView($('code'));
code.onChange = () => render();
$('code-toggle').onclick = () => code.toggle();
const chapters = new Chapters({ panel: $('chapters-panel'), list: $('chapters'), paced: $('paced'), title: $('chapters-title'), label: $('paced-label') },
  (step) => link.send('seek', { step }));
const loadAgain = (challenge) => link.send('load', { scenario: state.snap.scenario, yaml: state.snap.custom ? state.customYAML : '', challenge });
const challenge = new Challenge($('challenge'), { take: () => loadAgain(true), leave: () => loadAgain(false), retry: () => link.send('reset'), goTo: (seq) => goTo(seq) });

// A class (class.js): the room this tab teaches or follows.
const pairing = new Pairing(link); // the teacher's remote (pair.js)
const classroom = new Classroom(link, {
  remote: (c) => pairing.button(c),
  goTo: (seq) => goTo(seq),
  code: () => code,
  compare: () => ({ open: comparer.open, choice: comparer.choice, show: (c) => comparer.show(c), close: () => comparer.toggle(false) }),
});
$('hide-giveaways').onchange = (e) => classroom.setHide(e.target.checked);

let shared = decodeRun(location.hash);
let restoring = null; // a share link's view, applied when its run arrives

let connStatus = 'connecting'; // 'open', or 'closed' once a link was lost (then it says so)
function onStatus(s, code) {
  connStatus = s;
  state.taken = s === 'closed' && code === 4000;
  if (s === 'closed' && !renders) render(); // closed before the first lesson came
  renderConn();
}

function renderConn() {
  $('conn').textContent = connStatus === 'closed' && !state.taken ? t('reconnecting', state.lang) : '';
  $('conn').className = 'conn ' + connStatus;
  $('taken').hidden = !state.taken;
  document.body.classList.toggle('taken', state.taken);
}

function onMessage(m) {
  if (explorer.onMessage(m)) {
    // a found run is a scenario of its own: its YAML is what a link carries
    if (m.type === 'explore-done' && m.extra && m.extra.yaml) state.customYAML = m.extra.yaml;
    return;
  }
  if (comparer.onMessage(m)) return;
  if (reporter.onMessage(m)) return;
  if (classroom.onMessage(m)) return;
  if (pairing.onMessage(m) || onLiveMessage(m)) return;
  switch (m.type) {
    case 'welcome': {
      const asked = link.takeFirstLoad(); // early.js asked for the first lesson already
      // A server restarted with another protocol version than the page's
      // cannot be read: say so and stop here.
      if (m.v !== PROTOCOL) {
        $('stale').hidden = false;
        link.stop();
        return;
      }
      buildFaultMenu(m.faults || []);
      state.setbacks = m.setbacks || [];
      setSetbacks(state.setbacks);
      state.catalog = m.catalog || [];
      fillLabs();
      state.limits = m.limits || state.limits;
      state.real = m.real || '';
      render();
      if (classroom.welcome(m)) {
        shared = null;
      } else if (shared) {
        const run = shared;
        shared = null;
        history.replaceState(null, '', location.pathname + location.search);
        // The view the link shows: its language and scale (for this visit:
        // the visitor's own choices stay stored), then, once the run is
        // there, its selection, Side by side and a search's result.
        if (run.l === 'en' || run.l === 'zh') state.lang = run.l;
        if (run.t !== undefined) state.timeScale = !!run.t;
        if (run.y) state.customYAML = run.y;
        restoring = run;
        render();
        // A run over at step c ended on a step that found no move: asking
        // for one more (a seek stops at the end) ends it here too.
        link.send('load', { scenario: run.s || '', yaml: run.y || '', seed: run.seed, actions: run.a || [], step: (run.c || 0) + (run.e ? 1 : 0), ...(run.r ? { recording: run.r } : {}) });
      } else if (!m.loaded && !asked) {
        link.send('load', { scenario: $('scenario').value === '__custom' ? state.catalog[0].id : $('scenario').value });
      }
      break;
    }
    case 'state':
      if (reduce(m)) tl.reset();
      if (m.snap.ended && m.snap.custom) checkExpect();
      render();
      if (restoring) restore(restoring);
      reporter.afterState(state.snap);
      break;
    case 'error':
      restoring = null;
      showError(m);
      if (m.errors) setProblems(m.errors);
      break;
    case 'checked':
      setProblems(m.errors, m.warnings);
      break;
    case 'yaml':
      if (!takeYAML(m.text)) download(m.name, m.text, 'text/yaml');
      break;
  }
}

let wasEnded = false; // the run drawn last had ended

/** verdictIntoView brings the verdict into view when the run ends, if it
 * is off screen: the last rows alone may read well ("release refused",
 * "done") when the verdict says the lock failed. */
function verdictIntoView(snap) {
  const ended = !!(snap && snap.ended);
  if (ended && !wasEnded) {
    const panel = $('verdict').closest('section');
    const r = panel.getBoundingClientRect();
    if (r.top < 0 || r.bottom > innerHeight) panel.scrollIntoView({ block: 'nearest' });
  }
  wasEnded = ended;
}

let renders = 0; // how many times the page was drawn

/** render draws the whole page from the state. */
function render() {
  renders++;
  const st = state, snap = st.snap;
  const banner = $('real-banner');
  banner.hidden = !st.real;
  if (st.real) banner.textContent = t('realBanner', st.lang).replace('{urls}', st.real);
  const live = $('live-banner'), lv = snap && snap.live;
  live.hidden = !lv;
  if (lv) {
    let s = fill('liveBanner', st.lang, { service: lv.service, server: lv.server || t('liveNotStarted', st.lang) });
    // a bar is said once one is drawn (barWords; a recording's notice: renderLive)
    s += barWords(st, t('liveLeaseBar', st.lang));
    if (live.textContent !== s) live.textContent = s;
  }
  renderLive(st, () => link.send('reset'));
  focus();
  explorer.marks(st.snap).forEach((r) => st.highlight.add(r)); // the search's moves (explore.js)
  document.body.classList.toggle('presenter', st.presenter);
  document.body.classList.toggle('selecting', st.selected != null);
  if (snap) {
    document.querySelector('main').removeAttribute('aria-busy');
    $('title').textContent = pick(snap.title, st.lang) || snap.scenario;
    $('lesson-text').textContent = pick(snap.lesson, st.lang);
    renderLessonPlan(snap, st.lang, classroom.hiding());
    lessonMore();
    $('expect').textContent = verdictNames(snap.expect || [], st.lang) || '—';
    // Off its script the run may end otherwise: the expectation is the
    // lesson's, said as such (apply() below words the label).
    $('expect-label').dataset.i18n = snap.offScript ? 'expectedPlan' : 'expected';
    $('expect').toggleAttribute('data-plan', !!snap.offScript);
    $('expect').removeAttribute('data-pending');
    $('real-why').textContent = snap.realWhy ? '— ' + t('onReal', st.lang) + ' ' + pick(snap.realWhy, st.lang) : '';
    $('share-link').href = shareURL();
  }
  renderPicker();
  followLoaded();
  renderControls();
  apply(document, st.lang);
  explorer.follow(st.snap);
  explorer.relabel();
  comparer.render();
  reporter.render();
  renderConn();
  $('follow').hidden = tl.follow;
  relabelToast();
  renderHelp();
  renderNarration($('narration'), $('narration-history'), st, goTo);
  renderVerdict($('verdict'), st, goTo);
  verdictIntoView(st.snap);
  dockDetail(st);
  renderKeys($('keys'), st);
  renderPending($('pending'), st, (c) => link.send('step-client', { client: c }));
  renderDetail($('detail'), st, goTo);
  $('counters-panel').hidden = !renderCounters($('counters'), st);
  relabelErrors();
  code.render(st);
  chapters.render(st);
  challenge.render(st);
  classroom.render();
  pairing.render();
  lessonMore(); // the class may have hidden the lesson's paragraph
  tl.set({ ...st });
}

function renderHelp() {
  const dl = $('help-keys');
  if (dl.dataset.lang === state.lang) return; // the keys change with the language only
  dl.dataset.lang = state.lang;
  dl.textContent = '';
  for (const [k, key] of KEYS) {
    const dt = document.createElement('dt');
    dt.textContent = k;
    const dd = document.createElement('dd');
    dd.textContent = t(key, state.lang);
    dl.append(dt, dd);
  }
}

/** restore applies the rest of a share link's view to the run it loaded. */
function restore(run) {
  restoring = null;
  // The same file, seed and moves end at the same step: the sender's
  // known end is this run's too.
  if (Number.isInteger(run.n) && run.n >= state.snap.step && state.endStep == null) state.endStep = run.n;
  if (run.f) explorer.restore(run.f, state.snap.scenario);
  if (typeof run.cmp === 'string') comparer.show(run.cmp);
  // after the frame that draws the new rows (which follows the newest)
  if (Number.isInteger(run.sel)) requestAnimationFrame(() => goTo(run.sel));
  render();
}

/** goTo selects an event and brings its row into view. */
function goTo(seq) {
  if (seq == null) return;
  const r = state.model.rowOfSeq.get(seq);
  if (r !== undefined) tl.scrollToRow(r);
  state.selected = seq;
  render();
}

/** selectBy moves the selection by d rows and shows the row. */
function selectBy(d) {
  const m = state.model;
  if (!m.rows.length) return;
  let r = state.selected != null ? m.rowOfSeq.get(state.selected) : undefined;
  r = r === undefined ? (d > 0 ? 0 : m.rows.length - 1) : Math.max(0, Math.min(m.rows.length - 1, r + d));
  state.selected = m.rows[r].seq;
  tl.reveal(r);
  render();
}

onChange(render);
initControls(link);
initKeyboard(selectBy);
initPicker(link, () => { $('scenario').blur(); $('tl-scroll').focus(); });
initEditor(link, () => tl.reset());
initShare(link, tl, () => ({ ...comparer.shared(), ...explorer.shared(state.snap) }));
$('follow').onclick = () => { tl.followNewest(); $('tl-scroll').focus(); };
initLesson();
initPhone();
$('reload').onclick = () => location.reload();
$('take-back').onclick = () => { state.taken = false; renderConn(); link.connect(); };

// Hooks for tests and measurements (stable; see docs/protocol.md).
window.lockstep = {
  state,
  reporter,
  link,
  classroom,
  timeline: tl,
  code,
  /** drawn lists the labels of the last frame (role, seq, text, cut). */
  drawn: () => tl.drawn,
  /** audit draws the whole log at the current width and lists its labels. */
  audit: () => tl.audit(),
  /** compare is the side by side: the server's last answer, the labels of
   * the two timelines' last frame and of both drawn whole ({left, right}). */
  compare: {
    answer: () => comparer.res,
    drawn: () => comparer.sides.drawn,
    audit: () => comparer.sides.audit(),
  },
  /** untranslated lists the server's texts shown in Chinese that the
   * catalogue did not know (they stayed English). */
  untranslated: () => [...untranslated],
  /** bench scrolls through the whole timeline and times each frame's draw. */
  bench(frames = 120) {
    const sc = $('tl-scroll');
    const times = [];
    const maxTop = sc.scrollHeight - sc.clientHeight;
    for (let i = 0; i < frames; i++) {
      sc.scrollTop = Math.round((maxTop * i) / Math.max(frames - 1, 1));
      tl.follow = false;
      tl.draw();
      times.push(tl.lastDraw);
    }
    times.sort((a, b) => a - b);
    const q = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))];
    return { rows: state.model.rows.length, frames, median: q(0.5), p95: q(0.95), max: times[times.length - 1] };
  },
};

// The socket first: what early.js kept (the welcome, the first lesson's
// state) is handled, and drawn, as it is taken. The page as it starts is
// drawn here only when nothing was and no first lesson is on its way (the
// page's markup shows it until then; onStatus draws the page if the
// socket closes first): on a first visit the page is drawn once, with the
// lesson, not once empty and again.
link.connect();
if (!renders && !link.firstLoad) render();
