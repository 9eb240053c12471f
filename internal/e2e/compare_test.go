package e2e

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/lockstep/lockstep/internal/server"
)

// cursorRow is the row number of a side's cursor in the side-by-side view
// (0 when it has none).
func cursorRow(t *testing.T, ctx context.Context, side string) int {
	t.Helper()
	return eval[int](t, ctx, `(c => c ? +c.closest('tr').dataset.row : 0)(document.querySelector('[data-testid=compare-cursor-`+side+`]'))`)
}

// The canonical pair GET-then-DEL vs Lua, side by side. The view opens on
// the pair (the algorithm preselected), both timelines line up, the first
// row where they part is row 32 (A's release: GET lock on the left, the
// compare-and-delete script on the right, as internal/compare's tests
// work out), with the left's three verdicts and the right's safe. Stepping
// moves both cursors together until the runs part; clicking a row seeks
// the run there; To the end reaches every row. Then in 中文, and for a
// scenario written in the page.
func TestBrowserCompareSideBySide(t *testing.T) {
	chromium(t)
	url := startServer(t, server.Options{})
	ctx := page(t, startBrowser(t), url)
	load(t, ctx, "owner-check-expire-between")
	click(t, ctx, "compare-open")
	waitFor(t, ctx, "the divergence row", `!!document.querySelector('[data-testid=compare-divergence]')`)
	if got := eval[string](t, ctx, `document.querySelector('[data-testid=compare-with]').value`); got != "lua-compare-delete" {
		t.Errorf("the canonical pair should be preselected: got %q", got)
	}
	row := eval[string](t, ctx, `document.querySelector('[data-testid=compare-divergence]').dataset.row`)
	l := eval[string](t, ctx, `document.querySelector('[data-testid=compare-divergence] .cmp-cell.l').textContent`)
	r := eval[string](t, ctx, `document.querySelector('[data-testid=compare-divergence] .cmp-cell.r').textContent`)
	if row != "32" || !strings.HasSuffix(l, "send A -> redis: GET lock") || !strings.Contains(r, "send A -> redis: EVALSHA compare_and_delete.lua") {
		t.Errorf("divergence: row %s, left %q, right %q; want row 32, A's GET lock against its script", row, l, r)
	}
	left, right := text(t, ctx, "compare-verdict-left"), text(t, ctx, "compare-verdict-right")
	for _, v := range []string{"mutual-exclusion", "foreign-unlock", "lost-update"} {
		if !strings.Contains(left, v) {
			t.Errorf("left verdict %q lacks %s", left, v)
		}
	}
	if !strings.Contains(right, "✓ safe") || strings.Contains(right, "mutual-exclusion") {
		t.Errorf("right verdict %q, want safe only", right)
	}
	if !strings.Contains(left, "row ") || strings.Contains(left, "#") {
		t.Errorf("the left verdicts should cite rows, not sequence numbers: %q", left)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll('[data-testid=compare-divergence]').length`); n != 1 {
		t.Errorf("%d rows marked as the divergence, want 1", n)
	}

	// At step 0 only the setup row is reached; each step moves both
	// cursors, together, while the runs are the same.
	if a, b := cursorRow(t, ctx, "left"), cursorRow(t, ctx, "right"); a != 1 || b != 1 {
		t.Errorf("at step 0 the cursors are on rows %d and %d, want 1 and 1", a, b)
	}
	// A render that changes nothing the table shows (presenter mode on and
	// off) keeps the table as it is; the steps below redraw it.
	do(t, ctx, "keep the table", chromedp.Evaluate[chromedp.Void](`window.cmpTable = document.querySelector('.cmp-table')`))
	click(t, ctx, "presenter")
	click(t, ctx, "presenter")
	if !eval[bool](t, ctx, `document.querySelector('.cmp-table') === window.cmpTable`) {
		t.Error("a render that changed nothing the comparison shows rebuilt its table")
	}
	for range 6 {
		step(t, ctx)
	}
	waitFor(t, ctx, "the cursors follow", `+document.querySelector('[data-testid=compare-cursor-left]').closest('tr').dataset.row > 1`)
	a, b := cursorRow(t, ctx, "left"), cursorRow(t, ctx, "right")
	if a <= 1 || a != b {
		t.Errorf("after 6 steps the cursors are on rows %d and %d, want the same row past 1", a, b)
	}

	// Seeking by a click on row 40 moves the run there: the step of that
	// row, and both cursors past the divergence.
	do(t, ctx, "click row 40", chromedp.Click(chromedp.CSS(`tr[data-row="40"] .cmp-cell.l button`)))
	at := eval[int](t, ctx, `lockstep.state.snap.step`)
	waitFor(t, ctx, "the seek", `lockstep.state.snap.step !== `+fmt.Sprint(at)+` || +document.querySelector('[data-testid=compare-cursor-left]').closest('tr').dataset.row >= 40`)
	waitFor(t, ctx, "the cursors at row 40", `+document.querySelector('[data-testid=compare-cursor-left]').closest('tr').dataset.row >= 40 && +document.querySelector('[data-testid=compare-cursor-right]').closest('tr').dataset.row > 32`)
	if n := eval[int](t, ctx, `document.querySelectorAll('.cmp-cell.l.future').length`); n == 0 {
		t.Errorf("at row 40 no left row is still ahead")
	}
	dir := artifacts(t)
	do(t, ctx, "show the divergence", chromedp.Evaluate[chromedp.Void](`document.querySelector('[data-testid=compare-divergence]').scrollIntoView({block: 'center'})`))
	shot(t, ctx, dir, "compare-owner-check-vs-lua-row-40-en")
	click(t, ctx, "end")
	waitFor(t, ctx, "the end", `lockstep.state.snap.ended`)
	waitFor(t, ctx, "every row reached", `document.querySelectorAll('.cmp-cell.future').length === 0`)
	shot(t, ctx, dir, "compare-owner-check-vs-lua-en")

	// 中文: the same view, its words and the verdicts' sentences in Chinese.
	en := text(t, ctx, "compare-status")
	click(t, ctx, "lang")
	waitFor(t, ctx, "中文", `document.documentElement.lang === 'zh-CN'`)
	if zh := text(t, ctx, "compare-status"); zh == en || !strings.Contains(zh, "第 32 行") {
		t.Errorf("the status in 中文: %q (English: %q)", zh, en)
	}
	if zh := text(t, ctx, "compare-verdict-right"); !strings.Contains(zh, "✓ 安全（safe）") || zh == right {
		t.Errorf("the right verdict in 中文: %q", zh)
	}
	if zh := text(t, ctx, "compare-verdict-left"); !strings.Contains(zh, "行") || !strings.Contains(text(t, ctx, "compare-schedule"), "故障按含义放到右侧") {
		t.Errorf("the left verdict or the schedule line in 中文: %q", zh)
	}
	if got := eval[string](t, ctx, `document.querySelector('[data-testid=compare-divergence]').dataset.row`); got != "32" {
		t.Errorf("in 中文 the divergence row is %s, want 32", got)
	}
	shot(t, ctx, dir, "compare-owner-check-vs-lua-zh")
	click(t, ctx, "lang")
	waitFor(t, ctx, "English", `document.getElementById('timeline').dataset.lang === 'en'`)

	// A lesson against another lesson, picked in the view: blind DEL vs
	// compare-and-delete part at A's late release, row 50.
	load(t, ctx, "blind-del-slow-release")
	waitFor(t, ctx, "the pair compared again", `(d => d && d.dataset.row === '50')(document.querySelector('[data-testid=compare-divergence]'))`)
	if got := eval[string](t, ctx, `document.querySelector('[data-testid=compare-with]').value`); got != "lua-cad-slow-release" {
		t.Errorf("the pair's lesson should be preselected: got %q", got)
	}

	// A scenario written in the page: three clients, A paused mid-work.
	click(t, ctx, "compare-close")
	src := "scenarios:\n  - id: three\n    title: {en: \"Three buyers\", zh: \"三个买家\"}\n    seed: 7\n    horizon: 10s\n    data: {stock: \"10\"}\n    clients:\n" +
		"      - {name: A, algorithm: owner-check-get-del, params: {ttl: 1s, retry: 100ms}, work: 900ms}\n" +
		"      - {name: B, algorithm: owner-check-get-del, params: {ttl: 1s, retry: 100ms}, work: 900ms, start: 50ms}\n" +
		"      - {name: C, algorithm: owner-check-get-del, params: {ttl: 1s, retry: 100ms}, work: 900ms, start: 100ms}\n" +
		"    faults:\n      - {at: 800ms, do: pause, client: A, for: 500ms}\n    expect: [mutual-exclusion, lost-update]\n"
	runFile(t, ctx, src, "three")
	click(t, ctx, "compare-open")
	choose(t, ctx, "compare-with", "lua-compare-delete")
	// The page renders before Compare is pressed (here a language change,
	// which rebuilds the picker): the pick stays.
	click(t, ctx, "lang")
	click(t, ctx, "lang")
	if got := eval[string](t, ctx, `document.querySelector('[data-testid=compare-with]').value`); got != "lua-compare-delete" {
		t.Errorf("a render put %q back in the picker over the pick", got)
	}
	click(t, ctx, "compare-go")
	waitFor(t, ctx, "the file compared", `(d => d && /send A -> redis: GET lock$/.test(d.querySelector('.cmp-cell.l').textContent))(document.querySelector('[data-testid=compare-divergence]'))`)
	if right := text(t, ctx, "compare-verdict-right"); !strings.Contains(right, "mutual-exclusion") || !strings.Contains(right, "lost-update") {
		t.Errorf("a pause mid-work breaks Lua too: right verdict %q", right)
	}
	shot(t, ctx, dir, "compare-your-file-en")
}

// The user's file that found the unfair comparison: Lua compare-and-delete,
// 1s TTL, four workers, a 2s pause as W1 enters its critical section.
// Against the watchdog the pause lands as W1 enters there too (the
// watchdog's renewals stop with the process) and the right ends
// mutual-exclusion, never ✓ safe; the fault line says where it was placed.
// A fault with no equivalent point (a pause as A gets its fencing token,
// compared with Lua, which hands out none) is said in a warning in both
// languages, and the right's safe verdict shows ⚠, not ✓.
func TestBrowserCompareFaultsByMeaning(t *testing.T) {
	chromium(t)
	url := startServer(t, server.Options{})
	ctx := page(t, startBrowser(t), url)
	team, err := os.ReadFile("../compare/testdata/team-lock.yaml")
	if err != nil {
		t.Fatal(err)
	}
	runFile(t, ctx, string(team), "team-lock")
	click(t, ctx, "compare-open")
	// The picker: the algorithms by family, in catalog order, and no lesson
	// (none has the clients W1..W4).
	waitFor(t, ctx, "the picker", `document.querySelectorAll('[data-testid=compare-with] optgroup').length > 1`)
	groups := eval[[]string](t, ctx, `[...document.querySelectorAll('[data-testid=compare-with] optgroup')].map(g => g.label)`)
	if len(groups) < 6 || groups[0] != "No lock, or a local one" || groups[len(groups)-1] == "" {
		t.Errorf("picker groups %q", groups)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll('[data-testid=compare-with] optgroup[data-group=lessons]').length`); n != 0 {
		t.Errorf("lessons offered for clients W1..W4: %d groups", n)
	}
	choose(t, ctx, "compare-with", "watchdog")
	click(t, ctx, "compare-go")
	waitFor(t, ctx, "the comparison", `!!document.querySelector('[data-testid=compare-verdict-right] .v')`)
	right := text(t, ctx, "compare-verdict-right")
	if !strings.Contains(right, "mutual-exclusion") || strings.Contains(right, "✓") {
		t.Errorf("watchdog under a pause as W1 enters: right verdict %q, want mutual-exclusion", right)
	}
	if s := text(t, ctx, "compare-schedule"); !strings.Contains(s, "as W1 enters its critical section") || !strings.Contains(s, "(placed)") {
		t.Errorf("the fault line: %q", s)
	}
	if eval[bool](t, ctx, `!document.querySelector('[data-testid=compare-notes]').hidden`) {
		t.Errorf("a fair comparison shows notes: %q", text(t, ctx, "compare-notes"))
	}
	dir := artifacts(t)
	shot(t, ctx, dir, "compare-team-lock-watchdog-en")

	click(t, ctx, "compare-close")
	src := "scenarios:\n  - id: pause-at-token\n    title: {en: \"A pause as A gets its token\", zh: \"A 拿到 token 时停顿\"}\n    seed: 1\n    horizon: 10s\n    storage: {fencing: true}\n    clients:\n" +
		"      - {name: A, algorithm: fencing-token, params: {ttl: 1s}, task: write, work: 100ms}\n" +
		"      - {name: B, algorithm: fencing-token, params: {ttl: 1s}, task: write, work: 100ms, start: 100ms}\n" +
		"    faults:\n      - {on: {kind: mark, name: token, client: A}, do: pause, client: A, for: 2s}\n    expect: [safe]\n"
	runFile(t, ctx, src, "pause-at-token")
	click(t, ctx, "compare-open")
	choose(t, ctx, "compare-with", "lua-compare-delete")
	click(t, ctx, "compare-go")
	waitFor(t, ctx, "the warning", `!document.querySelector('[data-testid=compare-notes]').hidden`)
	notes := text(t, ctx, "compare-notes")
	if !strings.Contains(notes, "Not the same test") || !strings.Contains(notes, "No equivalent point on the right: pause A (2s) at A's token mark") {
		t.Errorf("the warning: %q", notes)
	}
	if right := text(t, ctx, "compare-verdict-right"); !strings.Contains(right, "⚠") || strings.Contains(right, "✓") {
		t.Errorf("the right verdict beside the warning: %q, want ⚠ and no ✓", right)
	}
	if s := text(t, ctx, "compare-schedule"); !strings.Contains(s, "(no equivalent point on the right)") {
		t.Errorf("the fault line: %q", s)
	}
	shot(t, ctx, dir, "compare-no-equivalent-en")
	click(t, ctx, "lang")
	waitFor(t, ctx, "中文", `document.documentElement.lang === 'zh-CN'`)
	if zh := text(t, ctx, "compare-notes"); !strings.Contains(zh, "不是同一个测试") || !strings.Contains(zh, "右侧没有对应的时机") {
		t.Errorf("the warning in 中文: %q", zh)
	}
	// The rows are written in 中文 too (the main timeline's words), each
	// keeping its canonical line for the comparison.
	waitFor(t, ctx, "rows in 中文", `[...document.querySelectorAll('.cmp-cell.r .cmp-text')].some(b => /暂停|停顿|拿到|进入/.test(b.textContent))`)
	if n := eval[int](t, ctx, `[...document.querySelectorAll('.cmp-cell .cmp-text')].filter(b => !b.dataset.text).length`); n != 0 {
		t.Errorf("%d rows without their canonical line", n)
	}
	shot(t, ctx, dir, "compare-no-equivalent-zh")
}
