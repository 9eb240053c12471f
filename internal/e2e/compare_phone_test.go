package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/lockstep/lockstep/internal/server"
)

// Side by side on a 414×896 phone. Drawn: each side is about 185 px wide;
// the node's name was "■…" (centred on its narrow lane, between the
// clients' names) and the two timelines a strip of 160 px with the page
// white below. Now the node's name is whole on the lane strip's second
// line and the timelines take most of the screen's height. As text: the
// two columns of a few words wrapped every command over three lines; a
// row the same on both sides is now one cell across both, and a row that
// differs (the first difference, row 33: A's GET against its script)
// keeps its two cells.
func TestBrowserPhoneSideBySide(t *testing.T) {
	chromium(t)
	url := startServer(t, server.Options{})
	ctx := page(t, startBrowser(t), url)
	do(t, ctx, "a phone", chromedp.EmulateViewport(414, 896))
	waitFor(t, ctx, "the phone's layout", `window.innerWidth === 414`)
	load(t, ctx, "owner-check-expire-between")
	click(t, ctx, "compare-open")
	waitFor(t, ctx, "the drawn sides' lane names", `document.querySelectorAll('.sbs-lanes .lane.node').length === 2`)
	for _, node := range eval[[]map[string]any](t, ctx, `[...document.querySelectorAll('.sbs-lanes .lane.node')].map((e) => ({text: e.textContent, cut: e.scrollWidth > e.clientWidth + 1}))`) {
		if node["text"] != "redis" || node["cut"] != false {
			t.Errorf("a node's lane name on a phone should be whole: got %v", node)
		}
	}
	if h := eval[float64](t, ctx, `document.querySelector('.sbs-stage').getBoundingClientRect().height`); h < 0.5*896 {
		t.Errorf("the drawn timelines should take most of the phone's height: %.0f px of 896", h)
	}
	shot(t, ctx, artifacts(t), "phone-side-by-side")
	click(t, ctx, "compare-text")
	waitFor(t, ctx, "the divergence row", `!!document.querySelector('[data-testid=compare-divergence]')`)
	got := eval[map[string]float64](t, ctx, `(() => {
		const rows = [...document.querySelectorAll('.cmp-table tbody tr')];
		const both = rows.filter((r) => r.querySelector('td.both'));
		const d = document.querySelector('[data-testid=compare-divergence]');
		return {rows: rows.length, both: both.length, divergeCells: d.querySelectorAll('td.cmp-cell').length,
			maxLines: Math.max(...both.map((r) => r.querySelector('td.both').getBoundingClientRect().height)) / parseFloat(getComputedStyle(both[0].querySelector('td.both')).fontSize)};
	})()`)
	if got["both"] < got["rows"]/2 || got["divergeCells"] != 2 {
		t.Errorf("rows the same on both sides should be one cell, the first difference two: %v", got)
	}
	// a shared row's command fits in at most three lines of its type
	// (most in one): at 1.35 em a line, 3 lines are about 4 em
	if got["maxLines"] > 4.5 {
		t.Errorf("a shared row should not wrap over more than three lines: %v", got)
	}
}
