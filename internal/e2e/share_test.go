package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/lockstep/lockstep/internal/server"
)

// viewOf is what a share link must reproduce, read off the page: the
// run (scenario, seed, cursor, the event log), the language drawn, the
// scale, the selected event and the detail panel's event, Side by side
// (open, its choice, its verdicts) and a search's result (the panel's
// verdict and the marked events).
const viewOf = `JSON.stringify({
	scenario: lockstep.state.snap.scenario, seed: lockstep.state.snap.seed, step: lockstep.state.snap.step,
	ended: lockstep.state.snap.ended, endStep: lockstep.state.endStep ?? null,
	log: lockstep.state.model.events.map(e => e.text).join('\n'),
	lang: document.documentElement.lang, drawn: document.getElementById('timeline').dataset.lang,
	scale: document.getElementById('timeline').dataset.scale,
	selected: lockstep.state.selected, detail: document.querySelector('[data-testid=event-detail]').dataset.seq || '',
	compare: !document.querySelector('[data-testid=compare]').hidden,
	with: document.querySelector('[data-testid=compare-with]').value,
	compareVerdicts: [...document.querySelectorAll('[data-testid^=compare-verdict-] .v')].map(v => v.dataset.name).join(','),
	found: document.querySelector('[data-testid=explore-status]').dataset.verdict || '',
	foundText: document.querySelector('[data-testid=explore-status]').textContent,
	marks: lockstep.state.model.events.filter(e => lockstep.state.highlight.has(e.seq) && e.kind === 'fault').map(e => e.seq).join(','),
})`

// TestBrowserShare opens share links in a fresh browser (no storage of
// its own, English by default) and checks that each reproduces the view it
// was copied from: a lesson stepped by hand, in 中文, on the time scale,
// with an event selected and Side by side open on a chosen algorithm; and a
// run found by "Find a bad schedule", which the server holds as a scenario
// of its own (the link carries its YAML). A first visit from a browser set
// to Chinese opens in 中文.
func TestBrowserShare(t *testing.T) {
	chromium(t)
	url := startServer(t, server.Options{})
	b := startBrowser(t)
	dir := artifacts(t)

	// copyLink waits for the waited-for view to be drawn, then reads the link.
	copyLink := func(t *testing.T, ctx chromedpCtx) (link, view string) {
		t.Helper()
		do(t, ctx, "render", chromedp.Evaluate[chromedp.Void](`document.querySelector('[data-testid=share-link]').click()`))
		link = eval[string](t, ctx, `document.querySelector('[data-testid=share-link]').href`)
		if !strings.Contains(link, "#run=") {
			t.Fatalf("share link: expected a #run= hash, got %q", link)
		}
		return link, eval[string](t, ctx, viewOf)
	}
	reopen := func(t *testing.T, link, want, ready string) chromedpCtx {
		t.Helper()
		ctx := page(t, b, link)
		waitFor(t, ctx, "the shared view", ready)
		if got := eval[string](t, ctx, viewOf); got != want {
			t.Errorf("the shared view differs from the one copied\nwant %s\ngot  %s", want, got)
		}
		if h := eval[string](t, ctx, `location.hash`); h != "" {
			t.Errorf("after loading a share link the hash should be cleared, got %q", h)
		}
		return ctx
	}

	t.Run("lesson-view", func(t *testing.T) {
		ctx := page(t, b, url)
		load(t, ctx, "blind-del-slow-release")
		for i := 0; i < 4; i++ {
			step(t, ctx)
		}
		waitFor(t, ctx, "B can move", `lockstep.state.pending.includes('B')`)
		click(t, ctx, "move-B")
		waitFor(t, ctx, "B's move recorded", `lockstep.state.snap.actions.length === 1`)
		step(t, ctx)
		click(t, ctx, "lang")
		click(t, ctx, "time-scale")
		do(t, ctx, "select an event", chromedp.Evaluate[chromedp.Void](`(li => li.click())([...document.querySelectorAll('[data-testid=event]')].find(li => li.dataset.kind === 'send'))`))
		waitFor(t, ctx, "the detail", `!!document.querySelector('[data-testid=event-detail]').dataset.seq`)
		click(t, ctx, "compare-open")
		waitFor(t, ctx, "the canonical pair", `document.querySelectorAll('[data-testid^=compare-verdict-] .v').length >= 2`)
		// another algorithm than the canonical pair's
		alt := eval[string](t, ctx, `[...document.querySelector('[data-testid=compare-with]').options].map(o => o.value).find(v => v && v !== document.querySelector('[data-testid=compare-with]').value) || ''`)
		if alt == "" {
			t.Fatal("Side by side offers no other choice")
		}
		choose(t, ctx, "compare-with", alt)
		click(t, ctx, "compare-go")
		waitFor(t, ctx, "the comparison with "+alt, fmt.Sprintf(`lockstep.state && document.querySelector('[data-testid=compare-with]').value === %q && document.querySelectorAll('[data-testid^=compare-verdict-] .v').length >= 2 && !/…|\.\.\./.test(document.querySelector('[data-testid=compare-status]').textContent)`, alt))
		waitFor(t, ctx, "drawn in 中文 on the time scale", `document.getElementById('timeline').dataset.lang === 'zh' && document.getElementById('timeline').dataset.scale === 'time'`)
		// Side by side covers the side panel's link: its bar has its own.
		if !eval[bool](t, ctx, `(b => !!b.offsetParent && (r => r.bottom > 0 && r.top < innerHeight)(b.getBoundingClientRect()))(document.querySelector('[data-testid=compare-share]'))`) {
			t.Errorf("Side by side open: no Copy link in view")
		}
		do(t, ctx, "reset the link", chromedp.Evaluate[chromedp.Void](`document.querySelector('[data-testid=share-link]').href = '#'`))
		click(t, ctx, "compare-share")
		if got := eval[string](t, ctx, `document.querySelector('[data-testid=share-link]').href`); !strings.Contains(got, "#run=") {
			t.Errorf("Side by side's Copy link made no link: %q", got)
		}
		link, want := copyLink(t, ctx)
		if !strings.Contains(want, `"lang":"zh-CN"`) || !strings.Contains(want, `"scale":"time"`) || !strings.Contains(want, `"compare":true`) {
			t.Fatalf("the view to share is not the one set up: %s", want)
		}
		got := reopen(t, link, want, fmt.Sprintf(`lockstep.state.snap && lockstep.state.snap.step === %d && document.getElementById('timeline').dataset.lang === 'zh' && document.querySelectorAll('[data-testid^=compare-verdict-] .v').length >= 2 && !!document.querySelector('[data-testid=event-detail]').dataset.seq`,
			eval[int](t, ctx, `lockstep.state.snap.step`)))
		shot(t, got, dir, "share-lesson-view")
	})

	t.Run("found-run", func(t *testing.T) {
		ctx := page(t, b, url)
		load(t, ctx, "blind-del-slow-release")
		choose(t, ctx, "explore-budget", "pause:5s")
		click(t, ctx, "explore-go")
		waitFor(t, ctx, "the found run", `document.querySelector('[data-testid=explore-status]').dataset.verdict === 'mutual-exclusion' && lockstep.state.snap.ended && lockstep.state.snap.scenario === 'blind-del-slow-release-explored'`)
		// back a few steps: the link carries the cursor too
		do(t, ctx, "seek", chromedp.Evaluate[chromedp.Void](`lockstep.link.send('seek', {step: lockstep.state.snap.step - 3})`))
		waitFor(t, ctx, "the cursor", `!lockstep.state.snap.ended`)
		link, want := copyLink(t, ctx)
		if !strings.Contains(want, `"marks":"`) || strings.Contains(want, `"marks":""`) {
			t.Fatalf("the found run shows no marked fault: %s", want)
		}
		got := reopen(t, link, want, `lockstep.state.snap && lockstep.state.snap.scenario === 'blind-del-slow-release-explored' && !!document.querySelector('[data-testid=explore-status]').dataset.verdict`)
		if e := eval[string](t, got, `(e => e ? e.textContent : '')(document.querySelector('[data-testid=error]'))`); e != "" {
			t.Errorf("the found run's link shows an error: %q", e)
		}
		// The run is the page's own scenario now: picking it again reloads it.
		do(t, got, "to the end", chromedp.Evaluate[chromedp.Void](`document.querySelector('[data-testid=end]').click()`))
		waitFor(t, got, "the violation", `lockstep.state.snap.ended && lockstep.state.snap.verdicts.includes('mutual-exclusion')`)
		shot(t, got, dir, "share-found-run")
	})

	// A found run shared at its end opens at its end: run over, the same
	// last step, Step disabled (it once opened at step 111 of 121).
	t.Run("found-run-at-its-end", func(t *testing.T) {
		ctx := page(t, b, url)
		load(t, ctx, "blind-del-slow-release")
		choose(t, ctx, "explore-budget", "pause:5s")
		click(t, ctx, "explore-go")
		waitFor(t, ctx, "the found run", `document.querySelector('[data-testid=explore-status]').dataset.verdict === 'mutual-exclusion' && lockstep.state.snap.ended && lockstep.state.snap.scenario === 'blind-del-slow-release-explored'`)
		link, want := copyLink(t, ctx)
		if !strings.Contains(want, `"ended":true`) {
			t.Fatalf("the found run is not at its end: %s", want)
		}
		got := reopen(t, link, want, `lockstep.state.snap && lockstep.state.snap.scenario === 'blind-del-slow-release-explored' && !!document.querySelector('[data-testid=explore-status]').dataset.verdict`)
		if !eval[bool](t, got, `document.querySelector('[data-testid=step]').disabled`) {
			t.Errorf("the shared run at its end offers Step")
		}
	})

	// A user's own file travels in the link: opened in a fresh browser,
	// which has never seen it, the same file runs to the same step, with
	// the same hand move and the same verdicts.
	t.Run("own-file", func(t *testing.T) {
		const own = `scenarios:
  - id: our-shop
    title: {en: "Our shop: two buyers, no lock", zh: "我们的店：两个买家，不加锁"}
    data: {stock: "3"}
    clients:
      - {name: ann, algorithm: no-lock, requests: 2}
      - {name: bo, algorithm: no-lock, requests: 2}
`
		ctx := page(t, b, url)
		runFile(t, ctx, own, "our-shop")
		do(t, ctx, "close the editor", chromedp.Evaluate[chromedp.Void](`document.getElementById('editor-panel').open = false`))
		step(t, ctx)
		waitFor(t, ctx, "bo can move", `lockstep.state.pending.includes('bo')`)
		click(t, ctx, "move-bo")
		waitFor(t, ctx, "bo's move recorded", `lockstep.state.snap.actions.length === 1`)
		step(t, ctx)
		step(t, ctx)
		link, want := copyLink(t, ctx)
		step := eval[int](t, ctx, `lockstep.state.snap.step`)
		got := reopen(t, link, want, fmt.Sprintf(`lockstep.state.snap && lockstep.state.snap.scenario === 'our-shop' && lockstep.state.snap.step === %d`, step))
		if n := eval[int](t, got, `lockstep.state.snap.actions.length`); n != 1 {
			t.Errorf("the reopened run holds %d hand moves, want bo's one", n)
		}
		if e := eval[string](t, got, `(e => e ? e.textContent : '')(document.querySelector('[data-testid=error]'))`); e != "" {
			t.Errorf("the own file's link shows an error: %q", e)
		}
		// The file has no lesson paragraph: off its script, there is no plan
		// to mark as the lesson's.
		if eval[bool](t, got, `!document.getElementById('lesson-plan').hidden`) {
			t.Errorf("a file without a lesson paragraph shows %q", eval[string](t, got, `document.getElementById('lesson-plan').textContent`))
		}
		shot(t, got, dir, "share-own-file")
	})

	t.Run("first-visit-follows-the-browser", func(t *testing.T) {
		for _, c := range []struct{ accept, want string }{{"zh-CN,zh;q=0.9,en;q=0.8", "zh"}, {"fr-FR,zh-TW;q=0.8", "zh"}, {"en-GB,zh-CN;q=0.5", "en"}, {"de-DE", "en"}} {
			ctx := tab(t, b, true)
			probs := watch(t, ctx)
			if _, err := chromedp.Call(ctx, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{
				UserAgent: "Mozilla/5.0 (X11; Linux x86_64) Chrome/156", AcceptLanguage: c.accept}); err != nil {
				t.Fatal(err)
			}
			open(t, ctx, url)
			waitFor(t, ctx, "drawn", `!!document.getElementById('timeline').dataset.lang`)
			if got := eval[string](t, ctx, `lockstep.state.lang`); got != c.want {
				t.Errorf("browser languages %s: the page opened in %q, want %q", c.accept, got, c.want)
			}
			if c.want == "zh" && !strings.Contains(text(t, ctx, "step"), "下一步") {
				t.Errorf("browser languages %s: the Step button reads %q", c.accept, text(t, ctx, "step"))
			}
			// A choice made on the page wins on the next visit.
			click(t, ctx, "lang")
			do(t, ctx, "reload", chromedp.Reload())
			waitFor(t, ctx, "reloaded", `!!(window.lockstep && lockstep.state.snap)`)
			if got := eval[string](t, ctx, `lockstep.state.lang`); got == c.want {
				t.Errorf("browser languages %s: after choosing the other language and reloading, the page is back in %q", c.accept, got)
			}
			for _, p := range probs.take() {
				t.Errorf("%s", p)
			}
		}
	})
}
