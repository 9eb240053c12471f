// The run's controls: step, back, play, to the end, reset, speed, the
// scrubber, the seed, the fault buttons, the language and presenter
// switches and the help card. Each control asks the server (or changes a
// view choice in the store); the answer comes back as a state message.

import { state, changed } from './store.js';
import { t, fill, faultKey, amount, nextLang, langName } from './i18n.js';
import { fmtTime } from './format.js';
import { renderTargets, renderFaults, faultNodes } from './panels.js';
import { el } from './dom.js';

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
    state.lang = nextLang(state.lang);
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
}

/** buildFaultMenu makes the fault menu from the welcome message's fault
 * rows (docs/protocol.md): a button for each row the menu offers, beside
 * the client or the node picker by the row's target, labelled by its
 * faultKey in the catalogue with its default amount. */
export function buildFaultMenu(rows) {
  state.faults = rows;
  for (const b of document.querySelectorAll('[data-fault]')) b.remove();
  for (const r of rows.filter((x) => x.menu)) {
    const key = faultKey(r.do);
    const b = el('button', { 'data-fault': r.do, 'data-testid': 'fault-' + r.do, 'data-i18n': key, 'data-i18n-title': key + 'Tip' });
    if (r.default_ms) b.dataset.i18nMs = String(r.default_ms);
    b.onclick = () => link.send('inject', { fault: fault(r) });
    $(r.target === 'client' ? 'client-faults' : 'node-faults').append(b);
  }
}

/** fault is the fault a row's button injects: at the chosen client, or at
 * the chosen node if the row applies to it (else the first that it does),
 * with the row's default amount. */
function fault(r) {
  const f = { do: r.do };
  if (r.target === 'client') f.client = $('fault-client').value;
  else {
    const nodes = faultNodes(state, r.applies);
    f.node = nodes.includes($('fault-node').value) ? $('fault-node').value : nodes[0];
  }
  if (r.default_ms) f[r.field] = amount(r.default_ms, 'en');
  return f;
}

/** renderControls sets the controls from the snapshot: the cursor's step,
 * event count and time, the scrubber's length, what can be pressed, and
 * the faults that apply. */
export function renderControls() {
  const st = state, snap = st.snap;
  $('presenter').setAttribute('aria-pressed', String(st.presenter));
  $('time-scale').setAttribute('aria-pressed', String(st.timeScale));
  $('lang').textContent = langName(nextLang(st.lang));
  if (!snap) return;
  if (document.activeElement !== $('seed')) $('seed').value = String(snap.seed);
  $('scrubber').max = String(st.endStep ?? st.maxStep + 10);
  if (!scrubbing) $('scrubber').value = String(snap.step);
  $('cursor').textContent = `${fill('cursorStep', st.lang, { step: snap.step })}${st.endStep != null ? ' / ' + st.endStep : ''} · ${fill('eventsCount', st.lang, { n: st.model.events.length })} · ${fmtTime(snap.t, 3)}`;
  $('play').querySelector('[data-i18n]').dataset.i18n = snap.playing ? 'pause' : 'play';
  $('play').setAttribute('aria-pressed', String(snap.playing));
  $('step').disabled = $('end').disabled = snap.ended;
  $('back').disabled = snap.step === 0;
  renderTargets($('fault-client'), snap.clients);
  renderTargets($('fault-node'), snap.nodes.map((n) => n.name));
  renderFaults(st, $);
}
