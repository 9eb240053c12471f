package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/lockstep/lockstep/internal/server"
)

// "Find a bad schedule" on the blind DEL lesson with a pause budget: the
// server finds the flaw and the page shows the shrunk run at its end, with
// the search's moves as the run's actions and the result in the panel.
func TestBrowserFindABadSchedule(t *testing.T) {
	chromium(t)
	url := startServer(t, server.Options{})
	ctx := tab(t, startBrowser(t), true)
	open(t, ctx, url)
	load(t, ctx, "blind-del-slow-release")
	do(t, ctx, "type a budget", chromedp.SetValue(chromedp.CSS(`[data-testid=explore-budget]`), "pause:5s"))
	click(t, ctx, "explore-go")
	waitFor(t, ctx, "the search's result", `document.querySelector('[data-testid=explore-status]').dataset.verdict === 'mutual-exclusion'`)
	waitFor(t, ctx, "the shrunk run", `lockstep.state.snap.ended && lockstep.state.snap.actions.length > 0 && lockstep.state.snap.verdicts.includes('mutual-exclusion')`)
	if got := text(t, ctx, "explore-status"); got == "" {
		t.Errorf("the panel says nothing about the result")
	}
	if eval[bool](t, ctx, `document.querySelector('[data-testid=explore-cancel]').disabled`) != true {
		t.Errorf("cancel is still enabled after the search ended")
	}
	dir := artifacts(t)
	shot(t, ctx, dir, "explore-found-en")
	en := text(t, ctx, "explore-status")
	click(t, ctx, "lang")
	waitFor(t, ctx, "中文", `document.getElementById('timeline').dataset.lang === 'zh'`)
	if zh := text(t, ctx, "explore-status"); zh == en {
		t.Errorf("the search's result stays in English in 中文 mode: %q", zh)
	}
	// The picker names the found run by its title in the page's language.
	want := eval[string](t, ctx, `lockstep.state.snap.title.zh`)
	if got := eval[string](t, ctx, `(s => s.options[s.selectedIndex].textContent)(document.querySelector('[data-testid=scenario-select]'))`); want == "" || got != want {
		t.Errorf("the picker in 中文: expected the found run's title %q, got %q", want, got)
	}
	shot(t, ctx, dir, "explore-found-zh")
}
