package sim_test

import (
	"context"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/lockstep/lockstep/internal/embedded"
	"github.com/lockstep/lockstep/internal/sim"
)

// BenchmarkEngineStepNoLog is BenchmarkEngineStepInRuns with the event log
// off (Config.NoLog), as a schedule search runs its worlds: the events are
// still made, with their key states, and shown to watchers (the checker),
// but not kept.
func BenchmarkEngineStepNoLog(b *testing.B) {
	const perRun = 1000
	for _, bc := range benchCmds {
		b.Run(bc.name, func(b *testing.B) {
			var cpu cpuClock
			b.ReportAllocs()
			b.StopTimer()
			for left := b.N; left > 0; left -= perRun {
				w, done := benchWorldNoLog(b, bc.do, min(left, perRun))
				b.StartTimer()
				cpu.start()
				for w.Step() {
				}
				cpu.stop()
				b.StopTimer()
				if *done == nil || (*done).Failed() || len(w.Log()) != 0 {
					b.Fatalf("client ended with %v; %d events logged", *done, len(w.Log()))
				}
				w.Close()
			}
			cpu.report(b)
		})
	}
}

// benchWorldNoLog is benchWorld with no log; done will hold the client's
// done event. The watcher looks at every event, as the checker does, and
// keeps only that one: the benchmark times the engine, not a copy of each
// event.
func benchWorldNoLog(b *testing.B, do func(context.Context, *redis.Client) error, n int) (*sim.World, **sim.Event) {
	w := sim.New(sim.Config{Seed: 1, MaxSteps: 1 << 62, Horizon: 1 << 62, NoLog: true})
	done := new(*sim.Event)
	w.Watch(func(e *sim.Event) {
		if e.Kind == sim.KindDone {
			c := *e
			*done = &c
		}
	})
	node := embedded.New(1)
	_ = node.Server().Set("k", "v")
	w.AddNodeOn("redis", node)
	w.AddClient("A", func(ctx context.Context, p *sim.Proc) error {
		c := p.Redis("redis")
		for i := 0; i <= n; i++ {
			if err := do(ctx, c); err != nil {
				return err
			}
		}
		return nil
	}, sim.ClientOptions{})
	for w.Step() && w.Steps() < 4 {
	}
	return w, done
}
