package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/realredis"
	"github.com/lockstep/lockstep/internal/realredis/redistest"
	"github.com/lockstep/lockstep/internal/server"
	"github.com/lockstep/lockstep/internal/sim"
)

// A browser session on real Redis (serve --redis) runs the lesson on the
// redis-server, says on the page what differs from embedded Redis, and
// ends with the lesson's verdict. The server's own keyspace shows the
// session's keys under its prefix while the session lives.
func TestBrowserOnRealRedis(t *testing.T) {
	chromium(t)
	redis := redistest.Start(t)
	targets, err := realredis.ParseURLs(redis.URL(), false)
	if err != nil {
		t.Fatal(err)
	}
	servers, err := realredis.NewServers(targets, false)
	if err != nil {
		t.Fatal(err)
	}
	url := startServer(t, server.Options{Servers: servers, RealRedis: redis.URL()})
	b := startBrowser(t)
	dir := artifacts(t)

	ctx := tab(t, b, true)
	open(t, ctx, url)
	waitFor(t, ctx, "the real-Redis banner", `!document.querySelector('[data-testid=real-banner]').hidden`)
	banner := text(t, ctx, "real-banner")
	for _, w := range []string{redis.URL(), "Redis' clock", "does not pause Redis", "clock jumps are not applied"} {
		if !strings.Contains(banner, w) {
			t.Errorf("the banner should say %q, got %q", w, banner)
		}
	}
	// A TTL lesson runs on Redis' clock: "To the end" takes the lesson's
	// seconds of real time, over the same socket.
	for _, id := range []string{"blind-del-long-work", "no-lock-oversell"} {
		sc, _ := catalog(t).Find(id)
		load(t, ctx, id)
		click(t, ctx, "end")
		waitFor(t, ctx, "the end of "+id, `lockstep.state.snap.ended`)
		got := eval[[]string](t, ctx, `[...new Set([...document.querySelectorAll('[data-testid=verdict] .v')].map(v => v.dataset.name))]`)
		if want := sc.ExpectOnRealRedis(); !lesson.SameVerdicts(got, want) {
			t.Errorf("%s on real Redis: expected %v, got %v", id, want, got)
		}
	}
	// Redis ran each command at a moment known only between its sending
	// and its reply: the exec event carries the bracket, and its detail
	// says so, in both languages.
	seq := eval[int](t, ctx, `(e => e ? e.seq : -1)(lockstep.state.model.events.find(e => e.kind === 'exec' && e.until > e.t))`)
	if seq < 0 {
		t.Fatal("no exec event on real Redis carries the bracket within which Redis ran it (until)")
	}
	// Its row may be out of view (the timeline shows the end): bring it in.
	do(t, ctx, "show that row", chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`lockstep.timeline.scrollToRow(lockstep.state.model.rowOfSeq.get(%d))`, seq)))
	waitFor(t, ctx, "its row", fmt.Sprintf(`!!document.querySelector('[data-testid=event][data-seq="%d"]')`, seq))
	do(t, ctx, "select an exec event", chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector('[data-testid=event][data-seq="%d"]').click()`, seq)))
	waitFor(t, ctx, "its detail", fmt.Sprintf(`document.querySelector('[data-testid=event-detail]').dataset.seq === '%d'`, seq))
	ns := eval[[]int64](t, ctx, fmt.Sprintf(`(e => [e.t, e.until])(lockstep.state.model.events.find(e => e.seq === %d))`, seq))
	bracket := []string{sim.FormatTime(time.Duration(ns[0])), sim.FormatTime(time.Duration(ns[1]))}
	if d := text(t, ctx, "event-detail"); !strings.Contains(d, "between "+bracket[0]+" and "+bracket[1]) || !strings.Contains(d, "does not say exactly when") {
		t.Errorf("the detail of exec #%d should say it ran between %s and %s, and why; got %q", seq, bracket[0], bracket[1], d)
	}
	click(t, ctx, "lang")
	waitFor(t, ctx, "the detail in Chinese", `document.querySelector('[data-testid=event-detail]').textContent.includes('之间')`)
	if d := text(t, ctx, "event-detail"); !strings.Contains(d, "在 "+bracket[0]+" 到 "+bracket[1]+" 之间") {
		t.Errorf("the Chinese detail of exec #%d should say 在 %s 到 %s 之间, got %q", seq, bracket[0], bracket[1], d)
	}
	shot(t, ctx, dir, "real-redis-zh")
	click(t, ctx, "lang")
	c := redis.Client()
	defer c.Close()
	keys, err := c.Keys(context.Background(), realredis.PrefixRoot+"*").Result()
	if err != nil || len(keys) == 0 || !strings.HasSuffix(keys[0], ":stock") {
		t.Errorf("the session's stock key should be on the real server under %s, got %v (%v)", realredis.PrefixRoot, keys, err)
	}
	click(t, ctx, "lang")
	waitFor(t, ctx, "the banner in Chinese", `document.querySelector('[data-testid=real-banner]').textContent.includes('真实 Redis')`)
	click(t, ctx, "lang")
	shot(t, ctx, dir, "real-redis")

	// The server killed (SIGKILL) in the middle of a run: the run ends
	// with an error event naming it, and the page says so; nothing
	// advances silently.
	load(t, ctx, "blind-del-long-work")
	step(t, ctx)
	step(t, ctx)
	redis.Kill()
	click(t, ctx, "end")
	waitFor(t, ctx, "the error of the dead server", `!!document.querySelector('[data-testid=error]')`)
	if e := text(t, ctx, "error"); !strings.Contains(e, "Redis server stopped answering") || !strings.Contains(e, redis.Addr) {
		t.Errorf("the page should say the Redis server at %s stopped answering, got %q", redis.Addr, e)
	}
	last := eval[string](t, ctx, `(e => e.kind + ' ' + e.text)(lockstep.state.model.events.at(-1))`)
	if !strings.HasPrefix(last, "error ") || !strings.Contains(last, "server-lost") {
		t.Errorf("the run's last event should be the error of the dead server, got %q", last)
	}
	if v := eval[int](t, ctx, `lockstep.state.snap.verdicts.length`); v != 0 {
		t.Errorf("a run cut by a dead server should have no verdict, has %d", v)
	}
	shot(t, ctx, dir, "real-redis-lost")
}
