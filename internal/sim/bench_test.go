package sim_test

import (
	"context"
	"net"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/lockstep/lockstep/internal/embedded"
	"github.com/lockstep/lockstep/internal/sim"
)

// benchScript is a compare-and-delete of the kind the catalog runs.
var benchScript = redis.NewScript(`if redis.call('get', KEYS[1]) == ARGV[1] then return 1 else return 0 end`)

// benchCmds are the commands both benchmarks time, one per sub-benchmark.
var benchCmds = []struct {
	name string
	do   func(ctx context.Context, c *redis.Client) error
}{
	{"get", func(ctx context.Context, c *redis.Client) error { return c.Get(ctx, "k").Err() }},
	{"set", func(ctx context.Context, c *redis.Client) error { return c.Set(ctx, "k", "v", 0).Err() }},
	{"evalsha", func(ctx context.Context, c *redis.Client) error {
		return benchScript.Run(ctx, c, []string{"k"}, "v").Err()
	}},
}

// BenchmarkRawRoundTrip is the baseline: go-redis to miniredis over the
// engine's in-memory connection (embedded.Backend.Dial: each command runs
// on the caller's goroutine), with the engine's client options, no engine.
func BenchmarkRawRoundTrip(b *testing.B) {
	for _, bc := range benchCmds {
		b.Run(bc.name, func(b *testing.B) {
			be := embedded.New(1)
			defer be.Close()
			_ = be.Server().Set("k", "v")
			c := redis.NewClient(sim.EngineClientOptions(func(context.Context, string, string) (net.Conn, error) { return be.Dial() }))
			defer c.Close()
			ctx := context.Background()
			if err := bc.do(ctx, c); err != nil {
				b.Fatal(err)
			}
			var cpu cpuClock
			b.ReportAllocs()
			b.ResetTimer()
			cpu.start()
			for i := 0; i < b.N; i++ {
				if err := bc.do(ctx, c); err != nil {
					b.Fatal(err)
				}
			}
			cpu.stop()
			b.StopTimer()
			cpu.report(b)
		})
	}
}

// BenchmarkEngineStep is the engine's cost per scheduled command: one
// client issues the command in a loop; each iteration is its send, exec
// (on the node, with the key state recorded) and reply events, with the
// hand-offs between the engine and the client thread. All b.N commands
// run in one world, whose log keeps every event: with b.N in the hundreds
// of thousands the garbage collector's scans of that log weigh on the
// figure (BenchmarkEngineStepInRuns is the size of a lesson).
func BenchmarkEngineStep(b *testing.B) {
	for _, bc := range benchCmds {
		b.Run(bc.name, func(b *testing.B) {
			w := benchWorld(b, bc.do, b.N)
			defer w.Close()
			var cpu cpuClock
			b.ReportAllocs()
			b.ResetTimer()
			cpu.start()
			for w.Step() {
			}
			cpu.stop()
			b.StopTimer()
			checkDone(b, w)
			cpu.report(b)
		})
	}
}

// BenchmarkEngineStepInRuns is BenchmarkEngineStep in worlds of at most
// 1,000 commands (3,000 events, more than any built-in lesson logs), as
// lessons, sessions and explorations run: making each world is not timed.
func BenchmarkEngineStepInRuns(b *testing.B) {
	const perRun = 1000
	for _, bc := range benchCmds {
		b.Run(bc.name, func(b *testing.B) {
			var cpu cpuClock
			b.ReportAllocs()
			b.StopTimer()
			for left := b.N; left > 0; left -= perRun {
				w := benchWorld(b, bc.do, min(left, perRun))
				b.StartTimer()
				cpu.start()
				for w.Step() {
				}
				cpu.stop()
				b.StopTimer()
				checkDone(b, w)
				w.Close()
			}
			cpu.report(b)
		})
	}
}

// benchWorld is a world with one node and one client that will send n
// commands made by do (and one more first, which opens its connection and
// loads its script), stepped past that first command.
func benchWorld(b *testing.B, do func(context.Context, *redis.Client) error, n int) *sim.World {
	w := sim.New(sim.Config{Seed: 1, MaxSteps: 1 << 62, Horizon: 1 << 62})
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
	for w.Step() && w.Steps() < 4 { // start, first command (dial, script load)
	}
	return w
}

// checkDone fails the benchmark unless the client sent all its commands.
func checkDone(b *testing.B, w *sim.World) {
	if last := w.Log()[len(w.Log())-1]; last.Kind != sim.KindDone || last.Failed() {
		b.Fatalf("client ended with %s", last.String())
	}
}
