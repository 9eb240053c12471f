package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/lockstep/lockstep/internal/etcd"
	"github.com/lockstep/lockstep/internal/live"
	"github.com/lockstep/lockstep/internal/server"
)

// A live etcd lesson side by side with the Redis lesson of the same
// workload, in English and then in 中文: the picker offers the lessons
// alike first, the view draws the etcd run's recorded log beside the
// Redis run, says above them that the etcd side ran in real time (the
// verdicts compare, not the milliseconds; stepping back shows the
// recorded log), marks A's pause as met alike on the right, and stepping
// back on the live side moves its cursor through its recorded log.
//
// Argued first: etcd-pause-past-lease ends mutual-exclusion (A frozen 3 s
// inside against a 1 s lease, B enters); lease-pause-stale-write, run as
// it is, ends mutual-exclusion and stale-write (A frozen 5 s as it enters,
// a 3 s TTL, B writes, then A writes); both pause A as it enters.
func TestBrowserLiveSideBySide(t *testing.T) {
	chromium(t)
	svc, err := etcd.NewService("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	url := startServer(t, server.Options{Live: []live.Service{svc}})
	ctx := page(t, startBrowser(t), url)
	do(t, ctx, "a laptop", chromedp.EmulateViewport(1400, 900))
	const id, with = "etcd-pause-past-lease", "lease-pause-stale-write"
	load(t, ctx, id)
	click(t, ctx, "end")
	waitFor(t, ctx, "the run's end on etcd", `lockstep.state.snap.ended`)
	click(t, ctx, "compare-open")
	click(t, ctx, "compare-text")
	waitFor(t, ctx, "the lessons alike in the picker", fmt.Sprintf(`!!document.querySelector('[data-testid=compare-with] optgroup[data-group=alike] option[value=%q]')`, with))
	// ZooKeeper is not a service of this server: its lesson alike is not offered.
	if eval[bool](t, ctx, `!!document.querySelector('[data-testid=compare-with] option[value="zookeeper-frozen-holder"]')`) {
		t.Error("the picker should offer only lessons this server has")
	}
	choose(t, ctx, "compare-with", with)
	click(t, ctx, "compare-go")
	waitFor(t, ctx, "the two sides", `!!document.querySelector('[data-testid=compare-live]') && !!document.querySelector('[data-testid=compare-verdict-right]')`)

	for _, lang := range []struct {
		code, realTime, verdictLevel, byMarks, mutex, stale, placed string
	}{
		{"en", "left ran in real time on a live etcd server", "verdict level, not by the milliseconds", "line up by the clients' marks", "mutual-exclusion", "stale-write", "(placed)"},
		{"zh", "左侧在真实的 etcd 服务器上实时运行", "应比较结论，而不是毫秒", "按客户端的标记", "互斥被打破", "过期写入", "（已施加）"},
	} {
		if eval[string](t, ctx, `lockstep.state.lang`) != lang.code {
			click(t, ctx, "lang")
			waitFor(t, ctx, "the page in "+lang.code, fmt.Sprintf(`lockstep.state.lang === %q`, lang.code))
		}
		notes := eval[string](t, ctx, `[...document.querySelectorAll('[data-testid=compare-live]')].map((p) => p.textContent).join(' | ')`)
		for _, w := range []string{lang.realTime, lang.verdictLevel, lang.byMarks} {
			if !strings.Contains(notes, w) {
				t.Errorf("%s: the view should say %q, got %q", lang.code, w, notes)
			}
		}
		if eval[bool](t, ctx, `document.querySelector('[data-testid=compare-notes]').hidden`) {
			t.Errorf("%s: the notes on real time should be shown", lang.code)
		}
		left, right := text(t, ctx, "compare-verdict-left"), text(t, ctx, "compare-verdict-right")
		if !strings.Contains(left, lang.mutex) || strings.Contains(left, lang.stale) {
			t.Errorf("%s: the etcd side's verdict should be %s only, got %q", lang.code, lang.mutex, left)
		}
		if !strings.Contains(right, lang.mutex) || !strings.Contains(right, lang.stale) {
			t.Errorf("%s: the Redis side's verdicts should be %s and %s, got %q", lang.code, lang.mutex, lang.stale, right)
		}
		if s := text(t, ctx, "compare-schedule"); !strings.Contains(s, lang.placed) {
			t.Errorf("%s: A's pause should be met alike on the right, got %q", lang.code, s)
		}
	}
	// Stepping back on the live side is its recorded log: at step 10 its
	// cursor is on row 10 (each event a row), and the right's is not past
	// the row of A's entry, reached only when the left reaches A's entry.
	do(t, ctx, "seek to step 10", chromedp.Evaluate[chromedp.Void](`lockstep.link.send('seek', { step: 10 })`))
	waitFor(t, ctx, "the cursor at 10", `lockstep.state.snap.step === 10`)
	waitFor(t, ctx, "the left's cursor on row 10", `(c => c && c.closest('tr').dataset.row === '10')(document.querySelector('[data-testid=compare-cursor-left]'))`)
	if eval[bool](t, ctx, `lockstep.state.snap.ended`) {
		t.Error("a step back on the recorded log should leave its end")
	}
	shot(t, ctx, artifacts(t), "compare-live")
}
