// The run's controls: step, back, play, to the end, reset, speed, the
// scrubber, the seed, the fault buttons, the language and presenter
// switches and the help card. Each control asks the server (or changes a
// view choice in the store); the answer comes back as a state message.

import { state, changed } from './store.js';
import { t, fill } from './i18n.js';
import { fmtTime } from './format.js';
import { renderTargets, renderFaults, faultTargets } from './panels.js';

const $ = (id) => document.getElementById(id);

let link = null;
let scrubbing = false; // the user is dragging the scrubber: render leaves it alone
let scrubTimer = 0;

/** The actions the buttons and the keyboard share. */
export const actions = {
  step: () => { if (state.snap && !state.snap.ended) link.send('step'); },
  back: () => link.send('back'),
  // beats: paced play stops at each chapter (chapters.js keeps the switch).
  togglePlay: () => {
    state.pausing = !!(state.snap && state.snap.playing);
    link.send(state.pausing ? 'pause' : 'play', { speed: Number($('speed').value), beats: $('paced').checked });
  },
  toEnd: () => link.send('seek', { step: state.limits.max_steps }),
  reset: () => link.send('reset'),
  toggleLang: () => {
    state.lang = state.lang === 'zh' ? 'en' : 'zh';
    localStorage.setItem('lockstep.lang', state.lang);
    changed();
  },
  togglePresenter: () => { state.presenter = !state.presenter; changed(); },
  toggleTime: () => { state.timeScale = !state.timeScale; localStorage.setItem('lockstep.time', state.timeScale ? 'on' : 'off'); changed(); },
  help: (show) => { $('help').hidden = !show; if (show) $('help-close').focus(); },
};

/** initControls wires the controls to the server link. */
export function initControls(l) {
  link = l;
  $('step').onclick = actions.step;
  $('back').onclick = actions.back;
  $('play').onclick = actions.togglePlay;
  $('end').onclick = actions.toEnd;
  $('reset').onclick = actions.reset;
  $('lang').onclick = actions.toggleLang;
  $('presenter').onclick = actions.togglePresenter;
  $('time-scale').onclick = actions.toggleTime;
  $('help-btn').onclick = () => actions.help(true);
  $('help-close').onclick = () => actions.help(false);
  $('speed').onchange = () => { if (state.snap && state.snap.playing) link.send('play', { speed: Number($('speed').value) }); };
  $('seed').onchange = () => {
    const v = Number($('seed').value);
    if (Number.isSafeInteger(v)) link.send('seed', { seed: v });
  };
  $('scrubber').addEventListener('input', () => {
    scrubbing = true;
    clearTimeout(scrubTimer);
    scrubTimer = setTimeout(() => { link.send('seek', { step: Number($('scrubber').value) }); }, 60);
  });
  $('scrubber').addEventListener('change', () => {
    clearTimeout(scrubTimer);
    scrubbing = false;
    link.send('seek', { step: Number($('scrubber').value) });
  });
  for (const b of document.querySelectorAll('[data-fault]')) b.onclick = () => link.send('inject', { fault: fault(b.dataset.fault) });
}

/** fault is the fault a button injects, at the chosen client or node. */
function fault(kind) {
  const f = { do: kind };
  if (['crash', 'pause', 'drop-reply', 'drop-request'].includes(kind)) f.client = $('fault-client').value;
  else f.node = $('fault-node').value;
  const { masters, down } = faultTargets(state);
  if (kind === 'failover' && !masters.includes(f.node)) f.node = masters[0];
  if (kind === 'node-restart' && !down.includes(f.node)) f.node = down[0];
  if (kind === 'pause') f.for = '1s';
  if (kind === 'partition') f.for = '2s';
  if (kind === 'clock-jump') f.by = '5s';
  return f;
}

/** renderControls sets the controls from the snapshot: the cursor's step,
 * event count and time, the scrubber's length, what can be pressed, and
 * the faults that apply. */
export function renderControls() {
  const st = state, snap = st.snap;
  $('presenter').setAttribute('aria-pressed', String(st.presenter));
  $('time-scale').setAttribute('aria-pressed', String(st.timeScale));
  $('lang').textContent = st.lang === 'zh' ? 'English' : '中文';
  if (!snap) return;
  if (document.activeElement !== $('seed')) $('seed').value = String(snap.seed);
  $('scrubber').max = String(st.endStep ?? st.maxStep + 10);
  if (!scrubbing) $('scrubber').value = String(snap.step);
  $('cursor').textContent = `${t('stepOf', st.lang)} ${snap.step}${t('stepSuffix', st.lang)}${st.endStep != null ? ' / ' + st.endStep : ''} · ${fill('eventsCount', st.lang, { n: st.model.events.length })} · ${fmtTime(snap.t, 3)}`;
  $('play').querySelector('[data-i18n]').dataset.i18n = snap.playing ? 'pause' : 'play';
  $('play').setAttribute('aria-pressed', String(snap.playing));
  $('step').disabled = $('end').disabled = snap.ended;
  $('back').disabled = snap.step === 0;
  renderTargets($('fault-client'), snap.clients);
  renderTargets($('fault-node'), snap.nodes.map((n) => n.name));
  renderFaults(st, $);
}
