package embedded

import (
	"sync"

	"github.com/alicebob/miniredis/v2/server"

	"github.com/lockstep/lockstep/internal/sim"
)

// TraceScript records the commands miniredis dispatches until the returned
// function is called: a script's EVAL or EVALSHA, then each redis.call it
// makes. They run on the engine's goroutine (conn), before the reply the
// engine waits for; the lock keeps the record safe all the same.
func (b *Backend) TraceScript() func() [][]string {
	var mu sync.Mutex
	var ran [][]string
	srv := b.m.Server()
	if srv == nil { // closed
		return func() [][]string { return nil }
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
