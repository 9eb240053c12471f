package e2e

import (
	"strings"
	"testing"

	"github.com/lockstep/lockstep/internal/etcd"
	"github.com/lockstep/lockstep/internal/live"
	"github.com/lockstep/lockstep/internal/server"
)

// runOf is what a receiver of a live run's link must be shown as the
// sender saw it: the lesson, the cursor, each event's line and wall-clock
// stamp, the verdicts, where and when it ran.
const runOf = `JSON.stringify({
	scenario: lockstep.state.snap.scenario, step: lockstep.state.snap.step,
	log: lockstep.state.model.events.map(e => e.t + ' ' + e.text).join('\n'),
	verdicts: lockstep.state.snap.verdicts, server: lockstep.state.snap.live.server, at: lockstep.state.snap.live.at,
})`

// A live run shared by its link, in English and in 中文: the sender runs
// etcd-plain-put to its end and copies the link; a fresh browser opening
// it is shown exactly that run — the same events with the same
// milliseconds, the same verdicts, the same server and start — marked as
// a recorded run (the real-time notice, which speaks of a run now, is
// hidden), not a run started again. Run it again then starts a new run in
// real time, said to be one, which ends at the same verdict (argued: A's
// plain Put after its 1 s lease ended under a 3 s pause is taken by the
// store, stale-write, every run), with milliseconds of its own. Before
// this the link opened the lesson unstarted.
func TestBrowserLiveRunSharedAsRecorded(t *testing.T) {
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
	const id = "etcd-plain-put"
	load(t, ctx, id)
	click(t, ctx, "end")
	waitFor(t, ctx, "the run's end on etcd", `lockstep.state.snap.ended`)
	if v := eval[[]string](t, ctx, `lockstep.state.snap.verdicts`); strings.Join(v, ",") != "stale-write" {
		t.Fatalf("the sender's run should end stale-write, got %v", v)
	}
	sent := eval[string](t, ctx, runOf)
	for _, lang := range []struct{ code, recorded, again, button string }{
		{"en", "A recorded run, not a run now", "A new run in real time, not the recording", "Run it again"},
		{"zh", "这是一次录下的运行，不是现在的运行", "这是一次新的实时运行，不是那次录制", "重新运行"},
	} {
		if eval[string](t, ctx, `lockstep.state.lang`) != lang.code {
			click(t, ctx, "lang")
			waitFor(t, ctx, "the page in "+lang.code, `lockstep.state.lang === '`+lang.code+`'`)
		}
		// the recording comes once the run has ended: the link carries it then
		waitFor(t, ctx, "the link with the run's recording", `(() => {
			document.querySelector('[data-testid=share-link]').click();
			const h = document.querySelector('[data-testid=share-link]').href.split('#run=')[1] || '';
			const b = atob(h.replace(/-/g, '+').replace(/_/g, '/'));
			return JSON.parse(new TextDecoder().decode(Uint8Array.from(b, (c) => c.charCodeAt(0)))).r !== undefined;
		})()`)
		link := eval[string](t, ctx, `document.querySelector('[data-testid=share-link]').href`)
		t.Logf("%s: the link is %d characters", lang.code, len(link))

		rx := page(t, b, link)
		waitFor(t, rx, "the recorded run", `!!lockstep.state.snap && lockstep.state.snap.live && lockstep.state.snap.live.recorded && lockstep.state.model.events.length > 0`)
		if got := eval[string](t, rx, runOf); got != sent {
			t.Errorf("%s: the receiver should be shown the sender's run\nwant %s\ngot  %s", lang.code, sent, got)
		}
		waitFor(t, rx, "the recorded notice", `!document.querySelector('[data-testid=live-recorded]').hidden`)
		notice := text(t, rx, "live-recorded-text")
		if !strings.Contains(notice, lang.recorded) || !strings.Contains(notice, "embedded etcd v3.7.3 at 127.0.0.1:") {
			t.Errorf("%s: the notice should say the run is recorded, and where it ran, got %q", lang.code, notice)
		}
		if !eval[bool](t, rx, `document.querySelector('[data-testid=live-banner]').hidden`) {
			t.Errorf("%s: the real-time notice (a run now) should be hidden on a recording", lang.code)
		}
		if b := text(t, rx, "live-again"); b != lang.button {
			t.Errorf("%s: the button should read %q, got %q", lang.code, lang.button, b)
		}
		shot(t, rx, dir, "live-recorded-"+lang.code)
		if lang.code != "zh" {
			continue
		}
		click(t, rx, "live-again")
		waitFor(t, rx, "a new run", `!lockstep.state.snap.live.recorded && lockstep.state.snap.live.again && lockstep.state.snap.step === 0`)
		if n := text(t, rx, "live-recorded-text"); !strings.Contains(n, lang.again) {
			t.Errorf("%s: the notice should say this is a new run, got %q", lang.code, n)
		}
		click(t, rx, "end")
		waitFor(t, rx, "the new run's end", `lockstep.state.snap.ended`)
		if v := eval[[]string](t, rx, `lockstep.state.snap.verdicts`); strings.Join(v, ",") != "stale-write" {
			t.Errorf("the new run should end at the recording's verdict, stale-write, got %v", v)
		}
		if eval[string](t, rx, `lockstep.state.snap.live.at`) == eval[string](t, ctx, `lockstep.state.snap.live.at`) {
			t.Error("the new run should have a start of its own")
		}
	}
}
