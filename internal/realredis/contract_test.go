package realredis_test

import (
	"testing"

	"github.com/lockstep/lockstep/internal/realredis"
	"github.com/lockstep/lockstep/internal/realredis/redistest"
	"github.com/lockstep/lockstep/internal/sim/simtest"
)

// A real redis-server meets the same backend contract as embedded Redis,
// with the wall clock as its pacer and clock jumps refused.
func TestRealRedisBackendContract(t *testing.T) {
	srv := redistest.Start(t)
	targets, err := realredis.ParseURLs(srv.URL(), false)
	if err != nil {
		t.Fatal(err)
	}
	simtest.RunBackendContract(t, func(t *testing.T) simtest.Setup {
		b, err := realredis.Open(targets[0], realredis.NewPrefix())
		if err != nil {
			t.Fatal(err)
		}
		return simtest.Setup{Backend: b, Pace: realredis.NewClock()}
	})
}
