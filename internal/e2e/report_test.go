package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/server"
)

// cellOf reads a cell of the "Which lock?" grid: its kind and its mark.
func cellOf(lock, column string) string {
	return fmt.Sprintf(`(c => c ? c.dataset.kind + ' ' + c.textContent.trim() : 'missing')(document.querySelector('[data-testid=report-cell][data-lock=%q][data-column=%q]'))`, lock, column)
}

// "Which lock?" on a small card (three locks, three columns, so that it
// finishes in a browser test): the cells fill in while a bar shows the
// progress, then every one is decided as the catalog teaches (argued in
// internal/report's TestCellsTheCatalogTeaches): the watchdog ✗ under a
// pause longer than its lease (its renewals stop with the process), the
// fencing lock ✓ there (its storage refuses the late write), the SQL lock
// ✗ under a crash (its row has no expiry) and ✓ under the pause. A ✗
// opens its counterexample in the timeline, run to its verdict; the
// fencing ✓ opens the schedule where the storage refused A's write. Then
// in 中文.
func TestBrowserWhichLock(t *testing.T) {
	chromium(t)
	url := startServer(t, server.Options{
		ReportLocks:   []string{"watchdog", "fencing-token", "mysql-unique-key"},
		ReportColumns: []string{"contention", "pause", "crash"},
	})
	ctx := page(t, startBrowser(t), url)
	waitFor(t, ctx, "the first state", `!!(window.lockstep && window.lockstep.state.snap)`)
	// While the card runs, the grid fills in: watch every change of the
	// view and keep what was on screen while the status still said
	// "running": a decided cell, an undecided one (… with its label),
	// and how many rows.
	eval[bool](t, ctx, `window.seen = {decided: 0, pending: 0, rows: 0};
		new MutationObserver(() => {
			if (document.querySelector('[data-testid=report-status]').dataset.state !== 'running') return;
			const cells = [...document.querySelectorAll('[data-testid=report-cell]')];
			seen.decided = Math.max(seen.decided, cells.filter(c => c.dataset.kind !== 'pending').length);
			if (cells.some(c => c.dataset.kind === 'pending' && c.textContent.trim() === '…' && c.title.length > 5)) seen.pending++;
			seen.rows = Math.max(seen.rows, document.querySelectorAll('[data-testid=report-table] tbody tr').length);
		}).observe(document.getElementById('report'), {subtree: true, childList: true, attributes: true, characterData: true}); true`)
	click(t, ctx, "report-open")
	waitFor(t, ctx, "the card's first answer", `!!lockstep.reporter.card`)
	// The card is being computed: the bar shows, and the status counts
	// the cells decided out of 9.
	if !eval[bool](t, ctx, `!document.querySelector('[data-testid=report-bar]').hidden || !lockstep.reporter.card.running`) {
		t.Errorf("no progress bar while the card runs")
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelector('[data-testid=report-status]').dataset.state === 'done'`,
		chromedp.WithPollingTimeout(5*time.Minute), chromedp.WithPollingInterval(100*time.Millisecond))); err != nil {
		t.Fatalf("the card did not finish: %v (status %q)", err, text(t, ctx, "report-status"))
	}
	if got := text(t, ctx, "report-status"); got != "Every cell decided: 9 cells." {
		t.Errorf("status %q", got)
	}
	// Before the end the table had its three rows, cells still searched
	// shown as …, and at least one cell decided (its mark drawn as it
	// came, not only with the whole card).
	if seen := eval[map[string]int](t, ctx, `seen`); seen["rows"] != 3 || seen["pending"] == 0 || seen["decided"] == 0 {
		t.Errorf("while the card ran the grid showed %v: want 3 rows, pending cells and a decided one", seen)
	}
	for _, tc := range []struct{ lock, column, want string }{
		{"watchdog", "pause", "fails ✗ mutual-exclusion"},
		{"watchdog", "contention", "holds ✓ 2×1 · 1s"},
		{"fencing-token", "pause", "holds ✓ 2×1 · 1s"},
		{"mysql-unique-key", "crash", "fails ✗ deadlock"},
		{"mysql-unique-key", "pause", "holds ✓ 2×1"},
	} {
		if got := eval[string](t, ctx, cellOf(tc.lock, tc.column)); got != tc.want {
			t.Errorf("%s under %s: %q, want %q", tc.lock, tc.column, got, tc.want)
		}
	}
	// Every ✓ states its bound; every row has its sentence.
	title := eval[string](t, ctx, `document.querySelector('[data-testid=report-cell][data-lock=fencing-token][data-column=pause]').title`)
	if !strings.Contains(title, "within the bound") || !strings.Contains(title, "the storage refused the late write") {
		t.Errorf("the fencing ✓ says %q: want its bound and the refused write", title)
	}
	if n := eval[int](t, ctx, `[...document.querySelectorAll('[data-testid=report-advice]')].filter(e => e.textContent.length > 20).length`); n != 3 {
		t.Errorf("%d rows with a sentence, want 3", n)
	}
	if !strings.Contains(text(t, ctx, "report-bound"), "lease 1s") {
		t.Errorf("the bound is not stated: %q", text(t, ctx, "report-bound"))
	}
	dir := artifacts(t)
	shot(t, ctx, dir, "which-lock-en")

	// The watchdog's ✗ opens its counterexample, run to its verdict.
	do(t, ctx, "open the watchdog's ✗", chromedp.Click(chromedp.CSS(`[data-testid=report-cell][data-lock=watchdog][data-column=pause] button`)))
	waitFor(t, ctx, "the counterexample", `lockstep.state.snap.scenario === 'card-watchdog-pause-explored' && lockstep.state.snap.ended`)
	if !eval[bool](t, ctx, `lockstep.state.snap.verdicts.includes('mutual-exclusion')`) {
		t.Errorf("the counterexample ends %v", eval[[]string](t, ctx, `lockstep.state.snap.verdicts`))
	}
	if !eval[bool](t, ctx, `document.querySelector('[data-testid=report]').hidden && !document.querySelector('[data-testid=timeline]').closest('main').hidden`) {
		t.Errorf("the view did not give way to the timeline")
	}
	// The picker names what is loaded: the counterexample, by its title.
	if got, want := eval[string](t, ctx, `(s => s.selectedIndex < 0 ? '' : s.options[s.selectedIndex].textContent)(document.querySelector('[data-testid=scenario-select]'))`), eval[string](t, ctx, `lockstep.state.snap.title.en`); want == "" || got != want {
		t.Errorf("the picker after opening a cell reads %q, want the counterexample's title %q", got, want)
	}
	// Again: the card is kept, and the fencing ✓ shows the refused write.
	click(t, ctx, "report-open")
	waitFor(t, ctx, "the kept card", `document.querySelector('[data-testid=report-status]').dataset.state === 'done'`)
	do(t, ctx, "open the fencing ✓", chromedp.Click(chromedp.CSS(`[data-testid=report-cell][data-lock=fencing-token][data-column=pause] button`)))
	waitFor(t, ctx, "the refused write", `lockstep.state.snap.scenario === 'card-fencing-token-pause-refused' && lockstep.state.snap.ended`)
	if !eval[bool](t, ctx, `lockstep.state.model.events.some(e => e.kind === 'mark' && e.name === 'write-rejected')`) {
		t.Errorf("the opened schedule shows no refused write")
	}

	// 中文.
	click(t, ctx, "lang")
	waitFor(t, ctx, "中文", `document.getElementById('timeline').dataset.lang === 'zh'`)
	click(t, ctx, "report-open")
	waitFor(t, ctx, "the card in 中文", `document.querySelector('[data-testid=report-status]').textContent.includes('全部')`)
	if got := text(t, ctx, "report-status"); got != "全部 9 格都已得出结果。" {
		t.Errorf("status in 中文 %q", got)
	}
	zh := eval[string](t, ctx, `document.querySelector('[data-testid=report-cell][data-lock=fencing-token][data-column=pause]').title`)
	if !strings.Contains(zh, "在界限内") || !strings.Contains(zh, "存储拒绝了迟到的写入") {
		t.Errorf("the fencing ✓ in 中文: %q", zh)
	}
	if got := eval[string](t, ctx, `document.querySelector('#report-title').textContent`); !strings.HasPrefix(got, "选哪把锁") {
		t.Errorf("title in 中文 %q", got)
	}
	shot(t, ctx, dir, "which-lock-zh")
}

// As serve runs it, the server carries the card of its build: "Which
// lock?" shows every cell at once (19 locks × 8 faults, no bar), says the
// card was searched when the build was made, in both languages, and its
// ✗ cells open their counterexamples: the watchdog under a pause longer
// than its lease ends with two clients inside, as its lesson teaches.
func TestBrowserWhichLockStored(t *testing.T) {
	chromium(t)
	url := startServer(t, server.Options{Card: lockstep.Card})
	ctx := page(t, startBrowser(t), url)
	waitFor(t, ctx, "the first state", `!!(window.lockstep && window.lockstep.state.snap)`)
	click(t, ctx, "report-open")
	waitFor(t, ctx, "the stored card", `document.querySelector('[data-testid=report-status]').dataset.state === 'done'`)
	if got := text(t, ctx, "report-status"); !strings.HasPrefix(got, "Every cell decided: 152 cells, searched when this build was made") {
		t.Errorf("status %q", got)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll('[data-testid=report-table] tbody tr').length`); n != 19 {
		t.Errorf("%d rows, want 19", n)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll('[data-testid=report-cell][data-kind=pending]').length`); n != 0 {
		t.Errorf("%d cells pending in the stored card", n)
	}
	if !eval[bool](t, ctx, `document.querySelector('[data-testid=report-bar]').hidden`) {
		t.Errorf("a progress bar over a card that is done")
	}
	if got := eval[string](t, ctx, cellOf("watchdog", "pause")); got != "fails ✗ mutual-exclusion" {
		t.Errorf("watchdog under a pause: %q", got)
	}
	shot(t, ctx, artifacts(t), "which-lock-stored-en")
	do(t, ctx, "open the watchdog's ✗", chromedp.Click(chromedp.CSS(`[data-testid=report-cell][data-lock=watchdog][data-column=pause] button`)))
	waitFor(t, ctx, "the counterexample", `lockstep.state.snap.scenario === 'card-watchdog-pause-explored' && lockstep.state.snap.ended`)
	if !eval[bool](t, ctx, `lockstep.state.snap.verdicts.includes('mutual-exclusion')`) {
		t.Errorf("the counterexample ends %v", eval[[]string](t, ctx, `lockstep.state.snap.verdicts`))
	}
	click(t, ctx, "lang")
	waitFor(t, ctx, "中文", `document.getElementById('timeline').dataset.lang === 'zh'`)
	click(t, ctx, "report-open")
	waitFor(t, ctx, "the card in 中文", `document.querySelector('[data-testid=report-status]').textContent.includes('全部')`)
	if got := text(t, ctx, "report-status"); !strings.Contains(got, "在构建这个版本时搜索得出") {
		t.Errorf("status in 中文 %q", got)
	}
	shot(t, ctx, artifacts(t), "which-lock-stored-zh")
}
