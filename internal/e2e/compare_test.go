package e2e

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

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
// row where they part is row 33 (A's release: GET lock on the left, the
// compare-and-delete script on the right, as internal/compare's tests
// work out), with the left's three verdicts and the right's safe. Stepping
// moves both cursors together until the runs part; clicking a row seeks
// the run there; To the end reaches every row. Then in 中文, and for a
// scenario written in the page. All in the text form ("Rows as text"; the
// drawn form is TestBrowserCompareDrawn's), which stays on once chosen.
func TestBrowserCompareSideBySide(t *testing.T) {
	chromium(t)
	url := startServer(t, server.Options{})
	ctx := page(t, startBrowser(t), url)
	load(t, ctx, "owner-check-expire-between")
	click(t, ctx, "compare-open")
	click(t, ctx, "compare-text")
	waitFor(t, ctx, "the divergence row", `!!document.querySelector('[data-testid=compare-divergence]')`)
	if got := eval[string](t, ctx, `document.querySelector('[data-testid=compare-with]').value`); got != "lua-compare-delete" {
		t.Errorf("the canonical pair should be preselected: got %q", got)
	}
	row := eval[string](t, ctx, `document.querySelector('[data-testid=compare-divergence]').dataset.row`)
	l := eval[string](t, ctx, `document.querySelector('[data-testid=compare-divergence] .cmp-cell.l').textContent`)
	r := eval[string](t, ctx, `document.querySelector('[data-testid=compare-divergence] .cmp-cell.r').textContent`)
	if row != "33" || !strings.HasSuffix(l, "send A -> redis: GET lock") || !strings.Contains(r, "send A -> redis: EVALSHA compare_and_delete.lua") {
		t.Errorf("divergence: row %s, left %q, right %q; want row 33, A's GET lock against its script", row, l, r)
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
	waitFor(t, ctx, "the cursors at row 40", `+document.querySelector('[data-testid=compare-cursor-left]').closest('tr').dataset.row >= 40 && +document.querySelector('[data-testid=compare-cursor-right]').closest('tr').dataset.row > 33`)
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
	if zh := text(t, ctx, "compare-status"); zh == en || !strings.Contains(zh, "第 33 行") {
		t.Errorf("the status in 中文: %q (English: %q)", zh, en)
	}
	if zh := text(t, ctx, "compare-verdict-right"); !strings.Contains(zh, "✓ 安全（safe）") || zh == right {
		t.Errorf("the right verdict in 中文: %q", zh)
	}
	if zh := text(t, ctx, "compare-verdict-left"); !strings.Contains(zh, "行") || !strings.Contains(text(t, ctx, "compare-schedule"), "故障按含义放到右侧") {
		t.Errorf("the left verdict or the schedule line in 中文: %q", zh)
	}
	if got := eval[string](t, ctx, `document.querySelector('[data-testid=compare-divergence]').dataset.row`); got != "33" {
		t.Errorf("in 中文 the divergence row is %s, want 33", got)
	}
	shot(t, ctx, dir, "compare-owner-check-vs-lua-zh")
	click(t, ctx, "lang")
	waitFor(t, ctx, "English", `document.getElementById('timeline').dataset.lang === 'en'`)

	// A lesson against another lesson, picked in the view: blind DEL vs
	// compare-and-delete part at A's late release, row 52.
	load(t, ctx, "blind-del-slow-release")
	waitFor(t, ctx, "the pair compared again", `(d => d && d.dataset.row === '52')(document.querySelector('[data-testid=compare-divergence]'))`)
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
// languages, above both timelines, and the right's safe verdict shows ⚠,
// not ✓, over its timeline and on its drawn verdict row. At a projector's
// 1280×720.
func TestBrowserCompareFaultsByMeaning(t *testing.T) {
	chromium(t)
	url := startServer(t, server.Options{})
	ctx := page(t, startBrowser(t), url)
	do(t, ctx, "a projector's screen", chromedp.EmulateViewport(1280, 720))
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
	waitFor(t, ctx, "both timelines drawn", `lockstep.compare.drawn().right.some(l => l.role === 'seq')`)
	if !eval[bool](t, ctx, `document.querySelector('[data-testid=compare-notes]').getBoundingClientRect().bottom <= document.querySelector('[data-testid=sbs-scroll]').getBoundingClientRect().top`) {
		t.Error("the warning is not above the timelines")
	}
	var verdictRow string
	for _, l := range sbsAudit(t, ctx)["right"] {
		if l.Role == "verdict" {
			verdictRow = l.Full
		}
	}
	if !strings.HasPrefix(verdictRow, "⚠ safe") {
		t.Errorf("the right's drawn verdict row beside the warning: %q, want ⚠ safe", verdictRow)
	}
	shot(t, ctx, dir, "compare-no-equivalent-en")
	click(t, ctx, "lang")
	waitFor(t, ctx, "中文", `document.documentElement.lang === 'zh-CN'`)
	if zh := text(t, ctx, "compare-notes"); !strings.Contains(zh, "不是同一个测试") || !strings.Contains(zh, "右侧没有对应的时机") {
		t.Errorf("the warning in 中文: %q", zh)
	}
	// The rows are drawn in 中文 too (the main timeline's words), each
	// row's list item keeping its canonical line for the comparison.
	waitFor(t, ctx, "rows in 中文", `document.getElementById('compare-draw').dataset.lang === 'zh' && lockstep.compare.audit().right.some(l => l.role === 'mark' && /拿到|进入|获得/.test(l.full))`)
	if n := eval[int](t, ctx, `[...document.querySelectorAll('[data-testid=sbs-row]')].filter(li => !li.dataset.text).length`); n != 0 {
		t.Errorf("%d rows without their canonical line", n)
	}
	shot(t, ctx, dir, "compare-no-equivalent-zh")
}

// han matches a Chinese character.
var han = regexp.MustCompile(`\p{Han}`)

// sbsLabel is one label of the drawn side by side of the drawn side by side (both timelines
// drawn whole): role, seq (the row number), text, full, y.
type sbsLabel struct {
	Role string  `json:"role"`
	Seq  int     `json:"seq"`
	Text string  `json:"text"`
	Full string  `json:"full"`
	Y    float64 `json:"y"`
	Cut  bool    `json:"cut"`
}

// sbsAudit is both timelines' labels, drawn whole: {left, right}.
func sbsAudit(t *testing.T, ctx context.Context) map[string][]sbsLabel {
	t.Helper()
	return eval[map[string][]sbsLabel](t, ctx, `lockstep.compare.audit()`)
}

// first gives the first label of role at row seq (nil: none).
func first(ls []sbsLabel, role string, seq int) *sbsLabel {
	for i := range ls {
		if ls[i].Role == role && ls[i].Seq == seq {
			return &ls[i]
		}
	}
	return nil
}

// The side by side drawn, the default: GET-then-DEL against Lua (the
// canonical pair) at a projector's 1280×720, both timelines drawn by the
// main renderer. The draw model has every row of each run (its "#n"
// labels are the rows of the server's answer, its commands theirs), the
// mark of the first difference on both sides right above row 33 (A's
// GET lock on the left, the Lua release on the right, as internal/compare
// works out), each side's verdict rows (the left's three, the right's
// safe), and the rows in 中文 in 中文. The keyboard selects a row and
// goes to its moment.
func TestBrowserCompareDrawn(t *testing.T) {
	chromium(t)
	url := startServer(t, server.Options{})
	ctx := page(t, startBrowser(t), url)
	do(t, ctx, "a projector's screen", chromedp.EmulateViewport(1280, 720))
	load(t, ctx, "owner-check-expire-between")
	click(t, ctx, "compare-open")
	waitFor(t, ctx, "both timelines drawn", `+document.getElementById('compare-draw').dataset.rows > 0 && lockstep.compare.drawn().left.length > 0`)
	if eval[bool](t, ctx, `!document.getElementById('compare-body').hidden || !!document.querySelector('.cmp-table')`) {
		t.Error("the text form shows by default")
	}
	for _, s := range []string{"left", "right"} {
		if w := eval[int](t, ctx, `document.querySelector('[data-testid=sbs-canvas-`+s+`]').getBoundingClientRect().width`); w < 500 {
			t.Errorf("the %s timeline is %dpx wide at 1280×720", s, w)
		}
	}
	type answer struct {
		Diverge     int `json:"diverge"`
		Left, Right struct {
			Rows []struct {
				Seq  int      `json:"seq"`
				Kind string   `json:"kind"`
				Cmd  []string `json:"cmd"`
			} `json:"rows"`
		}
	}
	ans := eval[answer](t, ctx, `lockstep.compare.answer()`)
	if ans.Diverge != 32 {
		t.Fatalf("the answer parts at index %d, want 32 (row 33)", ans.Diverge)
	}
	drawn := sbsAudit(t, ctx)
	for side, rows := range map[string]int{"left": len(ans.Left.Rows), "right": len(ans.Right.Rows)} {
		ls := drawn[side]
		for n := 1; n <= rows; n++ {
			if l := first(ls, "seq", n); l == nil || l.Text != fmt.Sprintf("#%d", n) {
				t.Errorf("%s: row %d is not drawn (%v)", side, n, l)
				break
			}
		}
		if l := first(ls, "seq", rows+1); l != nil {
			t.Errorf("%s: a row %d drawn past the run's %d", side, rows+1, rows)
		}
		if l := first(ls, "end", 0); l == nil || l.Text != fmt.Sprintf("(this run ended at row %d)", rows) {
			t.Errorf("%s: below its last row %v", side, l)
		}
		for _, l := range ls {
			if l.Cut && (l.Role == "command" || l.Role == "outcome" || l.Role == "verdict" || l.Role == "diverge") {
				t.Errorf("%s: %s label of row %d cut: %q", side, l.Role, l.Seq, l.Full)
			}
		}
	}
	// The commands drawn are the answer's, row by row.
	for i, r := range ans.Left.Rows {
		if r.Kind != "send" {
			continue
		}
		if l := first(drawn["left"], "command", i+1); l == nil || !strings.Contains(l.Full, r.Cmd[0]) {
			t.Errorf("left row %d: command %v drawn as %v", i+1, r.Cmd, l)
		}
	}
	// The first difference: marked on both sides, right above row 33, where
	// the left sends GET lock and the right its compare-and-delete script.
	for _, s := range []string{"left", "right"} {
		mark, row := first(drawn[s], "diverge", 33), first(drawn[s], "seq", 33)
		if mark == nil || row == nil || mark.Text != "▼ first difference: row 33 ▼" {
			t.Fatalf("%s: the first difference's mark %v over row %v", s, mark, row)
		}
		// Between rows 32 and 33, in a band of its own: clear of both rows'
		// labels by more than half a row (28px).
		prev := first(drawn[s], "seq", 32)
		if prev == nil || mark.Y-prev.Y < 14 || row.Y-mark.Y < 14 || row.Y-mark.Y > 60 {
			t.Errorf("%s: the mark at y %.0f, row 32's label at %v, row 33's at %.0f: want it in a band right above row 33", s, mark.Y, prev, row.Y)
		}
		if n := len(slices.DeleteFunc(slices.Clone(drawn[s]), func(l sbsLabel) bool { return l.Role != "diverge" })); n != 1 {
			t.Errorf("%s: %d first-difference marks", s, n)
		}
	}
	if l, r := first(drawn["left"], "command", 33), first(drawn["right"], "command", 33); l == nil || r == nil || l.Full != "GET lock" || !strings.HasPrefix(r.Full, "EVALSHA compare_and_delete.lua") {
		t.Errorf("row 33: left %v, right %v; want GET lock against the script", l, r)
	}
	// Each side's verdicts: drawn as its last rows and over its timeline.
	verdicts := func(s string) string {
		var out []string
		for _, l := range drawn[s] {
			if l.Role == "verdict" {
				out = append(out, l.Full)
			}
		}
		return strings.Join(out, "\n")
	}
	for _, v := range []string{"✗ mutual-exclusion", "✗ foreign-unlock", "✗ lost-update"} {
		if !strings.Contains(verdicts("left"), v) || !strings.Contains(text(t, ctx, "compare-verdict-left"), strings.TrimPrefix(v, "✗ ")) {
			t.Errorf("left verdicts lack %s: drawn %q", v, verdicts("left"))
		}
	}
	if r := verdicts("right"); !strings.HasPrefix(r, "✓ safe") || strings.Contains(r, "✗") || !strings.Contains(text(t, ctx, "compare-verdict-right"), "✓ safe") {
		t.Errorf("right verdict drawn %q, want safe only", r)
	}
	dir := artifacts(t)
	shot(t, ctx, dir, "sbs-owner-check-vs-lua-step0-en")

	// The first difference, by its button: both lists have row 33 in view,
	// said as the first difference.
	click(t, ctx, "compare-first")
	waitFor(t, ctx, "row 33 in view", `[...document.querySelectorAll('[data-testid=sbs-row][data-first=true]')].map(li => li.dataset.side + li.dataset.row).sort().join() === 'left33,right33'`)
	if s := eval[string](t, ctx, `document.querySelector('[data-testid=sbs-rows-right] li[data-first=true]').textContent`); !strings.HasPrefix(s, "first difference: row 33: #33") || !strings.Contains(s, "EVALSHA compare_and_delete.lua") {
		t.Errorf("the right's row 33 reads %q", s)
	}
	shot(t, ctx, dir, "sbs-owner-check-vs-lua-first-en")

	// The keyboard: the scroller has the focus; ↓ selects row 34, Enter
	// goes there in both runs (the left's row 34 has happened at its step).
	if !eval[bool](t, ctx, `document.activeElement === document.querySelector('[data-testid=sbs-scroll]')`) {
		t.Error("the first difference's button leaves the focus off the timelines")
	}
	do(t, ctx, "↓ and Enter", chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.Enter))
	at := eval[int](t, ctx, `lockstep.compare.answer().left.rows[33].at`)
	waitFor(t, ctx, "the run at row 34", fmt.Sprintf(`lockstep.state.snap.step === %d`, at))
	// Each side's cursor is its last row reached at that step (a step has
	// several rows: the left's row 34 and the ones after it of its step).
	want := eval[string](t, ctx, `(a => ['left', 'right'].map(s => s + a[s].rows.filter(r => r.at <= lockstep.state.snap.step).length).join())(lockstep.compare.answer())`)
	if !strings.HasPrefix(want, "left3") {
		t.Errorf("the cursors should be past row 33: %s", want)
	}
	waitFor(t, ctx, "both cursors at their last row of that step", `[...document.querySelectorAll('[data-testid=sbs-row][data-cursor=true]')].map(li => li.dataset.side + li.dataset.row).sort().join() === '`+want+`'`)
	if n := eval[int](t, ctx, `document.querySelectorAll('[data-testid=sbs-row][data-future=true]').length`); n == 0 {
		t.Error("at row 34 no row is still ahead")
	}
	shot(t, ctx, dir, "sbs-owner-check-vs-lua-row-34-en")

	// 中文: every label of both timelines in the reader's words.
	click(t, ctx, "lang")
	waitFor(t, ctx, "drawn in 中文", `document.getElementById('compare-draw').dataset.lang === 'zh' && lockstep.compare.drawn().left.some(l => l.role === 'diverge' || l.role === 'seq')`)
	drawn = sbsAudit(t, ctx)
	for _, s := range []string{"left", "right"} {
		if mark := first(drawn[s], "diverge", 33); mark == nil || mark.Text != "▼ 第一处不同：第 33 行 ▼" {
			t.Errorf("%s: the mark in 中文: %v", s, mark)
		}
		for _, l := range drawn[s] {
			if (l.Role == "mark" || l.Role == "note" || l.Role == "verdict" || l.Role == "now" || l.Role == "end") && !han.MatchString(l.Full) {
				t.Errorf("%s: a %s label in English in 中文: %q", s, l.Role, l.Full)
			}
		}
	}
	if r := verdicts("right"); !strings.Contains(r, "✓ 安全") {
		t.Errorf("the right's verdict in 中文: %q", r)
	}
	for _, id := range []string{"compare-verdict-left", "compare-status", "compare-first", "compare-text"} {
		if s := text(t, ctx, id); !han.MatchString(s) {
			t.Errorf("%s in 中文: %q", id, s)
		}
	}
	shot(t, ctx, dir, "sbs-owner-check-vs-lua-row-34-zh")
	do(t, ctx, "presenter mode", chromedp.KeyEvent("f"))
	waitFor(t, ctx, "presenter rows", `document.body.classList.contains('presenter')`)
	click(t, ctx, "compare-first")
	shot(t, ctx, dir, "sbs-owner-check-vs-lua-presenter-zh")
	do(t, ctx, "presenter mode off", chromedp.KeyEvent("f"))

	// The text form stays one press away, with the same rows.
	click(t, ctx, "compare-text")
	waitFor(t, ctx, "the text rows", `!!document.querySelector('[data-testid=compare-divergence]') && document.getElementById('compare-draw').hidden`)
	if row := eval[string](t, ctx, `document.querySelector('[data-testid=compare-divergence]').dataset.row`); row != "33" {
		t.Errorf("the text form parts at row %s", row)
	}
	click(t, ctx, "compare-text")
	waitFor(t, ctx, "drawn again", `!document.getElementById('compare-draw').hidden && !document.querySelector('.cmp-table')`)
}

// Stepping keeps both cursors in view when they fit: the right's cursor
// can run rows ahead of the left's (its code takes other commands), and
// the view used to follow the left's alone, leaving the right's below the
// screen (lease-pause-stale-write against the watchdog: at step 4 the
// right's cursor was 8 rows ahead, out of view). Step by step, whenever the
// two cursors are at most 8 rows apart (both fit in the 1280×720 view),
// both sides' "now" lines, drawn right under their cursors, are on screen.
func TestBrowserCompareFollowsBothCursors(t *testing.T) {
	chromium(t)
	url := startServer(t, server.Options{})
	ctx := page(t, startBrowser(t), url)
	do(t, ctx, "a projector's screen", chromedp.EmulateViewport(1280, 720))
	load(t, ctx, "lease-pause-stale-write")
	click(t, ctx, "compare-open")
	waitFor(t, ctx, "the classic pair first", `!!lockstep.compare.answer() && lockstep.compare.drawn().right.length > 0`)
	waitFor(t, ctx, "the watchdog offered", `!!document.querySelector('[data-testid=compare-with] option[value=watchdog]')`)
	choose(t, ctx, "compare-with", "watchdog")
	click(t, ctx, "compare-go")
	waitFor(t, ctx, "the watchdog's timeline drawn", `!!lockstep.compare.answer() && JSON.stringify(lockstep.compare.answer().right.title).includes('watchdog') && lockstep.compare.drawn().right.length > 0`)
	cursors := `(a => ['left', 'right'].map(s => a[s].rows.filter(r => r.at <= lockstep.state.snap.step).length))(lockstep.compare.answer())`
	checked := 0
	for step := 1; step <= 30; step++ {
		click(t, ctx, "step")
		waitFor(t, ctx, fmt.Sprintf("step %d", step), fmt.Sprintf(`lockstep.state.snap.step >= %d`, step))
		time.Sleep(150 * time.Millisecond) // the view scrolls on the next frame
		c := eval[[]int](t, ctx, cursors)
		n := eval[[]int](t, ctx, `(a => [a.left.rows.length, a.right.rows.length])(lockstep.compare.answer())`)
		if c[0] >= n[0] || c[1] >= n[1] || c[0]-c[1] > 8 || c[1]-c[0] > 8 {
			continue // a side at its end draws no now line; too far apart to fit
		}
		checked++
		for _, s := range []string{"left", "right"} {
			if !eval[bool](t, ctx, `lockstep.compare.drawn()['`+s+`'].some(l => l.role === 'now')`) {
				t.Fatalf("step %d: the %s cursor is off screen (rows reached %v)", step, s, c)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no step had both cursors within 8 rows: the test checked nothing")
	}
}
