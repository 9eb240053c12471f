package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/realredis"
	"github.com/lockstep/lockstep/internal/realredis/redistest"
	"github.com/lockstep/lockstep/internal/server"
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
}
