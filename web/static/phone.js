// The page on a phone: a sideways swipe over the timeline steps, the
// bottom dock shows the tapped row's detail until the next step, and what
// is scrolled into view stops below the step bar, not under it (app.css).

const $ = (id) => document.getElementById(id);

/** initPhone lets a swipe over the timeline step and keeps the step bar's
 * height in --step-bar, for the phone's scroll padding. */
export function initPhone() {
  swipeToStep(document.querySelector('.tl-wrap'));
  const stepBar = document.querySelector('.controls');
  new ResizeObserver(() => document.documentElement.style.setProperty('--step-bar', stepBar.offsetHeight + 8 + 'px')).observe(stepBar);
}

let lastSel = null, selAt = -1; // the selected event, and the step it was chosen at

/** dockDetail: on a phone the bottom dock shows the tapped row's detail
 * until the next step, then what is happening again (app.css). */
export function dockDetail(st) {
  if (st.selected !== lastSel) {
    lastSel = st.selected;
    selAt = st.snap ? st.snap.step : -1;
  }
  document.body.classList.toggle('dock-detail', st.selected != null && !!st.snap && st.snap.step === selAt);
}

/** swipeToStep steps on a sideways swipe over el: to the left the next
 * step, to the right the one before; a swipe that is more up than across
 * scrolls, as before. */
function swipeToStep(el) {
  let x0 = null, y0 = 0;
  el.addEventListener('touchstart', (e) => {
    if (e.touches.length !== 1) { x0 = null; return; }
    x0 = e.touches[0].clientX;
    y0 = e.touches[0].clientY;
  }, { passive: true });
  el.addEventListener('touchend', (e) => {
    if (x0 == null || !e.changedTouches.length) return;
    const p = e.changedTouches[0], dx = p.clientX - x0, dy = p.clientY - y0;
    x0 = null;
    if (Math.abs(dx) < 60 || Math.abs(dy) > Math.abs(dx) / 2) return;
    $(dx < 0 ? 'step' : 'back').click();
  });
}
