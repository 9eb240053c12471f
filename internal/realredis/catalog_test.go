package realredis_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/realredis"
	"github.com/lockstep/lockstep/internal/realredis/redistest"
	"github.com/lockstep/lockstep/internal/scenario"
)

// maxNodes is the most nodes a built-in scenario has (Redlock's five).
const maxNodes = 5

// startServers starts n redis-servers, each with the minimal ACL user of
// docs/real-redis.md, and places runs on them as that user.
func startServers(t *testing.T, n int) (*realredis.Servers, []realredis.Target) {
	t.Helper()
	var urls []string
	for _, s := range redistest.StartN(t, n) {
		c := s.Client()
		addACLUser(t, c)
		notifyExpiries(t, c)
		c.Close()
		urls = append(urls, "redis://lockstep:secret@"+s.Addr)
	}
	targets, err := realredis.ParseURLs(strings.Join(urls, ","), false)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := realredis.NewServers(targets, false)
	if err != nil {
		t.Fatal(err)
	}
	return srv, targets
}

// Every built-in lesson ends with the same verdicts on real redis-server
// processes as on embedded Redis. The lessons run at the same time (each
// under its own key prefix), in real time: a real server expires keys on
// its own clock. When they are done, no key is left behind.
func TestCatalogOnRealRedis(t *testing.T) {
	srv, targets := startServers(t, maxNodes)
	f, err := scenario.ParseBuiltin("scenarios.yaml", lockstep.Scenarios)
	if err != nil {
		t.Fatal(err)
	}
	// realredis.ConcurrentRuns at a time (they mostly wait on the wall clock),
	// then one subtest each.
	type result struct {
		got  []string
		log  []string // the run's event lines, kept to explain a verdict that differs
		err  error
		took time.Duration
	}
	results := make([]result, len(f.Scenarios))
	var wg sync.WaitGroup
	slots := make(chan struct{}, realredis.ConcurrentRuns)
	for i := range f.Scenarios {
		wg.Add(1)
		go func() {
			defer wg.Done()
			slots <- struct{}{}
			defer func() { <-slots }()
			sc := &f.Scenarios[i]
			start := time.Now()
			s, err := lesson.New(sc, lesson.Config{Seed: sc.Seed, Servers: srv})
			if err != nil {
				results[i] = result{err: err}
				return
			}
			defer s.Close()
			if err := s.RunToEnd(); err != nil {
				results[i] = result{err: err}
				return
			}
			res := result{got: s.Verdicts(), took: time.Since(start)}
			if !lesson.SameVerdicts(res.got, sc.ExpectOnRealRedis()) {
				for _, e := range s.World.Log() {
					res.log = append(res.log, e.String())
				}
			}
			results[i] = res
		}()
	}
	wg.Wait()
	for i := range f.Scenarios {
		sc, res := &f.Scenarios[i], results[i]
		t.Run(sc.ID, func(t *testing.T) {
			if res.err != nil {
				t.Fatal(res.err)
			}
			want, as := sc.ExpectOnRealRedis(), "as on embedded Redis"
			if sc.RealRedis != nil {
				as = "the scenario's real_redis: " + sc.RealRedis.Why.En
			}
			if !lesson.SameVerdicts(res.got, want) {
				t.Fatalf("on real Redis: verdicts = %v, want %v (%s); the run:\n%s", res.got, want, as, strings.Join(res.log, "\n"))
			}
			t.Logf("%v in %s of real time", res.got, res.took.Round(time.Millisecond))
		})
	}
	for _, tg := range targets {
		tg.Username, tg.Password = "", "" // as the administrator: the lockstep user cannot list keys
		if n, err := realredis.Leftover(tg); err != nil || n != 0 {
			t.Errorf("%s: %d keys left under %s (err %v), want 0", tg.URL, n, realredis.PrefixRoot, err)
		}
	}
}
