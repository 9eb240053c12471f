package explore

import (
	"context"
	"testing"
	"time"

	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/embedded"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
)

// catalog is the built-in lessons.
func catalog(b *testing.B) []scenario.Scenario {
	f, err := scenario.ParseBuiltin("scenarios.yaml", lockstep.Scenarios)
	if err != nil {
		b.Fatal(err)
	}
	return f.Scenarios
}

// BenchmarkCatalogPlainRuns runs every lesson once as visualizer test
// does (full log, narration): one op is the whole catalog.
func BenchmarkCatalogPlainRuns(b *testing.B) {
	scs := catalog(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := range scs {
			r, err := lesson.New(&scs[j], lesson.Config{Seed: scs[j].Seed, Servers: embedded.Servers{}})
			if err == nil {
				err = r.RunToEnd()
				r.Close()
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(scs)*b.N)/b.Elapsed().Seconds(), "runs/s")
}

// BenchmarkCatalogSchedules runs every lesson once as a search runs a
// schedule (no log, no narration, every choice offered to a decider): one
// op is the whole catalog.
func BenchmarkCatalogSchedules(b *testing.B) {
	scs := catalog(b)
	bs := make([]bounds, len(scs))
	for j := range scs {
		var err error
		if bs[j], err = resolve(&scs[j], nil); err != nil {
			b.Fatal(err)
		}
		bs[j].steps = 100000 // as a plain run: to the end
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := range scs {
			if _, err := execute(newPacer(context.Background(), nil), &scs[j], scs[j].Seed, bs[j], firstDecider{}, nil, nil); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(scs)*b.N)/b.Elapsed().Seconds(), "schedules/s")
}

// findCases are the time-to-find-and-shrink targets of docs/performance.md: a lesson
// with its scripted faults removed, a budget, a strategy.
var findCases = []struct {
	name, lesson, budget, strategy string
	clients                        int           // keep only the first clients (0: all)
	horizon                        time.Duration // the search's horizon (0: the lesson's)
}{
	{"no-lock-oversell", "no-lock-oversell", "", Random, 0, 0},
	{"blind-del-long-work", "blind-del-long-work", "", Random, 0, 0},
	{"redlock-clock-jump", "redlock-clock-jump", "clock-jump=3:10s", Random, 0, 4 * time.Second},
	{"lua-cad-pause-exhaustive", "lua-cad-slow-release", "pause:5s", Exhaustive, 2, 0},
}

// BenchmarkFindAndShrink times a whole search from the neutral lesson:
// finding the violation, shrinking it, and replaying the recording with
// the full log through lesson.Session.
func BenchmarkFindAndShrink(b *testing.B) {
	for _, c := range findCases {
		b.Run(c.name, func(b *testing.B) {
			sc := lessonNamed(b, c.lesson, c.budget)
			if c.clients > 0 {
				sc.Clients = sc.Clients[:c.clients]
			}
			sc.Explore.Horizon = scenario.Duration(c.horizon)
			var res *Result
			for i := 0; i < b.N; i++ {
				var err error
				if res, err = Search(context.Background(), sc, Options{Strategy: c.strategy}); err != nil {
					b.Fatal(err)
				}
				if res.Verdict == "" {
					b.Fatalf("nothing found in %d schedules", res.Schedules)
				}
			}
			b.ReportMetric(float64(res.Schedules), "schedules")
			b.ReportMetric(float64(res.Shrinks), "replays")
		})
	}
}
