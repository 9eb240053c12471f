package e2e

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/lockstep/lockstep/internal/server"
)

var (
	axeOnce sync.Once
	axeJS   string
	axeErr  error
)

// axeSource is axe-core (third_party/axe-core, a test asset).
func axeSource(t *testing.T) string {
	t.Helper()
	axeOnce.Do(func() {
		var b []byte
		b, axeErr = os.ReadFile(filepath.Join("..", "..", "third_party", "axe-core", "axe.min.js"))
		axeJS = string(b)
	})
	if axeErr != nil {
		t.Fatalf("axe-core: %v", axeErr)
	}
	return axeJS
}

// axeTab opens a tab whose pages axe-core can be injected into: the
// page's Content-Security-Policy (scripts from its own origin only) is
// bypassed in this tab, as the test's own, never the app's.
func axeTab(t *testing.T, browser context.Context) context.Context {
	t.Helper()
	return axeTabWithin(t, browser, 60*time.Second)
}

// axeTabWithin is axeTab with a time limit of its own (tabWithin).
func axeTabWithin(t *testing.T, browser context.Context, limit time.Duration) context.Context {
	t.Helper()
	ctx := tabWithin(t, browser, true, limit)
	if _, err := chromedp.Call(ctx, cdppage.SetBypassCSP, cdppage.SetBypassCSPParams{Enabled: true}); err != nil {
		t.Fatal(err)
	}
	return ctx
}

// audit runs axe-core on the page as it is and fails the test for every
// serious or critical finding, named with where it was found.
func audit(t *testing.T, ctx context.Context, where string) {
	t.Helper()
	if !eval[bool](t, ctx, `typeof window.axe === 'object'`) {
		do(t, ctx, "inject axe-core", chromedp.Evaluate[chromedp.Void](axeSource(t)))
	}
	found, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`axe.run(document, { resultTypes: ['violations'] }).then(r =>
		r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical').flatMap(v =>
			v.nodes.slice(0, 4).map(n => v.id + ' (' + v.impact + ') ' + n.target.join(' ') + ': ' + (n.failureSummary || '').split('\n').slice(1, 2).join('').trim()))
		)`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("axe-core %s: %v", where, err)
	}
	for _, f := range found {
		t.Errorf("axe-core, %s: %s", where, f)
	}
}

// TestBrowserAccessible runs axe-core (the WCAG 2 A and AA rules and its
// best practices) over the page in English and in 中文: on load, after a
// run to its verdict, with every panel open (the code, the chapters, the
// editor, the event detail; Side by side; the keyboard card), in a
// challenge, in Presenter mode and on a phone. No serious or critical
// finding may remain.
func TestBrowserAccessible(t *testing.T) {
	chromium(t)
	url := startServer(t, server.Options{})
	b := startBrowser(t)
	for _, lang := range []string{"en", "zh"} {
		t.Run(lang, func(t *testing.T) {
			ctx := axeTab(t, b)
			probs := watch(t, ctx)
			open(t, ctx, url)
			if lang == "zh" {
				click(t, ctx, "lang")
				waitFor(t, ctx, "中文", `document.documentElement.lang === 'zh-CN'`)
			}
			audit(t, ctx, "on load")

			load(t, ctx, "blind-del-long-work")
			click(t, ctx, "end")
			waitFor(t, ctx, "the verdict", `lockstep.state.snap.ended && document.querySelectorAll('[data-testid=verdict] .v').length > 0`)
			audit(t, ctx, "after a run")

			// Every panel of the main view open at once: the code (shown by
			// default), the chapters, the detail of a selected event, the
			// editor.
			do(t, ctx, "select a row", chromedp.Evaluate[chromedp.Void](`[...document.querySelectorAll('[data-testid=event]')].find(li => li.dataset.kind === 'send').click()`))
			do(t, ctx, "open the editor", chromedp.Evaluate[chromedp.Void](`document.getElementById('editor-panel').open = true`))
			waitFor(t, ctx, "the panels", `!!document.querySelector('[data-testid=event-detail]').dataset.seq && !document.getElementById('chapters-panel').hidden`)
			audit(t, ctx, "with the detail, the chapters and the editor open")
			do(t, ctx, "close the editor", chromedp.Evaluate[chromedp.Void](`document.getElementById('editor-panel').open = false`))
			waitFor(t, ctx, "the code", `!!document.querySelector('[data-testid=code] .code-pane')`)
			audit(t, ctx, "with the code and a selection")

			click(t, ctx, "help")
			waitFor(t, ctx, "the keyboard card", `!document.getElementById('help').hidden`)
			audit(t, ctx, "with the keyboard card open")
			do(t, ctx, "close it", chromedp.KeyEvent("\u001b"))

			load(t, ctx, "blind-del-slow-release") // a lesson with a canonical pair
			click(t, ctx, "compare-open")
			waitFor(t, ctx, "both sides", `document.querySelectorAll('[data-testid^=compare-verdict-] .v').length >= 2`)
			audit(t, ctx, "with Side by side open")
			// Side by side and the editor open together (the case that once
			// gave 42 findings).
			do(t, ctx, "open the editor", chromedp.Evaluate[chromedp.Void](`document.getElementById('editor-panel').open = true`))
			audit(t, ctx, "with Side by side and the editor open")
			do(t, ctx, "close the editor", chromedp.Evaluate[chromedp.Void](`document.getElementById('editor-panel').open = false`))
			click(t, ctx, "compare-close")

			load(t, ctx, "no-lock-oversell")
			click(t, ctx, "challenge-take")
			waitFor(t, ctx, "the challenge", `(c => c && c.active)(lockstep.state.snap.challenge)`)
			for i := 0; i < 16 && !eval[bool](t, ctx, `lockstep.state.snap.ended || lockstep.state.snap.challenge.progress.over || lockstep.state.snap.challenge.progress.won`); i++ {
				step(t, ctx)
			}
			waitFor(t, ctx, "the debrief", `!!document.querySelector('[data-testid=challenge-debrief]')`)
			audit(t, ctx, "in a challenge, with its debrief")

			do(t, ctx, "presenter", chromedp.KeyEvent("f"))
			waitFor(t, ctx, "presenter", `document.body.classList.contains('presenter')`)
			audit(t, ctx, "in Presenter mode")
			do(t, ctx, "presenter off", chromedp.KeyEvent("f"))

			do(t, ctx, "a phone", chromedp.EmulateViewport(414, 896))
			load(t, ctx, "redlock-split-vote")
			step(t, ctx)
			audit(t, ctx, "on a phone")
			for _, p := range probs.take() {
				t.Errorf("page problem: %s", p)
			}
		})
	}
}
