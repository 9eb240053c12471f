package e2e

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"github.com/lockstep/lockstep/internal/report"
	"github.com/lockstep/lockstep/internal/server"
)

// mineColumns are the faults the browser test's cards search: contention
// alone, a pause longer than the lease, a pause before the release. Three
// columns of the user's lock and the 19 catalog locks take about 4 s on
// one worker (visualizer report --workers 1 --faults …), so that the test
// stays well under a minute on a loaded two-core machine.
var mineColumns = []string{"contention", "pause", "pause-release"}

// mineDone waits until the card for a setup is done.
func mineDone(t *testing.T, ctx context.Context) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelector('[data-testid=report-status]').dataset.state !== 'running' && !!lockstep.reporter.mine && !lockstep.reporter.mine.running`,
		chromedp.WithPollingTimeout(90*time.Second), chromedp.WithPollingInterval(100*time.Millisecond))); err != nil {
		t.Fatalf("the card did not finish: %v (status %q)", err, text(t, ctx, "report-status"))
	}
}

// alternatives lists What to use instead as drawn: each lock's id.
const alternatives = `[...document.querySelectorAll('[data-testid=report-alt]')].map(li => li.dataset.lock)`

// Check my lock in the browser, on the scenario your-lock-unconditional-del
// of labs/your-lock.yaml (SET NX PX, released by a plain DEL; clients A
// and B work 1500ms under a 1s lease, C 500ms, B and C retry every
// 100ms). What the cells must say, argued before they were run:
//
//   - plain-del (the user's), contention: A's lease ends while A works,
//     B's retry takes the key and enters beside A: ✗ mutual-exclusion,
//     with no fault at all; the same counterexample breaks the other two
//     columns.
//   - setnx-no-expiry: the key never expires, B waits for A's DEL; a pause
//     (2 s, or up to 1 s before the release) only delays the others,
//     inside the 8 s horizon: ✓ in every column, the bound (the user's
//     3 clients) beside the mark.
//   - watchdog: its renewals keep the key through A's 1500 ms of work, ✓
//     under contention; a pause of twice the lease stops the renewals with
//     the process and the key expires: ✗ mutual-exclusion.
//   - What to use instead, in every column: the locks with no expiry to
//     outlive (setnx-no-expiry, the SQL row) and the optimistic
//     transaction (no lock: its WATCH retries), ranked by what they need
//     beyond one Redis node, then round trips: watch-multi-exec,
//     setnx-no-expiry, mysql-unique-key.
//
// From the editor (the file loaded there) in English: the card fills in
// (and meanwhile another session's short form opens at once, no card of
// its own started),
// its ✗ opens its counterexample, the kept card comes back, Side by side
// runs the user's scenario with setnx-no-expiry, and the Markdown
// downloaded is the CLI's (report.BuildSetup's) to the byte. Then in
// 中文 from the labs' picker: Check my lock asks what to check, nothing
// run yet; the loaded scenario chosen, the same cells,
// a ✗ opened and Side by side.
// cardTab is the time a Check my lock tab may take: its 60-cell card
// takes about 25 s under the race detector on an idle 2-core machine,
// more beside other packages' tests.
const cardTab = 3 * time.Minute

func TestBrowserCheckMyLock(t *testing.T) {
	chromium(t)
	src, err := os.ReadFile("../../labs/your-lock.yaml")
	if err != nil {
		t.Fatal(err)
	}
	url := startServer(t, server.Options{SetupColumns: mineColumns, SetupTime: cardTab})
	b := startBrowser(t)
	dir := artifacts(t)
	const id = "your-lock-unconditional-del"

	t.Run("en-from-the-editor", func(t *testing.T) {
		ctx := pageWithin(t, b, url, cardTab)
		down := t.TempDir()
		if _, err := chromedp.CallBrowser(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
			Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: down,
			BrowserContextID: chromedp.FromContext(ctx).BrowserContextID}); err != nil { // the tab's own browser context
			t.Fatal(err)
		}
		runFile(t, ctx, string(src), id)
		click(t, ctx, "editor-mine")
		waitFor(t, ctx, "the card's rows", `document.querySelectorAll('[data-testid=report-table] tbody tr').length === 20`)
		// While this card takes the server's CPUs, another session opens
		// Check my lock's short form: its choices come within seconds, and
		// no card of its own starts (openForm).
		other := pageWithin(t, b, url, cardTab)
		openForm(t, other)
		if !eval[bool](t, ctx, `!!lockstep.reporter.mine && lockstep.reporter.mine.running`) {
			t.Errorf("the card was done before the other session's form opened: the form was not tried beside a card")
		}
		do(t, other, "leave the other session", chromedp.Navigate("about:blank")) // its page no longer takes the CPUs
		mineDone(t, ctx)
		mineCells(t, ctx, "en")
		if got := text(t, ctx, "report-status"); got != "Every cell searched: 60 cells." {
			t.Errorf("status %q", got)
		}
		if got := text(t, ctx, "report-setup"); !strings.Contains(got, "3 clients (A, B, C)") || !strings.Contains(got, "lease 1s") {
			t.Errorf("the setup %q: want the user's clients and lease", got)
		}
		shot(t, ctx, dir, "check-my-lock-en")

		// The ✗ opens its counterexample on the user's setup, run to its
		// verdict, in the timeline.
		do(t, ctx, "open plain-del's ✗", chromedp.Click(chromedp.CSS(`[data-testid=report-cell][data-lock=plain-del][data-column=contention] button`)))
		waitFor(t, ctx, "the counterexample", `lockstep.state.snap.scenario.startsWith('mine-`+id+`-plain-del-contention') && lockstep.state.snap.ended`)
		if !eval[bool](t, ctx, `lockstep.state.snap.verdicts.includes('mutual-exclusion') && document.querySelector('[data-testid=report]').hidden`) {
			t.Errorf("the counterexample ends %v, or the card did not give way", eval[[]string](t, ctx, `lockstep.state.snap.verdicts`))
		}
		// Check my lock again: the card kept, not computed anew.
		click(t, ctx, "mine-open")
		waitFor(t, ctx, "the kept card", `!document.querySelector('[data-testid=report]').hidden && document.querySelector('[data-testid=report-status]').dataset.state === 'done'`)

		// The card as Markdown for a design review: what visualizer report
		// --file --markdown prints for the same setup, byte for byte.
		click(t, ctx, "report-export")
		got := string(downloaded(t, down, ".md"))
		if want := cliMarkdown(t, id); got != want {
			t.Errorf("the Markdown downloaded (%d bytes) is not the CLI's (%d bytes); it starts %q", len(got), len(want), got[:min(len(got), 200)])
		}

		// Side by side with an alternative: the user's scenario loaded again
		// and run with setnx-no-expiry in place of plain-del.
		do(t, ctx, "Side by side with setnx-no-expiry", chromedp.Click(chromedp.CSS(`[data-testid=report-sbs][data-lock=setnx-no-expiry]`)))
		sideBySide(t, ctx, id)
		shot(t, ctx, dir, "check-my-lock-side-by-side-en")
	})

	t.Run("zh-from-the-loaded-scenario", func(t *testing.T) {
		ctx := axeTabWithin(t, b, cardTab) // the view audited by axe-core too
		probs := watch(t, ctx)
		t.Cleanup(func() {
			for _, p := range probs.take() {
				t.Errorf("page problem: %s", p)
			}
		})
		open(t, ctx, url)
		click(t, ctx, "lang")
		waitFor(t, ctx, "中文", `document.getElementById('timeline').dataset.lang === 'zh'`)
		load(t, ctx, id)
		question(t, ctx)
		if got := text(t, ctx, "report-start-loaded"); got != "已加载的场景" {
			t.Errorf("the question's first choice in 中文: %q", got)
		}
		audit(t, ctx, "Check my lock's question, in 中文")
		shot(t, ctx, dir, "check-my-lock-question-loaded-zh")
		click(t, ctx, "report-start-loaded")
		mineDone(t, ctx)
		mineCells(t, ctx, "zh")
		if got := text(t, ctx, "report-status"); got != "全部 60 格都已搜索完。" {
			t.Errorf("status %q", got)
		}
		if got := text(t, ctx, "report-setup"); !strings.Contains(got, "3 个客户端") {
			t.Errorf("the setup in 中文 %q", got)
		}
		if got := text(t, ctx, "report-export"); got != "下载为 Markdown" {
			t.Errorf("the export button %q", got)
		}
		shot(t, ctx, dir, "check-my-lock-zh")
		audit(t, ctx, "Check my lock, done, in 中文")
		do(t, ctx, "open the watchdog's ✗", chromedp.Click(chromedp.CSS(`[data-testid=report-cell][data-lock=watchdog][data-column=pause] button`)))
		waitFor(t, ctx, "the counterexample", `lockstep.state.snap.scenario.startsWith('mine-`+id+`-watchdog-pause') && lockstep.state.snap.ended`)
		if !eval[bool](t, ctx, `lockstep.state.snap.verdicts.includes('mutual-exclusion')`) {
			t.Errorf("the watchdog's counterexample ends %v", eval[[]string](t, ctx, `lockstep.state.snap.verdicts`))
		}
		click(t, ctx, "mine-open")
		waitFor(t, ctx, "the kept card", `document.querySelector('[data-testid=report-status]').dataset.state === 'done'`)
		do(t, ctx, "并排对比 with setnx-no-expiry", chromedp.Click(chromedp.CSS(`[data-testid=report-sbs][data-lock=setnx-no-expiry]`)))
		sideBySide(t, ctx, id)
		shot(t, ctx, dir, "check-my-lock-side-by-side-zh")
	})
}

// mineCells holds the card drawn to the cells argued above, and What to
// use instead, in lang.
func mineCells(t *testing.T, ctx context.Context, lang string) {
	t.Helper()
	yours, within := "plain-del (yours)", "3 clients"
	if lang == "zh" {
		yours, within = "plain-del (你的)", "3 个客户端"
	}
	if got := eval[string](t, ctx, `document.querySelector('[data-testid=report-table] tbody tr').dataset.lock + ' ' + document.querySelector('[data-testid=report-table] tbody tr .rep-name').textContent`); got != "plain-del "+yours {
		t.Errorf("the first row %q, want the user's lock, marked", got)
	}
	for _, tc := range []struct{ lock, column, kind, has string }{
		{"plain-del", "contention", "fails", "✗"},
		{"plain-del", "pause", "fails", "✗"},
		{"plain-del", "pause-release", "fails", "✗"},
		{"setnx-no-expiry", "contention", "holds", "✓ " + within},
		{"setnx-no-expiry", "pause", "holds", "✓ " + within},
		{"setnx-no-expiry", "pause-release", "holds", "✓ " + within},
		{"watchdog", "contention", "holds", "✓ " + within},
		{"watchdog", "pause", "fails", "✗"},
	} {
		got := eval[string](t, ctx, cellOf(tc.lock, tc.column))
		if !strings.HasPrefix(got, tc.kind+" "+tc.has) {
			t.Errorf("%s under %s: %q, want %s %s…", tc.lock, tc.column, got, tc.kind, tc.has)
		}
		if tc.kind == "fails" && lang == "en" && !strings.Contains(got, "mutual-exclusion") {
			t.Errorf("%s under %s: %q, want its verdict mutual-exclusion beside the ✗", tc.lock, tc.column, got)
		}
	}
	if n := eval[int](t, ctx, `document.querySelectorAll('[data-testid=report-cell][data-kind=unsearched], [data-testid=report-cell][data-kind=pending]').length`); n != 0 {
		t.Errorf("%d cells not searched in a card that finished", n)
	}
	if got := eval[[]string](t, ctx, alternatives); strings.Join(got, ",") != "watch-multi-exec,setnx-no-expiry,mysql-unique-key" {
		t.Errorf("what to use instead: %v", got)
	}
	head := map[string]string{"en": "What to use instead: these hold in every column", "zh": "改用什么：这些锁在每一列都成立"}[lang]
	if got := text(t, ctx, "report-instead"); !strings.HasPrefix(got, head) {
		t.Errorf("What to use instead reads %q", got[:min(len(got), 80)])
	}
	sbs := map[string]string{"en": "Side by side", "zh": "并排对比"}[lang]
	if got := eval[string](t, ctx, `document.querySelector('[data-testid=report-sbs][data-lock=setnx-no-expiry]').textContent`); got != sbs {
		t.Errorf("the Side by side button reads %q", got)
	}
}

// sideBySide waits for the comparison of the user's scenario with
// setnx-no-expiry. The left is the user's run (their lock, its verdicts);
// the right never has two clients inside at once (no expiry).
func sideBySide(t *testing.T, ctx context.Context, id string) {
	t.Helper()
	waitFor(t, ctx, "the comparison", `(a => !!a && a.with === 'setnx-no-expiry' && !!a.left && !!a.right)(lockstep.compare.answer())`)
	if got := eval[string](t, ctx, `lockstep.compare.answer().left.id`); got != id {
		t.Errorf("the left side is %q, want the user's scenario %s", got, id)
	}
	right := eval[[]string](t, ctx, `lockstep.compare.answer().right.verdicts.map(v => v.name)`)
	left := eval[[]string](t, ctx, `lockstep.compare.answer().left.verdicts.map(v => v.name)`)
	if !strings.Contains(strings.Join(left, " "), "mutual-exclusion") || strings.Contains(strings.Join(right, " "), "mutual-exclusion") {
		t.Errorf("side by side: left %v, right %v: want the user's lock broken, setnx-no-expiry not", left, right)
	}
	if eval[bool](t, ctx, `document.querySelector('[data-testid=compare]').hidden`) {
		t.Errorf("the Side by side view is not shown")
	}
}

// cliMarkdown is the card visualizer report --file F --scenario id
// --faults … --markdown prints for the same setup.
func cliMarkdown(t *testing.T, id string) string {
	t.Helper()
	f := labs(t)
	for i := range f.Scenarios {
		if f.Scenarios[i].ID == id {
			card, err := report.BuildSetup(context.Background(), &f.Scenarios[i], report.SetupOptions{File: id + ".yaml", Columns: mineColumns})
			if err != nil {
				t.Fatal(err)
			}
			return card.Markdown()
		}
	}
	t.Fatalf("no scenario %s in the labs", id)
	return ""
}

// A card whose time budget runs out says so on screen: the status names
// the budget and how many cells were not searched, each of them is ?
// "not searched", and What to use instead proposes nothing from them.
// The server here gives a card 1 ms, so that every cell is stopped
// (the locks' probes, run before the budget counts, still make the rows).
func TestBrowserCheckMyLockOutOfTime(t *testing.T) {
	chromium(t)
	url := startServer(t, server.Options{SetupColumns: mineColumns, SetupTime: time.Millisecond})
	ctx := page(t, startBrowser(t), url)
	load(t, ctx, "your-lock-unconditional-del")
	click(t, ctx, "mine-open")
	click(t, ctx, "report-start-loaded")
	mineDone(t, ctx)
	if got := text(t, ctx, "report-status"); !strings.Contains(got, "time budget of 1ms ran out: 60 cells were not searched (?)") {
		t.Errorf("status %q: want the budget and the cells it stopped", got)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll('[data-testid=report-cell][data-kind=unsearched]').length`); n != 60 {
		t.Errorf("%d cells ?, want 60", n)
	}
	if got := eval[string](t, ctx, cellOf("plain-del", "contention")); got != "unsearched ? not searched" {
		t.Errorf("a stopped cell reads %q", got)
	}
	if got := text(t, ctx, "report-instead"); !strings.HasPrefix(got, "What to use instead: no other lock was searched to the end of every column") {
		t.Errorf("What to use instead reads %q", got)
	}
	shot(t, ctx, artifacts(t), "check-my-lock-out-of-time-en")
}
