package e2e

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/lockstep/lockstep/internal/server"
)

// onScreen is true when the element with a data-testid is drawn and wholly
// inside the viewport.
func onScreen(testid string) string {
	return fmt.Sprintf(`(el => !!el && !!el.offsetParent && (r => r.height > 0 && r.top >= 0 && r.bottom <= innerHeight)(el.getBoundingClientRect()))(document.querySelector('[data-testid=%q]'))`, testid)
}

// swipe drags one finger across the timeline by dx pixels, as a thumb does.
func swipe(t *testing.T, ctx context.Context, dx float64) {
	t.Helper()
	// over the part of the timeline on screen, below the step bar
	y := eval[float64](t, ctx, `(() => {
		const r = document.querySelector('.tl-wrap').getBoundingClientRect(), bar = document.querySelector('.controls').getBoundingClientRect().bottom;
		const top = Math.max(r.top, bar), bottom = Math.min(r.bottom, innerHeight * 0.7);
		return bottom > top + 40 ? (top + bottom) / 2 : -1;
	})()`)
	if y < 0 {
		t.Fatal("swipe: no part of the timeline is on screen to swipe")
	}
	x0 := 300.0
	if dx > 0 {
		x0 = 120
	}
	for _, ev := range []input.DispatchTouchEventParams{
		{Type: input.DispatchTouchEventTypeTouchStart, TouchPoints: []*input.TouchPoint{{X: x0, Y: y}}},
		{Type: input.DispatchTouchEventTypeTouchMove, TouchPoints: []*input.TouchPoint{{X: x0 + dx/2, Y: y + 4}}},
		{Type: input.DispatchTouchEventTypeTouchMove, TouchPoints: []*input.TouchPoint{{X: x0 + dx, Y: y + 6}}},
		{Type: input.DispatchTouchEventTypeTouchEnd, TouchPoints: []*input.TouchPoint{}},
	} {
		if _, err := chromedp.Call(ctx, input.DispatchTouchEvent, ev); err != nil {
			t.Fatalf("swipe %+.0f: %v", dx, err)
		}
	}
}

// A student alone on a 414×896 phone steps a lesson twenty times, by
// tapping Step and by swiping the timeline sideways, and scrolls the
// timeline down on the way: the step bar and what is happening stay on
// screen all along (they were 1,600 px apart). A tapped row's detail shows
// where the thumb is, until the next step brings the story back; in 中文
// the dock reads in 中文.
func TestBrowserPhone(t *testing.T) {
	chromium(t)
	url := startServer(t, server.Options{})
	b := startBrowser(t)
	dir := artifacts(t)
	ctx := tab(t, b, true)
	do(t, ctx, "a phone", chromedp.EmulateViewport(414, 896, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(2)))
	open(t, ctx, url)
	load(t, ctx, "blind-del-long-work")
	for i := 1; i <= 20; i++ {
		if i%2 == 0 {
			swipe(t, ctx, -160)
		} else {
			click(t, ctx, "step")
		}
		waitFor(t, ctx, fmt.Sprintf("step %d", i), fmt.Sprintf(`lockstep.state.snap.step === %d`, i))
		if i == 10 {
			do(t, ctx, "scroll down the page", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 400)`))
			waitFor(t, ctx, "the page scrolled", `window.scrollY > 300`)
		}
		if !eval[bool](t, ctx, onScreen("step")) || !eval[bool](t, ctx, onScreen("narration")) {
			shot(t, ctx, dir, "phone-lost")
			t.Fatalf("step %d: the step bar (%v) or what is happening (%v) left the screen", i, eval[bool](t, ctx, onScreen("step")), eval[bool](t, ctx, onScreen("narration")))
		}
		if eval[string](t, ctx, `document.querySelector('[data-testid=narration]').textContent.trim()`) == "" {
			t.Fatalf("step %d: what is happening is empty", i)
		}
	}
	shot(t, ctx, dir, "phone-step-20")
	swipe(t, ctx, 160)
	waitFor(t, ctx, "a swipe to the right steps back", `lockstep.state.snap.step === 19`)

	// A tapped row: its detail in the dock, the story back on the next step.
	do(t, ctx, "tap a row", chromedp.Evaluate[chromedp.Void](`[...document.querySelectorAll('[data-testid=event]')].find(li => li.dataset.kind === 'exec').click()`))
	waitFor(t, ctx, "the detail where the thumb is", onScreen("event-detail")+` && !!document.querySelector('[data-testid=event-detail]').dataset.seq`)
	shot(t, ctx, dir, "phone-detail")
	click(t, ctx, "step")
	waitFor(t, ctx, "the story back", onScreen("narration")+` && lockstep.state.snap.step === 20`)

	click(t, ctx, "lang")
	waitFor(t, ctx, "中文", `document.getElementById('timeline').dataset.lang === 'zh'`)
	click(t, ctx, "step")
	waitFor(t, ctx, "step 21 in 中文", `lockstep.state.snap.step === 21 && /[\u4e00-\u9fff]/.test(document.querySelector('[data-testid=narration]').textContent)`)
	if !eval[bool](t, ctx, onScreen("step")) || !eval[bool](t, ctx, onScreen("narration")) {
		t.Errorf("in 中文 the step bar or what is happening left the screen")
	}
	shot(t, ctx, dir, "phone-zh")
}

// On a phone, a dialog (joining a class, the keys) covers the step bar
// and the docked narration, which stay on screen above the page: a tap
// on the step bar while the dialog is open lands on the dialog's
// backdrop, never on Step.
func TestBrowserPhoneDialogCoversTheStepBar(t *testing.T) {
	chromium(t)
	url := startServer(t, server.Options{})
	b := startBrowser(t)
	ctx := tab(t, b, true)
	do(t, ctx, "a phone", chromedp.EmulateViewport(414, 896, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(2)))
	open(t, ctx, url)
	load(t, ctx, "no-lock-oversell")
	do(t, ctx, "scroll down the page", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 400)`))
	waitFor(t, ctx, "the step bar stuck at the top", `window.scrollY > 300 && document.querySelector('[data-testid=step]').getBoundingClientRect().top < 120`)
	click(t, ctx, "join-class")
	waitFor(t, ctx, "the join dialog", `!document.querySelector('[data-testid=join-dialog]').hidden`)
	// What a finger finds at the middle of Step and of what is happening.
	hit := func(id string) string {
		return eval[string](t, ctx, fmt.Sprintf(`(() => {
			const r = document.querySelector('[data-testid=%s]').getBoundingClientRect();
			const e = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
			return e.closest('[data-testid=join-dialog]') ? 'dialog' : (e.dataset.testid || e.tagName);
		})()`, id))
	}
	for _, id := range []string{"step", "narration"} {
		if got := hit(id); got != "dialog" {
			shot(t, ctx, artifacts(t), "phone-dialog-"+id)
			t.Errorf("with the join dialog open, a tap on %s lands on %q, not the dialog", id, got)
		}
	}
}
