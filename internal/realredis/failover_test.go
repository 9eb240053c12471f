package realredis_test

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/realredis"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// The failover lessons on real Redis lose (or keep) the lock for real: the
// master and the replica are redis-server processes under REPLICAOF, and
// after the failover the servers themselves are asked. The old master's
// process is gone, the replica reports itself a master, and A's lock is on
// it only if it was replicated before the master died.
func TestFailoverReallyLosesTheUnreplicatedLock(t *testing.T) {
	srv, _ := startServers(t, 1)
	f, err := scenario.ParseBuiltin("scenarios.yaml", lockstep.Scenarios)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		id       string
		kept     bool // A's lock is on the promoted replica
		verdicts []string
	}{
		{"failover-lost-lock", false, []string{"mutual-exclusion", "lost-update"}},
		{"failover-wait-replica", true, []string{"safe"}},
	} {
		t.Run(tc.id, func(t *testing.T) {
			sc, ok := f.Find(tc.id)
			if !ok {
				t.Fatalf("no scenario %s", tc.id)
			}
			r, err := lesson.New(sc, lesson.Config{Seed: sc.Seed, Servers: srv})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			b := r.World.Node("replica").Backend().(*realredis.Backend)
			pair := b.Pair()
			if pair == nil {
				t.Fatal("the replica node is not on a pair of the run's own servers")
			}
			var failover *sim.Event
			for seen := 0; failover == nil && r.World.Step(); {
				log := r.World.Log()
				for _, e := range log[seen:] {
					if e.Kind == sim.KindFault && e.Name == "failover" {
						failover = e
					}
				}
				seen = len(log)
			}
			if failover == nil {
				t.Fatalf("no failover in the run")
			}
			// Ask the servers, not the engine.
			if c, err := net.DialTimeout("tcp", pair.Master.Addr, time.Second); err == nil {
				c.Close()
				t.Errorf("the old master's process at %s still accepts connections", pair.Master.Addr)
			}
			c := pair.Replica.Client()
			defer c.Close()
			ctx := context.Background()
			info, err := c.Info(ctx, "replication").Result()
			if err != nil || !strings.Contains(info, "role:master") {
				t.Errorf("the promoted replica should report role:master, got %q (%v)", info, err)
			}
			owner, err := c.Get(ctx, b.Prefix()+"lock").Result()
			switch {
			case tc.kept && err != nil:
				t.Errorf("A's lock should be on the promoted replica (WAIT confirmed it), got %v", err)
			case !tc.kept && !errors.Is(err, redis.Nil):
				t.Errorf("A's unreplicated lock should be gone from the promoted replica, got %q (%v)", owner, err)
			}
			if lost := len(failover.Fact.Cmds) > 0; lost == tc.kept {
				t.Errorf("the failover should say whether a write was lost (%v): %s", !tc.kept, failover)
			}
			if err := r.RunToEnd(); err != nil {
				t.Fatal(err)
			}
			if got := r.Verdicts(); !lesson.SameVerdicts(got, tc.verdicts) {
				t.Errorf("verdicts = %v, want %v", got, tc.verdicts)
			}
		})
	}
}

// A reader opens the failover lesson on real Redis and reads it for a
// while before the first step. Setting the run up (a master and replica
// started, the data written, the replica synced) and the reading take real
// time, but the lesson's clock starts with its first move: A's SET still
// comes first, the failover 100ms later still catches the lock
// unreplicated, and the run ends as on embedded Redis.
func TestRealRunStartsItsClockAtTheFirstMove(t *testing.T) {
	srv, _ := startServers(t, 1)
	f, err := scenario.ParseBuiltin("scenarios.yaml", lockstep.Scenarios)
	if err != nil {
		t.Fatal(err)
	}
	sc, ok := f.Find("failover-lost-lock")
	if !ok {
		t.Fatal("no scenario failover-lost-lock")
	}
	r, err := lesson.New(sc, lesson.Config{Seed: sc.Seed, Servers: srv})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	time.Sleep(300 * time.Millisecond) // the reader reads the lesson
	if err := r.RunToEnd(); err != nil {
		t.Fatal(err)
	}
	var first, failover *sim.Event
	for _, e := range r.World.Log() {
		if first == nil && e.Kind == sim.KindSend {
			first = e
		}
		if e.Kind == sim.KindFault && e.Name == "failover" {
			failover = e
		}
	}
	if first == nil || failover == nil {
		t.Fatalf("the run has no command (%v) or no failover (%v)", first, failover)
	}
	if first.T > 50*time.Millisecond {
		t.Errorf("the first command went out at %s of the run's time, want about 0: the clock ran before the run began", sim.FormatTime(first.T))
	}
	if got, want := r.Verdicts(), sc.Expect; !lesson.SameVerdicts(got, want) {
		t.Errorf("verdicts = %v, want %v", got, want)
	}
}
