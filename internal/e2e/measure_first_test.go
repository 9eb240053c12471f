package e2e

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestMeasureFirstLesson measures, against a server already running at
// LOCKSTEP_URL (scripts/first-lesson.sh starts one), the page's first
// lesson drawn on a cold load: the page's own lockstep-first-lesson mark,
// in ms from the navigation's start, in a fresh browser context each time
// (no cache, no storage), five times. Then a class: a student joins at
// step 0 and the teacher steps six times; for each step, the ms from the
// teacher's step request to the student's page at that step (polled
// every 5 ms). It prints one line per figure for the script. Skipped
// without LOCKSTEP_URL.
func TestMeasureFirstLesson(t *testing.T) {
	url := os.Getenv("LOCKSTEP_URL")
	if url == "" {
		t.Skip("LOCKSTEP_URL is not set: run scripts/first-lesson.sh")
	}
	chromium(t)
	b := startBrowser(t)
	for i := 0; i < 5; i++ {
		ctx := tab(t, b, true)
		do(t, ctx, "a laptop's screen", chromedp.EmulateViewport(1400, 900))
		do(t, ctx, "open a blank tab", chromedp.Navigate("about:blank")) // the tab's own start is not the page's
		do(t, ctx, "open the page", chromedp.Navigate(url))
		waitFor(t, ctx, "the first lesson drawn", `performance.getEntriesByName('lockstep-first-lesson').length > 0`)
		ms := eval[float64](t, ctx, `performance.getEntriesByName('lockstep-first-lesson')[0].startTime`)
		fmt.Printf("first-lesson %d %.0f\n", i+1, ms)
	}
	teacher := tab(t, b, true)
	open(t, teacher, url)
	load(t, teacher, "blind-del-slow-release")
	click(t, teacher, "start-class")
	waitFor(t, teacher, "the class's code", `!!document.querySelector('[data-testid=class-code]')`)
	code := text(t, teacher, "class-code")
	clickJS(t, teacher, ".class-big button")
	student := tab(t, b, true)
	open(t, student, url)
	joinClass(t, student, code, "Ann")
	waitFor(t, student, "at the teacher's step 0", `lockstep.state.snap.scenario === 'blind-del-slow-release' && lockstep.state.snap.step === 0`)
	// Each page notes, in ms since the epoch (both tabs share the
	// machine's clock), when the teacher sends a step and when the
	// student's socket hands over a message, her page has handled it, and
	// the frame after it is painted.
	do(t, student, "note the student's messages", chromedp.Evaluate[chromedp.Void](`(() => {
		const now = () => performance.timeOrigin + performance.now();
		const l = lockstep.link, f = l.onMessage.bind(l);
		window.__got = [];
		l.onMessage = (m) => {
			const at = now();
			f(m);
			const e = { type: m.type, step: m.snap ? m.snap.step : -1, at, handled: now() };
			window.__got.push(e);
			requestAnimationFrame(() => { e.frame = now(); });
		};
	})()`))
	for n := 1; n <= 6; n++ {
		sent := eval[float64](t, teacher, `(() => { const at = performance.timeOrigin + performance.now(); lockstep.link.send('step'); return at; })()`)
		waitFor(t, student, fmt.Sprintf("step %d", n), fmt.Sprintf(`window.__got.some(e => e.step === %d && e.frame)`, n))
		got := eval[[]map[string]any](t, student, `window.__got.splice(0)`)
		for _, e := range got {
			ms := func(k string) float64 { v, _ := e[k].(float64); return v - sent }
			fmt.Printf("class-msg %d %v step=%v arrived=%.1f handled=%.1f frame=%.1f\n", n, e["type"], e["step"], ms("at"), ms("handled"), ms("frame"))
		}
		time.Sleep(300 * time.Millisecond)
	}
}
