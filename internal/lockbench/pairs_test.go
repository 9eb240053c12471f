package lockbench

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
)

// Every contestant makes only correct pairs, also with eight workers on
// one key; a "lock" that takes nothing is caught overlapping, so the count
// of correct pairs means something. (On miniredis over TCP, here; the
// benchmarks run on redis-server.)
func TestContestantsMakeCorrectPairs(t *testing.T) {
	m := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr()})
	t.Cleanup(func() { rdb.Close() })
	ctx := context.Background()
	for _, c := range Contestants {
		for _, w := range Workloads {
			t.Run(c.Name+"/"+w.Name, func(t *testing.T) {
				r := Run(ctx, rdb, c, w, 200, "test:"+c.Name+":"+w.Name)
				if r.Correct != 200 || r.Overlaps != 0 || r.Errors != 0 {
					t.Errorf("want 200 correct pairs, no overlap, no error; got %+v", r)
				}
			})
		}
	}
	none := Contestant{"none", func(*redis.Client, int) Pair {
		return func(_ context.Context, _ string, section func()) error { section(); return nil }
	}}
	r := Run(ctx, rdb, none, Workload{"8-one-key", 8, true}, 20000, "test:none")
	if r.Overlaps == 0 || r.Correct == r.Pairs {
		t.Errorf("no lock at all: want overlaps and pairs not counted, got %+v", r)
	}
}

// BenchmarkLockPairs measures correct acquire+release pairs per second on
// the redis-server at LOCKSTEP_BENCH_REDIS (host:port), for each
// contestant and workload: scripts/bench-locks.sh runs it in alternating
// rounds beside redis-benchmark's ceiling.
func BenchmarkLockPairs(b *testing.B) {
	addr := os.Getenv("LOCKSTEP_BENCH_REDIS")
	if addr == "" {
		b.Skip("set LOCKSTEP_BENCH_REDIS=host:port (scripts/bench-locks.sh does)")
	}
	ctx := context.Background()
	for _, c := range Contestants {
		for _, w := range Workloads {
			b.Run(c.Name+"/"+w.Name, func(b *testing.B) {
				rdb := redis.NewClient(&redis.Options{Addr: addr, PoolSize: 16})
				defer rdb.Close()
				if err := rdb.Ping(ctx).Err(); err != nil {
					b.Fatal(err)
				}
				// warm: connections, and the scripts loaded
				Run(ctx, rdb, c, w, 2*w.Workers, fmt.Sprintf("warm:%s:%s", c.Name, w.Name))
				b.ResetTimer()
				r := Run(ctx, rdb, c, w, b.N, fmt.Sprintf("bench:%s:%s", c.Name, w.Name))
				b.StopTimer()
				if r.Errors > 0 || r.Overlaps > 0 {
					b.Errorf("%d errors (first: %v), %d overlaps", r.Errors, r.FirstErr, r.Overlaps)
				}
				b.ReportMetric(r.PerSecond(), "pairs/s")
				b.ReportMetric(float64(r.Pairs-r.Correct), "incorrect")
			})
		}
	}
}
