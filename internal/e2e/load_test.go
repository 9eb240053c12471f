package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/lockstep/lockstep/internal/server"
)

// layoutShift waits until the first lesson is drawn and a moment more,
// then sums the layout shifts the page made since it started loading (the
// cumulative layout shift of a load), listing the elements that moved.
const layoutShift = `new Promise(res => {
	const shifts = [];
	new PerformanceObserver(l => { for (const e of l.getEntries()) if (!e.hadRecentInput) shifts.push(e); }).observe({ type: 'layout-shift', buffered: true });
	const done = () => res({
		sum: shifts.reduce((a, e) => a + e.value, 0),
		moved: shifts.map(e => e.value.toFixed(4) + ': ' + (e.sources || []).map(s => s.node ? (s.node.id || s.node.className || s.node.nodeName) : '?').join(', ')),
		drawn: performance.getEntriesByName('lockstep-first-lesson').length,
	});
	const wait = () => performance.getEntriesByName('lockstep-first-lesson').length ? setTimeout(done, 500) : setTimeout(wait, 50);
	wait();
})`

// TestBrowserLoadsWithoutShift loads the page afresh on a laptop and on a
// phone, in English and (a stored choice) in 中文, and checks that nothing
// moves once drawn: the first lesson's title and text are in the page
// from the start, the main view appears whole when the lesson arrives,
// and the header does not reflow (nothing is drawn before the header and
// the lesson are parsed whole: on a busy machine a page parsed in parts
// drew the header's first buttons, which moved when the rest arrived). In 中文 (a choice stored in the browser,
// which the server does not see) the page starts in English and is
// translated as its script starts: the header's buttons, narrower or wider
// in Chinese, move the picker and the controls (about 0.02 on a laptop;
// on a phone they wrap differently, about 0.04: under Lighthouse's 0.1
// for good).
func TestBrowserLoadsWithoutShift(t *testing.T) {
	chromium(t)
	url := startServer(t, server.Options{})
	b := startBrowser(t)
	for _, c := range []struct {
		lang  string
		w, h  int64
		limit float64
	}{{"en", 1350, 940, 0.001}, {"en", 414, 896, 0.001}, {"zh", 1350, 940, 0.05}, {"zh", 414, 896, 0.05}} {
		t.Run(fmt.Sprintf("%s-%dx%d", c.lang, c.w, c.h), func(t *testing.T) {
			ctx := tab(t, b, true)
			probs := watch(t, ctx)
			do(t, ctx, "viewport", chromedp.EmulateViewport(c.w, c.h))
			if c.lang == "zh" {
				open(t, ctx, url)
				do(t, ctx, "choose 中文", chromedp.Evaluate[chromedp.Void](`localStorage.setItem('lockstep.lang', 'zh')`))
			}
			do(t, ctx, "load", chromedp.Navigate(url))
			var got struct {
				Sum   float64  `json:"sum"`
				Moved []string `json:"moved"`
				Drawn int      `json:"drawn"`
			}
			r, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]any](layoutShift, chromedp.EvalAwaitPromise))
			if err != nil {
				t.Fatal(err)
			}
			got.Sum, _ = r["sum"].(float64)
			if d, _ := r["drawn"].(float64); d != 1 {
				t.Errorf("the first lesson's mark (lockstep-first-lesson) was set %v times, want once", r["drawn"])
			}
			for _, m := range r["moved"].([]any) {
				got.Moved = append(got.Moved, fmt.Sprint(m))
			}
			if got.Sum > c.limit {
				t.Errorf("layout shift on load %.4f, want at most %.3f: %s", got.Sum, c.limit, strings.Join(got.Moved, "; "))
			}
			for _, p := range probs.take() {
				t.Errorf("page problem: %s", p)
			}
		})
	}
}
