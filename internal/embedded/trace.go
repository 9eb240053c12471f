package embedded

import (
	"sync"

	"github.com/alicebob/miniredis/v2/server"

	"github.com/lockstep/lockstep/internal/sim"
)

// TraceScript records the commands miniredis dispatches until the returned
// function is called: a script's EVAL or EVALSHA, then each redis.call it
// makes. miniredis runs the script on its own goroutine; the engine waits
// for the reply before it stops the trace.
func (b *Backend) TraceScript() func() [][]string {
	var mu sync.Mutex
	var ran [][]string
	srv := b.m.Server()
	if srv == nil {
		// miniredis starts its server on the first Dial, and go-redis
		// dials inside the command being traced: start it now.
		if c, err := b.m.Dial(); err == nil {
			c.Close()
		}
		if srv = b.m.Server(); srv == nil {
			return func() [][]string { return nil }
		}
	}
	srv.SetPreHook(func(_ *server.Peer, cmd string, args ...string) bool {
		mu.Lock()
		ran = append(ran, append([]string{cmd}, args...))
		mu.Unlock()
		return false
	})
	return func() [][]string {
		srv.SetPreHook(nil)
		mu.Lock()
		defer mu.Unlock()
		return ran
	}
}

var _ sim.ScriptTracer = (*Backend)(nil)
