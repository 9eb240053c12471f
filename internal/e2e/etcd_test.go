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

// An etcd lesson in the browser, in English and then in 中文: listed in
// its own group of the picker, it runs on the embedded etcd (started by
// its first run), the page says plainly that the run is in real time on a
// real etcd server and not on the virtual clock, the lock's lease is drawn
// as a TTL bar that runs down while its holder is frozen, the rows are the
// clients' gRPC traffic and the server's expiry in the page's language,
// and the run ends with the lesson's verdict.
//
// Argued first: in etcd-pause-past-lease A freezes for 3 s holding a 1 s
// lease; the server deletes A's key and B enters while A is inside, so
// the verdict is mutual-exclusion, every time (docs/services.md's series).
func TestBrowserEtcdLessonInRealTime(t *testing.T) {
	chromium(t)
	svc, err := etcd.NewService("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	url := startServer(t, server.Options{Live: []live.Service{svc}})
	b := startBrowser(t)
	dir := artifacts(t)
	ctx := tab(t, b, true)
	open(t, ctx, url)
	const id = "etcd-pause-past-lease"
	waitFor(t, ctx, "the etcd lessons' group", fmt.Sprintf(`!!document.querySelector('#group-live option[value=%q]')`, id))

	for _, lang := range []struct {
		code, group, notice, verdict, expired, notStarted, leaseBar string
	}{
		{"en", "On a live server, in real time", "Real time on a real etcd server", "mutual-exclusion", "the lease of A's session ended", "it starts with your first step", "The lease's bar is what is left"},
		{"zh", "在真实服务器上，实时运行", "真实的 etcd 服务器上实时进行", "互斥被打破", "A 的会话租约结束", "从你走第一步时启动", "租约条表示"},
	} {
		if eval[string](t, ctx, `lockstep.state.lang`) != lang.code {
			click(t, ctx, "lang")
			waitFor(t, ctx, "the page in "+lang.code, fmt.Sprintf(`lockstep.state.lang === %q`, lang.code))
		}
		load(t, ctx, id)
		if g := eval[string](t, ctx, `document.getElementById('group-live').label`); g != lang.group {
			t.Errorf("%s: the picker's group of live lessons should be %q, got %q", lang.code, lang.group, g)
		}
		waitFor(t, ctx, "the real-time notice", `!document.querySelector('[data-testid=live-banner]').hidden`)
		if n := text(t, ctx, "live-banner"); !strings.Contains(n, lang.notice) || !strings.Contains(n, lang.notStarted) {
			t.Errorf("%s: before the first step the notice should say %q and %q, got %q", lang.code, lang.notice, lang.notStarted, n)
		}
		click(t, ctx, "end")
		waitFor(t, ctx, "the run's end on etcd", `lockstep.state.snap.ended`)
		notice := text(t, ctx, "live-banner")
		for _, w := range []string{lang.notice, "embedded etcd v3.7.3 at 127.0.0.1:", lang.leaseBar} {
			if !strings.Contains(notice, w) {
				t.Errorf("%s: the notice should say %q, got %q", lang.code, w, notice)
			}
		}
		if lang.code == "en" && !strings.Contains(notice, "not the virtual clock") {
			t.Errorf("the notice should say the run is not on the virtual clock, got %q", notice)
		}
		if lang.code == "zh" && !strings.Contains(notice, "不是虚拟时钟") {
			t.Errorf("the Chinese notice should say 不是虚拟时钟, got %q", notice)
		}
		if v := text(t, ctx, "verdict"); !strings.Contains(v, lang.verdict) {
			t.Errorf("%s: the verdict should read %q, got %q", lang.code, lang.verdict, v)
		}
		got := eval[[]string](t, ctx, `lockstep.state.snap.verdicts`)
		if len(got) != 1 || got[0] != "mutual-exclusion" {
			t.Errorf("%s: the run's verdicts should be [mutual-exclusion], got %v", lang.code, got)
		}
		// The lease's bar: the lock held by A, with the end of A's lease;
		// drawn over rows whose times pass that end, it narrows to nothing.
		bar := eval[[]float64](t, ctx, `(() => {
			const m = lockstep.state.model;
			const s = m.spans.findLast((s) => s.type === 'lease' && s.key === 'job' && s.owner === 'A' && s.expire > 0);
			if (!s) return [];
			const r1 = s.r1 ?? m.rows.length - 1;
			return [s.ttl, s.expire * 1e6 - m.rows[s.r0].t, s.expire * 1e6 - m.rows[r1].t];
		})()`)
		if len(bar) != 3 || bar[0] <= 0 || bar[0] > 1000 || bar[1] <= 0 || bar[2] >= bar[1] {
			t.Errorf("%s: A's lease should be a TTL bar of at most 1s that runs down over its rows, got %v", lang.code, bar)
		}
		// The rows: the clients' gRPC traffic, the server's expiry of A's
		// lease, A's Session.Done, in the page's language.
		kinds := eval[[]string](t, ctx, `[...new Set(lockstep.state.model.rows.map((e) => e.kind))]`)
		for _, k := range []string{"send", "reply", "push", "exec", "expire", "mark", "fault", "verdict"} {
			if !strings.Contains(strings.Join(kinds, " "), k) {
				t.Errorf("%s: the timeline should have %s rows, has %v", lang.code, k, kinds)
			}
		}
		seq := eval[int](t, ctx, `(e => e ? e.seq : -1)(lockstep.state.model.rows.find((e) => e.kind === 'expire'))`)
		do(t, ctx, "show the expiry's row", chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`lockstep.timeline.scrollToRow(lockstep.state.model.rowOfSeq.get(%d))`, seq)))
		row := fmt.Sprintf(`[data-testid=event][data-seq="%d"]`, seq)
		waitFor(t, ctx, "the expiry's row", fmt.Sprintf(`!!document.querySelector('%s')`, row))
		if r := eval[string](t, ctx, fmt.Sprintf(`document.querySelector('%s').textContent`, row)); !strings.Contains(r, lang.expired) {
			t.Errorf("%s: the expiry's row should say %q, got %q", lang.code, lang.expired, r)
		}
		// The keys panel at A's hold: the lock's TTL as a meter, less than
		// full (A's lease is not renewed while it is frozen).
		at := eval[int](t, ctx, `lockstep.state.model.rows.findIndex((e) => e.kind === 'exec' && e.client === 'B')`)
		do(t, ctx, "seek to B's queueing", chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`lockstep.link.send('seek', { step: %d })`, at+1)))
		waitFor(t, ctx, "the cursor there", fmt.Sprintf(`lockstep.state.snap.step === %d`, at+1))
		meter := eval[[]float64](t, ctx, `(m => m ? [m.value, m.max] : [])(document.querySelector('[data-testid=keys] tr[data-key=job] meter'))`)
		if len(meter) != 2 || !(meter[0] > 0 && meter[0] < meter[1]) {
			t.Errorf("%s: the lock's TTL meter while A is frozen should be part full, got %v", lang.code, meter)
		}
		shot(t, ctx, dir, "etcd-"+lang.code)
	}
}

// The lock code view on an etcd lesson shows the Mutex's own source, as
// compiled in: at A's first Txn it lights tryAcquire's client.Txn line of
// go.etcd.io/etcd/client/v3's concurrency/mutex.go, with Lock as its
// caller; at a keep-alive, NewSession's KeepAlive in session.go.
func TestBrowserEtcdLessonShowsTheMutexsCode(t *testing.T) {
	chromium(t)
	svc, err := etcd.NewService("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	url := startServer(t, server.Options{Live: []live.Service{svc}})
	ctx := page(t, startBrowser(t), url)
	do(t, ctx, "a laptop", chromedp.EmulateViewport(1400, 900))
	load(t, ctx, "etcd-two-workers")
	click(t, ctx, "end")
	waitFor(t, ctx, "the run's end on etcd", `lockstep.state.snap.ended`)
	for _, c := range []struct{ cmd, line, file, frames string }{
		{"Txn", "client.Txn(ctx)", "mutex.go", "(*Mutex).tryAcquire (etcd/mutex.go:"},
		{"LeaseKeepAlive", "client.KeepAlive(ctx, id)", "session.go", ""},
	} {
		seq := eval[int](t, ctx, fmt.Sprintf(`(e => e ? e.seq : -1)(lockstep.state.model.rows.find((e) => e.kind === 'send' && e.client === 'A' && e.cmd[0] === %q))`, c.cmd))
		if seq < 0 {
			t.Fatalf("no send of A's %s", c.cmd)
		}
		do(t, ctx, "show A's "+c.cmd, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`lockstep.timeline.scrollToRow(lockstep.state.model.rowOfSeq.get(%d))`, seq)))
		row := fmt.Sprintf(`[data-testid=event][data-seq="%d"]`, seq)
		waitFor(t, ctx, "A's "+c.cmd+" row", fmt.Sprintf(`!!document.querySelector('%s')`, row))
		do(t, ctx, "select it", chromedp.Click(chromedp.CSS(row)))
		waitFor(t, ctx, "the lit line of "+c.file, fmt.Sprintf(`(l => l && l.textContent.includes(%q))(document.querySelector('[data-testid=code-line-active]'))`, c.line))
		head := eval[string](t, ctx, `document.querySelector('[data-testid=code-line-active]').closest('.code-pane').querySelector('.code-file').textContent`)
		if !strings.Contains(head, "go.etcd.io/etcd/client/v3") || !strings.Contains(head, "v3.7.3") || !strings.Contains(head, c.file) {
			t.Errorf("%s: the pane should name the module, its version and %s, got %q", c.cmd, c.file, head)
		}
		if c.frames != "" {
			if f := eval[string](t, ctx, `(p => p ? p.textContent : '')(document.querySelector('.code-frames'))`); !strings.Contains(f, c.frames) || !strings.Contains(f, "(*Mutex).Lock") {
				t.Errorf("%s: the call's frames should read %q ← (*Mutex).Lock, got %q", c.cmd, c.frames, f)
			}
		}
	}
	shot(t, ctx, artifacts(t), "etcd-code")
}
