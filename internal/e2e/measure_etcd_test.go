package e2e

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestMeasureEtcdFirstDraw measures, against a server already running at
// LOCKSTEP_URL (scripts/etcd-first-draw.sh starts one), how long the page
// takes to open, to show an etcd lesson, and to draw its first event
// after the first step: the embedded etcd starts then, on first use. It
// prints the moments as Unix milliseconds for the script. Skipped
// without LOCKSTEP_URL.
func TestMeasureEtcdFirstDraw(t *testing.T) {
	url := os.Getenv("LOCKSTEP_URL")
	if url == "" {
		t.Skip("LOCKSTEP_URL is not set: run scripts/etcd-first-draw.sh")
	}
	chromium(t)
	ctx := tab(t, startBrowser(t), true)
	do(t, ctx, "open a blank tab", chromedp.Navigate("about:blank")) // the tab's own start is not the page's
	opened := time.Now()
	open(t, ctx, url)
	paged := time.Now()
	load(t, ctx, "etcd-two-workers")
	loaded := time.Now()
	step(t, ctx)
	waitFor(t, ctx, "the first etcd event drawn", `!!document.querySelector('[data-testid=event]') && lockstep.state.snap.live && !!lockstep.state.snap.live.server`)
	drawn := time.Now()
	fmt.Printf("opened %d paged %d loaded %d drawn %d\n", opened.UnixMilli(), paged.UnixMilli(), loaded.UnixMilli(), drawn.UnixMilli())
}
