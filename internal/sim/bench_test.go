package sim

import (
	"context"
	"net"
	"testing"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
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

// BenchmarkRawRoundTrip is the baseline: go-redis to miniredis over an
// in-memory connection, with the engine's client options, no engine.
func BenchmarkRawRoundTrip(b *testing.B) {
	for _, bc := range benchCmds {
		b.Run(bc.name, func(b *testing.B) {
			m := miniredis.NewMiniRedis()
			defer m.Close()
			m.Set("k", "v")
			c := redis.NewClient(clientOptions(func(context.Context, string, string) (net.Conn, error) { return m.Dial() }))
			defer c.Close()
			ctx := context.Background()
			if err := bc.do(ctx, c); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := bc.do(ctx, c); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkEngineStep is the engine's cost per scheduled command: one
// client issues the command in a loop; each iteration is its send, exec
// (on the node, with the key state recorded) and reply events, with the
// hand-offs between the engine and the client thread.
func BenchmarkEngineStep(b *testing.B) {
	for _, bc := range benchCmds {
		b.Run(bc.name, func(b *testing.B) {
			w := New(Config{Seed: 1, MaxSteps: 1 << 62, Horizon: 1 << 62})
			defer w.Close()
			w.AddNode("redis").Miniredis().Set("k", "v")
			n := b.N
			w.AddClient("A", func(ctx context.Context, p *Proc) error {
				c := p.Redis("redis")
				for i := 0; i <= n; i++ {
					if err := bc.do(ctx, c); err != nil {
						return err
					}
				}
				return nil
			}, ClientOptions{})
			for w.Step() && w.Steps() < 4 { // start, first command (dial, script load)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for w.Step() {
			}
			b.StopTimer()
			if last := w.Log()[len(w.Log())-1]; last.Kind != KindDone || last.Note != "" {
				b.Fatalf("client ended with %s", last.String())
			}
		})
	}
}
