// Package redistest starts real redis-server processes for tests, on free
// loopback ports, and stops them when the test ends. Without redis-server a
// test is skipped, unless CI is set: there it fails (scripts/test.sh
// installs redis-server).
package redistest

import (
	"errors"
	"os"
	"testing"

	"github.com/lockstep/lockstep/internal/realredis"
)

// Start starts a redis-server (with extra arguments) for the test.
func Start(t testing.TB, extra ...string) *realredis.Server {
	t.Helper()
	s, err := realredis.StartServer(extra...)
	if errors.Is(err, realredis.ErrNoServer) && os.Getenv("CI") == "" {
		t.Skip("redis-server is not installed; skipping the real-Redis test (CI would fail here)")
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Kill)
	return s
}

// StartN starts n servers.
func StartN(t testing.TB, n int) []*realredis.Server {
	t.Helper()
	out := make([]*realredis.Server, n)
	for i := range out {
		out[i] = Start(t)
	}
	return out
}
