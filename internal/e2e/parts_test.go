package e2e

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/lockstep/lockstep/internal/server"
)

// partsYAML is a run of many steps: four clients that never release,
// retrying every millisecond (issue 36's seeks).
const partsYAML = `scenarios:
  - id: parts
    title: {en: four clients retrying}
    horizon: 10m
    clients:
      - {name: A, algorithm: setnx-no-expiry, params: {retry: 1ms}, requests: 1000, work: 1ms}
      - {name: B, algorithm: setnx-no-expiry, params: {retry: 1ms}, requests: 1000, work: 1ms}
      - {name: C, algorithm: setnx-no-expiry, params: {retry: 1ms}, requests: 1000, work: 1ms}
      - {name: D, algorithm: setnx-no-expiry, params: {retry: 1ms}, requests: 1000, work: 1ms}
`

// TestBrowserLongStateInParts: a long seek's state comes in parts
// (docs/protocol.md, version 4), and the page holds the run it would hold
// from one message: every event, in order, once, drawn at the last part.
// Argued before the run: seek 3,000 holds about 3,000 events (three parts
// of 1,024); back to 100 and forward again sends the events after 100 in
// parts from there; the page reloaded on its session gets them all from 0
// in parts. Each time the page's log is the run's (snap.events), its seqs in
// order with none twice or missing.
// Without the page's join, the first part (no snapshot) threw in reduce.
func TestBrowserLongStateInParts(t *testing.T) {
	chromium(t)
	url := startServer(t, server.Options{})
	b := startBrowser(t)
	ctx := page(t, b, url)
	runFile(t, ctx, partsYAML, "parts")
	whole := func(what string, step int) {
		t.Helper()
		waitFor(t, ctx, what, fmt.Sprintf(`(s => s && s.step === %d)(lockstep.state.snap)`, step))
		got := eval[string](t, ctx, `(() => {
			const evs = lockstep.state.model.events, n = lockstep.state.snap.events;
			if (evs.length !== n) return 'the page holds ' + evs.length + ' events of ' + n;
			for (let i = 0; i < evs.length; i++) if (evs[i].seq !== evs[0].seq + i) return 'event ' + i + ' is seq ' + evs[i].seq;
			return '';
		})()`)
		if got != "" {
			t.Fatalf("%s: %s", what, got)
		}
	}
	seek := func(step int) {
		do(t, ctx, "seek", chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`lockstep.link.send('seek', {step: %d})`, step)))
	}
	seek(3000)
	whole("seek 3000", 3000)
	if n := eval[int](t, ctx, `lockstep.state.snap.events`); n <= 2048 {
		t.Fatalf("seek 3000: %d events, expected more than two parts' worth", n)
	}
	seek(100)
	whole("back to 100", 100)
	seek(3000)
	whole("forward to 3000 again", 3000)

	// The page reloaded on its session: the whole run from 0, in parts.
	do(t, ctx, "reload", chromedp.Reload())
	whole("reloaded", 3000)
}
