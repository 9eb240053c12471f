package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/lockstep/lockstep/internal/etcd"
	"github.com/lockstep/lockstep/internal/live"
	"github.com/lockstep/lockstep/internal/server"
)

// A class on an etcd lesson in real Chromium: the teacher opens etcd's
// pause past the lease and starts a class; a student in English and one
// in 中文 join; the teacher plays it to its end and both students' pages
// show the teacher's run, event for event, with the real-time notice in
// their language and the lesson's verdict. Roaming is refused in words,
// in each student's language: a live run has no copy to roam in.
//
// Argued first: the run ends mutual-exclusion (A frozen 3 s inside
// against a 1 s lease; B enters); the students are shown that run.
func TestBrowserClassOnALiveLesson(t *testing.T) {
	chromium(t)
	svc, err := etcd.NewService("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	base := startServer(t, server.Options{Live: []live.Service{svc}})
	browser := startBrowser(t)
	teacher := page(t, browser, base)
	load(t, teacher, "etcd-pause-past-lease")
	click(t, teacher, "start-class")
	waitFor(t, teacher, "the class's code", `!!document.querySelector('[data-testid=class-code]')`)
	code := text(t, teacher, "class-code")
	clickJS(t, teacher, ".class-big button")
	joinAs := func(ctx context.Context, name string) {
		t.Helper()
		click(t, ctx, "join-class")
		choose(t, ctx, "join-code", strings.ToLower(code))
		choose(t, ctx, "nickname", name)
		click(t, ctx, "join")
		waitFor(t, ctx, name+" in the class", `(c => c && c.role === 'student')(lockstep.classroom.cls)`)
	}
	ann := page(t, browser, base)
	joinAs(ann, "Ann")
	zh := page(t, browser, base)
	click(t, zh, "lang")
	waitFor(t, zh, "中文", `lockstep.state.lang === 'zh'`)
	joinAs(zh, "小明")
	click(t, teacher, "end")
	waitFor(t, teacher, "the run's end on etcd", `lockstep.state.snap.ended`)
	for _, s := range []struct {
		name            string
		ctx             context.Context
		notice, verdict string
		refused         string
	}{
		{"Ann", ann, "Real time on a real etcd server", "mutual-exclusion", "cannot be replayed"},
		{"小明", zh, "真实的 etcd 服务器上实时进行", "互斥被打破", "无法重放"},
	} {
		waitFor(t, s.ctx, s.name+" at the run's end", `lockstep.state.snap.ended`)
		sameRun(t, s.ctx, teacher, s.name)
		if n := text(t, s.ctx, "live-banner"); !strings.Contains(n, s.notice) {
			t.Errorf("%s: the notice should say %q, got %q", s.name, s.notice, n)
		}
		if v := text(t, s.ctx, "verdict"); !strings.Contains(v, s.verdict) {
			t.Errorf("%s: the verdict should read %q, got %q", s.name, s.verdict, v)
		}
		click(t, s.ctx, "roam")
		waitFor(t, s.ctx, s.name+"'s roam refused", `(e => e && e.classList.contains('bad'))(document.getElementById('toast'))`)
		if m := eval[string](t, s.ctx, `document.getElementById('toast').textContent`); !strings.Contains(m, s.refused) {
			t.Errorf("%s: the refusal should say %q, got %q", s.name, s.refused, m)
		}
	}
}
