package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/lockstep/lockstep/internal/live"
	"github.com/lockstep/lockstep/internal/server"
	"github.com/lockstep/lockstep/internal/zookeeper"
)

// A ZooKeeper lesson in the browser, in English and then in 中文: listed
// in the picker's group of live lessons, it runs on a real ZooKeeper that
// its first step starts (a JVM), the page says that the run is in real
// time on a real ZooKeeper server, the server's expiry of A's session is a
// row in the page's language, the holder's session drawn as a TTL bar that
// runs down while A is frozen, and the run ends with the lesson's verdicts.
//
// Argued first: in zookeeper-frozen-holder A freezes for 2 s inside with a
// 500 ms session; the server deletes A's node, B enters while A is inside
// (mutual-exclusion), and A's plain write after B's is taken (stale-write),
// every time (the margins are four sessions wide).
func TestBrowserZooKeeperLessonInRealTime(t *testing.T) {
	chromium(t)
	if err := zookeeper.Available(); err != nil {
		t.Skip(err)
	}
	svc, err := zookeeper.NewService("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	url := startServer(t, server.Options{Live: []live.Service{svc}})
	b := startBrowser(t)
	dir := artifacts(t)
	ctx := tab(t, b, true)
	open(t, ctx, url)
	const id = "zookeeper-frozen-holder"
	waitFor(t, ctx, "the ZooKeeper lessons' group", fmt.Sprintf(`!!document.querySelector('#group-live option[value=%q]')`, id))

	for _, lang := range []struct {
		code, notice, verdict, expired, sessionBar string
	}{
		{"en", "Real time on a real ZooKeeper server", "mutual-exclusion", "A's session expired: ZooKeeper deleted job/", "The session's bar is what is left of the holder's ZooKeeper session"},
		{"zh", "真实的 ZooKeeper 服务器上实时进行", "互斥被打破", "A 的会话过期了：ZooKeeper 删除了 job/", "会话条表示持有者的 ZooKeeper 会话还剩多少"},
	} {
		if eval[string](t, ctx, `lockstep.state.lang`) != lang.code {
			click(t, ctx, "lang")
			waitFor(t, ctx, "the page in "+lang.code, fmt.Sprintf(`lockstep.state.lang === %q`, lang.code))
		}
		load(t, ctx, id)
		waitFor(t, ctx, "the real-time notice", `!document.querySelector('[data-testid=live-banner]').hidden`)
		click(t, ctx, "end")
		waitFor(t, ctx, "the run's end on ZooKeeper", `lockstep.state.snap.ended`)
		n := text(t, ctx, "live-banner")
		if !strings.Contains(n, lang.notice) || !strings.Contains(n, "a JVM started by Lockstep") {
			t.Errorf("%s: the notice should say %q and where the server is, got %q", lang.code, lang.notice, n)
		}
		if strings.Contains(n, "lease's bar") || strings.Contains(n, "租约条") || !strings.Contains(n, lang.sessionBar) {
			t.Errorf("%s: ZooKeeper has no lease: the notice should speak of the session's bar (%q), not a lease's: %q", lang.code, lang.sessionBar, n)
		}
		// The session's bar: A's session beside the lock A holds, with its
		// end as A's client last heard; frozen, A hears nothing more, and
		// drawn over rows whose times pass that end it narrows to nothing.
		bar := eval[[]float64](t, ctx, `(() => {
			const m = lockstep.state.model;
			const s = m.spans.findLast((s) => s.type === 'lease' && s.key === 'session' && s.owner === 'A' && s.expire > 0);
			if (!s) return [];
			const r1 = s.r1 ?? m.rows.length - 1;
			return [s.ttl, s.expire * 1e6 - m.rows[s.r0].t, s.expire * 1e6 - m.rows[r1].t];
		})()`)
		if len(bar) != 3 || bar[0] < 0 || bar[0] > 500 || bar[2] >= bar[1] {
			t.Errorf("%s: A's session should be a TTL bar of at most 500ms that runs down over its rows, got %v", lang.code, bar)
		}
		if v := text(t, ctx, "verdict"); !strings.Contains(v, lang.verdict) {
			t.Errorf("%s: the verdict should read %q, got %q", lang.code, lang.verdict, v)
		}
		got := eval[[]string](t, ctx, `lockstep.state.snap.verdicts`)
		if !slices.Equal(got, []string{"mutual-exclusion", "stale-write"}) {
			t.Errorf("%s: the run's verdicts should be [mutual-exclusion stale-write], got %v", lang.code, got)
		}
		seq := eval[int](t, ctx, `(e => e ? e.seq : -1)(lockstep.state.model.rows.find((e) => e.kind === 'expire'))`)
		do(t, ctx, "show the expiry's row", chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`lockstep.timeline.scrollToRow(lockstep.state.model.rowOfSeq.get(%d))`, seq)))
		row := fmt.Sprintf(`[data-testid=event][data-seq="%d"]`, seq)
		waitFor(t, ctx, "the expiry's row", fmt.Sprintf(`!!document.querySelector('%s')`, row))
		if r := eval[string](t, ctx, fmt.Sprintf(`document.querySelector('%s').textContent`, row)); !strings.Contains(r, lang.expired) {
			t.Errorf("%s: the expiry's row should say %q, got %q", lang.code, lang.expired, r)
		}
		shot(t, ctx, dir, "zookeeper-"+lang.code)
	}
}

// On a machine without Java the picker still lists the ZooKeeper lessons,
// each saying that it needs Java (its tip, what to install), in both
// languages, before anything is started; the first step says the same.
func TestBrowserZooKeeperWithoutJavaSaysSo(t *testing.T) {
	chromium(t)
	b := startBrowser(t) // Chromium is found on the PATH before it goes
	t.Setenv("PATH", t.TempDir())
	svc, err := zookeeper.NewService("")
	if err != nil {
		t.Fatal(err)
	}
	url := startServer(t, server.Options{Live: []live.Service{svc}})
	ctx := tab(t, b, true)
	open(t, ctx, url)
	const id = "zookeeper-two-workers"
	opt := fmt.Sprintf(`document.querySelector('#group-live option[value=%q]')`, id)
	waitFor(t, ctx, "the ZooKeeper lessons' group", "!!"+opt)
	for _, lang := range []struct{ code, needs, tip string }{
		{"en", " — needs Java", "apt-get install default-jre-headless libzookeeper-java"},
		{"zh", " — 需要 Java", "它需要 Java：apt-get install"},
	} {
		if eval[string](t, ctx, `lockstep.state.lang`) != lang.code {
			click(t, ctx, "lang")
			waitFor(t, ctx, "the page in "+lang.code, fmt.Sprintf(`lockstep.state.lang === %q`, lang.code))
		}
		waitFor(t, ctx, lang.code+": the option's words", fmt.Sprintf(`%s.textContent.endsWith(%q)`, opt, lang.needs))
		if tip := eval[string](t, ctx, opt+".title"); !strings.Contains(tip, lang.tip) {
			t.Errorf("%s: the option's tip should say what to install (%q), got %q", lang.code, lang.tip, tip)
		}
	}
	if svc.Startup() != 0 {
		t.Error("listing the lessons started a server")
	}
}
