package e2e

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/explore"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/server"
)

// "Find a bad schedule" on the blind DEL lesson with a pause budget: the
// server finds the flaw and the page shows the shrunk run at its end, the
// pause the search placed marked on the timeline, and the result in the
// panel.
func TestBrowserFindABadSchedule(t *testing.T) {
	chromium(t)
	url := startServer(t, server.Options{})
	ctx := tab(t, startBrowser(t), true)
	open(t, ctx, url)
	load(t, ctx, "blind-del-slow-release")
	choose(t, ctx, "explore-budget", "pause:5s")
	click(t, ctx, "explore-go")
	waitFor(t, ctx, "the search's result", `document.querySelector('[data-testid=explore-status]').dataset.verdict === 'mutual-exclusion'`)
	waitFor(t, ctx, "the shrunk run", `lockstep.state.snap.ended && lockstep.state.snap.scenario === 'blind-del-slow-release-explored' && lockstep.state.snap.verdicts.includes('mutual-exclusion')`)
	// The one pause of the shrunk schedule is the search's: its event is
	// marked; the lock's own commands, which the search did not choose, are not.
	marked := eval[[]string](t, ctx, `lockstep.state.model.events.filter((e) => lockstep.state.highlight.has(e.seq) && e.kind === 'fault').map((e) => e.name + ' ' + e.client)`)
	if strings.Join(marked, ",") != "pause A" {
		t.Errorf("marked fault events %v, want the search's pause of A", marked)
	}
	if n := eval[int](t, ctx, `lockstep.state.model.events.filter((e) => lockstep.state.highlight.has(e.seq) && e.kind === 'fault' && e.name === 'pause').length`); n != 1 {
		t.Errorf("%d pause events marked, want 1", n)
	}
	// The panel says in plain words what the bad schedule is: the pause
	// the search placed and what the lease did meanwhile.
	if got := text(t, ctx, "explore-status"); !strings.Contains(got, "A stops for ") || !strings.Contains(got, "The lock on redis expires at ") {
		t.Errorf("the panel does not say what the schedule is: %q", got)
	}
	if eval[bool](t, ctx, `document.querySelector('[data-testid=explore-cancel]').disabled`) != true {
		t.Errorf("cancel is still enabled after the search ended")
	}
	dir := artifacts(t)
	shot(t, ctx, dir, "explore-found-en")
	en := text(t, ctx, "explore-status")
	click(t, ctx, "lang")
	waitFor(t, ctx, "中文", `document.getElementById('timeline').dataset.lang === 'zh'`)
	if zh := text(t, ctx, "explore-status"); zh == en || !strings.Contains(zh, "停顿了") {
		t.Errorf("the search's result in 中文 mode: %q", zh)
	}
	// The picker names the found run by its title in the page's language.
	want := eval[string](t, ctx, `lockstep.state.snap.title.zh`)
	if got := eval[string](t, ctx, `(s => s.options[s.selectedIndex].textContent)(document.querySelector('[data-testid=scenario-select]'))`); want == "" || got != want {
		t.Errorf("the picker in 中文: expected the found run's title %q, got %q", want, got)
	}
	shot(t, ctx, dir, "explore-found-zh")
}

// An exhaustive search that covers every schedule and finds nothing says
// so, with the count, in both languages: three WATCH/MULTI/EXEC buyers
// with a crash budget. The count is the one explore.Search gives the same
// search here.
func TestBrowserExploreExhaustiveNoneFound(t *testing.T) {
	f, err := scenario.ParseBuiltin("scenarios.yaml", lockstep.Scenarios)
	if err != nil {
		t.Fatal(err)
	}
	sc, _ := f.Find("watch-three-buyers")
	res, err := explore.Search(context.Background(), explore.Neutral(sc, &scenario.Explore{Faults: []scenario.Budget{{Do: "crash", Count: 1}}}),
		explore.Options{Strategy: explore.Exhaustive})
	if err != nil || !res.Complete || res.Verdict != "" {
		t.Fatalf("the search itself: %v, complete %v, verdict %q", err, res.Complete, res.Verdict)
	}
	chromium(t)
	url := startServer(t, server.Options{})
	ctx := tab(t, startBrowser(t), true)
	open(t, ctx, url)
	load(t, ctx, "watch-three-buyers")
	choose(t, ctx, "explore-budget", "crash")
	choose(t, ctx, "explore-strategy", "exhaustive")
	click(t, ctx, "explore-go")
	waitFor(t, ctx, "the search's end", `document.querySelector('[data-testid=explore-cancel]').disabled && /\d/.test(document.querySelector('[data-testid=explore-status]').textContent)`)
	n := fmt.Sprint(res.Schedules)
	// The ✓ states its bound: a crash of one client, where the search
	// placed it, the order of tied moves, the time and steps.
	bound, err := explore.Bound(explore.Neutral(sc, &scenario.Explore{Faults: []scenario.Budget{{Do: "crash", Count: 1}}}), explore.Options{Strategy: explore.Exhaustive})
	if err != nil {
		t.Fatal(err)
	}
	if got := text(t, ctx, "explore-status"); got != "No violation in any of "+n+" schedules within the bound: "+bound.En+"." || !strings.Contains(got, "1 × crash") {
		t.Errorf("the panel says %q, want none found in %s schedules within the bound %q", got, n, bound.En)
	}
	if eval[string](t, ctx, `document.querySelector('[data-testid=explore-status]').dataset.proof`) != "true" {
		t.Errorf("an exhaustive search that covered every schedule is not marked as a proof")
	}
	shot(t, ctx, artifacts(t), "explore-none-en")
	click(t, ctx, "lang")
	waitFor(t, ctx, "中文", `document.getElementById('timeline').dataset.lang === 'zh'`)
	if got := text(t, ctx, "explore-status"); got != "在界限内的全部 "+n+" 个调度中都没有发现问题。界限："+bound.Zh+"。" {
		t.Errorf("the panel says %q in 中文, want none found in %s schedules", got, n)
	}
	shot(t, ctx, artifacts(t), "explore-none-zh")
}

// Every schedule the lessons table found (docs/explore-found.yaml) replays
// in the browser to the verdicts it was found with, as on the command line
// (cmd/visualizer's TestExploreFoundSchedulesReplay): the page, served that
// file as its catalog, runs each to its end and shows them.
func TestBrowserExploreFoundSchedulesReplay(t *testing.T) {
	path := filepath.Join("..", "..", "docs", "explore-found.yaml")
	found, err := scenario.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	chromium(t)
	url := startServer(t, server.Options{Catalog: found})
	ctx := tab(t, startBrowser(t), false)
	open(t, ctx, url)
	for _, sc := range found.Scenarios {
		load(t, ctx, sc.ID)
		click(t, ctx, "end")
		waitFor(t, ctx, sc.ID+": the end of the run", `lockstep.state.snap.ended && document.querySelectorAll('[data-testid=verdict] .v').length > 0`)
		got := eval[[]string](t, ctx, `[...new Set([...document.querySelectorAll('[data-testid=verdict] .v')].map(v => v.dataset.name))]`)
		if !lesson.SameVerdicts(got, sc.Expect) {
			t.Errorf("%s: the page shows %v, the file expects %v", sc.ID, got, sc.Expect)
		}
	}
}

// The fault budget belongs to the scenario it was typed for: a budget
// typed on one lesson is not used for the next (the field shows that
// lesson's own, empty: the budget its faults make), and comes back with
// its lesson. A random search that finds nothing says it sampled, how
// much and within what, and that it is not a proof.
func TestBrowserExploreBudgetAndSample(t *testing.T) {
	chromium(t)
	url := startServer(t, server.Options{})
	ctx := tab(t, startBrowser(t), true)
	open(t, ctx, url)
	load(t, ctx, "blind-del-slow-release")
	choose(t, ctx, "explore-budget", "pause:5s")
	load(t, ctx, "watch-three-buyers")
	if got := eval[string](t, ctx, `document.querySelector('[data-testid=explore-budget]').value`); got != "" {
		t.Errorf("the budget typed for blind-del-slow-release shows on watch-three-buyers: %q", got)
	}
	choose(t, ctx, "explore-budget", "crash")
	choose(t, ctx, "explore-strategy", "random")
	click(t, ctx, "explore-go")
	waitFor(t, ctx, "the search's end", `document.querySelector('[data-testid=explore-cancel]').disabled && /\d/.test(document.querySelector('[data-testid=explore-status]').textContent)`)
	got := text(t, ctx, "explore-status")
	if !strings.HasPrefix(got, "None found in ") || !strings.Contains(got, "sampled schedules (random search): not a proof. Searched: 1 × crash;") {
		t.Errorf("a random search that found nothing says %q", got)
	}
	if eval[string](t, ctx, `document.querySelector('[data-testid=explore-status]').dataset.proof`) != "false" {
		t.Errorf("a sample is marked as a proof")
	}
	load(t, ctx, "blind-del-slow-release")
	if got := eval[string](t, ctx, `document.querySelector('[data-testid=explore-budget]').value`); got != "pause:5s" {
		t.Errorf("back on blind-del-slow-release the budget field shows %q, want its pause:5s", got)
	}
}
