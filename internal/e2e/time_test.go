package e2e

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/lockstep/lockstep/internal/server"
)

// gapJS gives the distance in pixels between the tops of two events' rows
// on the timeline at its current scale.
const gapJS = `((a, b) => { const m = lockstep.state.model, tl = lockstep.timeline; return tl.rowTop(m.rowOfSeq.get(b)) - tl.rowTop(m.rowOfSeq.get(a)); })`

// TestBrowserTimeView checks the time view on a lesson and on a scenario
// written in the page: rows placed by virtual time (a 1 ms reply right
// under its request, a 500 ms wait 500 px down, a 5 s idle stretch cut
// to a marked break), each node's clock with its offset and its jump
// under the lane's name, following the cursor back and forth and onto a
// fork (a clock jumped by hand), in English
// and 中文, and the T key back to one row per event.
func TestBrowserTimeView(t *testing.T) {
	chromium(t)
	url := startServer(t, server.Options{})
	b := startBrowser(t)
	dir := artifacts(t)
	gap := func(t *testing.T, ctx context.Context, a, b int) float64 {
		t.Helper()
		return eval[float64](t, ctx, fmt.Sprintf(gapJS+`(%d, %d)`, a, b))
	}

	t.Run("lesson", func(t *testing.T) {
		ctx := page(t, b, url)
		load(t, ctx, "blind-del-slow-release")
		click(t, ctx, "end")
		waitFor(t, ctx, "the end", `lockstep.state.snap.ended`)
		// One row per event: every row as high as the next.
		for _, p := range [][2]int{{3, 4}, {10, 11}, {14, 15}} {
			if g := gap(t, ctx, p[0], p[1]); g != 28 {
				t.Errorf("rows view: #%d to #%d is %.0f px, want one row (28)", p[0], p[1], g)
			}
		}
		click(t, ctx, "time-scale")
		waitFor(t, ctx, "the time view", `document.getElementById('timeline').dataset.scale === 'time'`)
		if eval[string](t, ctx, `document.querySelector('[data-testid=time-scale]').getAttribute('aria-pressed')`) != "true" {
			t.Error("the toggle should say it is pressed")
		}
		// #3 SET sent at 0s, #4 run at 1 ms: a row apart (they cannot be
		// closer). #11 at 4 ms, #12 at 100 ms: 96 px. #15 at 102 ms, #16
		// at 602 ms (B's retry): 500 px, under the 600 ms a break takes.
		for _, c := range []struct {
			a, b int
			want float64
		}{{3, 4, 28}, {11, 12, 96}, {15, 16, 500}, {27, 28, 394}} {
			if g := gap(t, ctx, c.a, c.b); math.Abs(g-c.want) > 0.5 {
				t.Errorf("time view: #%d to #%d is %.1f px, want %.0f", c.a, c.b, g, c.want)
			}
		}
		if n := eval[int](t, ctx, `document.querySelectorAll('[data-testid=time-break]').length`); n != 0 {
			t.Errorf("no gap in this lesson is over 600 ms, yet %d breaks are shown", n)
		}
		// The only node runs on the world's clock: its clock is the cursor's time.
		waitFor(t, ctx, "redis's clock", `!!document.querySelector('[data-testid=clock-redis]')`)
		if got, want := eval[string](t, ctx, `document.querySelector('[data-testid=clock-redis]').dataset.ns`), eval[string](t, ctx, `String(lockstep.state.snap.t)`); got != want {
			t.Errorf("redis's clock is %s ns, want the world's %s", got, want)
		}
		if got := text(t, ctx, "clock-redis"); strings.Contains(got, "ahead") || strings.Contains(got, "behind") {
			t.Errorf("redis's clock runs on time, yet says %q", got)
		}
		shot(t, ctx, dir, "time-view-en")
	})

	t.Run("clock jump", func(t *testing.T) {
		ctx := page(t, b, url)
		load(t, ctx, "redlock-clock-jump")
		click(t, ctx, "time-scale")
		waitFor(t, ctx, "the time view", `document.getElementById('timeline').dataset.scale === 'time'`)
		jumped := `lockstep.state.model.events.some(e => e.kind === 'fault' && e.name === 'clock-jump')`
		for i := 0; i < 80 && !eval[bool](t, ctx, jumped); i++ {
			step(t, ctx)
		}
		if !eval[bool](t, ctx, jumped) {
			t.Fatal("r3's clock never jumped")
		}
		// r3 jumped 10 s ahead at 0.5 s: its clock reads the world's + 10 s.
		waitFor(t, ctx, "r3's clock ahead", `/10s ahead/.test(document.querySelector('[data-testid=clock-r3]').textContent)`)
		if got, want := eval[int64](t, ctx, `Number(document.querySelector('[data-testid=clock-r3]').dataset.ns)`), eval[int64](t, ctx, `lockstep.state.snap.t`)+10e9; got != want {
			t.Errorf("r3's clock is %d ns, want %d", got, want)
		}
		if got := text(t, ctx, "clock-r1"); strings.Contains(got, "ahead") {
			t.Errorf("r1 did not jump, yet its clock says %q", got)
		}
		shot(t, ctx, dir, "time-view-clock-jump-en")
		// Back before the jump: the clock is on time again.
		click(t, ctx, "back")
		waitFor(t, ctx, "r3 on time", `!/ahead/.test(document.querySelector('[data-testid=clock-r3]').textContent)`)
		// 中文
		click(t, ctx, "lang")
		waitFor(t, ctx, "中文", `document.getElementById('timeline').dataset.lang === 'zh'`)
		step(t, ctx)
		waitFor(t, ctx, "r3's clock ahead in 中文", `/快 10s/.test(document.querySelector('[data-testid=clock-r3]').textContent)`)
		shot(t, ctx, dir, "time-view-clock-jump-zh")
		click(t, ctx, "lang")
		waitFor(t, ctx, "English", `document.getElementById('timeline').dataset.lang === 'en'`)
		// A fork: r1's clock jumped by hand too (the fault menu's Clock +5s).
		choose(t, ctx, "fault-node", "r1")
		click(t, ctx, "fault-clock-jump")
		waitFor(t, ctx, "r1's clock ahead", `/5s ahead/.test(document.querySelector('[data-testid=clock-r1]').textContent)`)
		if got := text(t, ctx, "clock-r3"); !strings.Contains(got, "10s ahead") {
			t.Errorf("on the fork r3's clock says %q, want still 10s ahead", got)
		}
		click(t, ctx, "back")
		waitFor(t, ctx, "r1 on time before the fork's jump", `!/ahead/.test(document.querySelector('[data-testid=clock-r1]').textContent)`)
	})

	t.Run("your file", func(t *testing.T) {
		ctx := page(t, b, url)
		// One client, a cache node whose clock runs 2 s behind, a second
		// client whose clock runs 3 s ahead (it starts at 8 s), and A
		// paused 5 s inside with nobody else active: a 5 s stretch in
		// which nothing happens.
		src := "scenarios:\n  - id: idle\n    title: {en: \"A long pause\", zh: \"长时间停顿\"}\n    horizon: 12s\n" +
			"    nodes: [{name: cache, clock_offset: -2s}]\n" +
			"    clients:\n" +
			"      - {name: A, algorithm: lua-compare-delete, params: {ttl: 20s, retry: 100ms}, task: none, work: 200ms}\n" +
			"      - {name: Z, algorithm: lua-compare-delete, params: {ttl: 20s, retry: 100ms}, task: none, work: 200ms, start: 8s, clock_skew: 3s}\n" +
			"    faults:\n      - {at: 100ms, do: pause, client: A, for: 5s}\n    expect: [safe]\n"
		runFile(t, ctx, src, "idle")
		click(t, ctx, "end")
		waitFor(t, ctx, "the end", `lockstep.state.snap.ended`)
		click(t, ctx, "time-scale")
		waitFor(t, ctx, "the time view", `document.getElementById('timeline').dataset.scale === 'time'`)
		// A is paused from 0.1 s to 5.1 s and nothing else runs: a break of
		// 5 s. A is done at 5.104 s and Z starts at 8 s: a break of 2.896 s.
		if got := eval[string](t, ctx, `lockstep.timeline.L.breaks.map(b => b.dt / 1e6 + 'ms').join(' ')`); got != "5000ms 2896ms" {
			t.Errorf("the breaks leave out %s, want 5000ms 2896ms", got)
		}
		do(t, ctx, "to the top", chromedp.Evaluate[chromedp.Void](`lockstep.timeline.scrollToRow(0)`))
		// Its marker lies above #11, A's resume.
		waitFor(t, ctx, "the pause's break", `!!document.querySelector('[data-testid=time-break][data-gap="11"]')`)
		if ns := eval[int64](t, ctx, `Number(document.querySelector('[data-testid=time-break][data-gap="11"]').dataset.ns)`); ns != 5e9 {
			t.Errorf("the pause's break marker leaves out %d ns, want 5 s", ns)
		}
		if got := eval[string](t, ctx, `document.querySelector('[data-testid=time-break][data-gap="11"]').textContent`); !strings.Contains(got, "5s with nothing happening") {
			t.Errorf("the break's text: %q", got)
		}
		// The break is a few rows high, not 5,000 px.
		if h := eval[float64](t, ctx, `document.querySelector('[data-testid=time-break][data-gap="11"]').getBoundingClientRect().height`); h > 100 {
			t.Errorf("the break is %.0f px high", h)
		}
		if got := text(t, ctx, "clock-cache"); !strings.Contains(got, "2s behind") {
			t.Errorf("cache's clock: %q, want 2s behind", got)
		}
		if got := text(t, ctx, "clock-Z"); !strings.Contains(got, "3s ahead") {
			t.Errorf("Z's clock: %q, want 3s ahead", got)
		}
		if n := eval[int](t, ctx, `document.querySelectorAll('[data-testid=clock-A]').length`); n != 0 {
			t.Error("A's clock is the world's: it should not be shown")
		}
		shot(t, ctx, dir, "time-view-your-file-en")
		click(t, ctx, "lang")
		waitFor(t, ctx, "中文", `document.getElementById('timeline').dataset.lang === 'zh'`)
		waitFor(t, ctx, "the break in 中文", `/无事发生/.test(document.querySelector('[data-testid=time-break][data-gap="11"]').textContent)`)
		if got := text(t, ctx, "clock-cache"); !strings.Contains(got, "慢 2s") {
			t.Errorf("cache's clock in 中文: %q", got)
		}
		shot(t, ctx, dir, "time-view-your-file-zh")
		// T: one row per event again, and the page remembers the choice.
		do(t, ctx, "press T", chromedp.Evaluate[chromedp.Void](`document.getElementById('tl-scroll').focus()`), chromedp.KeyEvent("t"))
		waitFor(t, ctx, "the rows view", `document.getElementById('timeline').dataset.scale === 'rows'`)
		if n := eval[int](t, ctx, `document.querySelectorAll('[data-testid=time-break]').length`); n != 0 {
			t.Errorf("%d breaks left in the rows view", n)
		}
		if got := eval[string](t, ctx, `localStorage.getItem('lockstep.time')`); got != "off" {
			t.Errorf("the choice kept: %q", got)
		}
	})
}
