package lock

import (
	"context"
	"fmt"
	"time"
)

func init() {
	register(&Info{ID: "replica-failover", Row: 14, Title: "SET NX PX on a master with an asynchronous replica", Seed: "000 集群问题, 004 Redisson-sentinel",
		Flaw:   "the master dies before its replica has the lock, the replica is promoted without it, and a second client locks; WAIT for the replica closes that window",
		Params: failoverParams(), New: NewReplicaFailover})
}

func failoverParams() []Param {
	return append(setNXParams(),
		Param{Name: "wait_replicas", Kind: Int, Default: 0, Doc: "after SET, WAIT until this many replicas have the lock (0: do not wait)"},
		Param{Name: "wait_timeout", Kind: Dur, Default: 100 * time.Millisecond, Doc: "WAIT's timeout; too few replicas in time counts as not acquired"})
}

// ReplicaFailover is row 14 (seeds 000 集群问题, 004 Redisson-sentinel):
// the single-node lock of row 9 (SET NX PX, Lua compare-and-delete) on a
// master whose replica copies it asynchronously. Seed 004's Redisson lock
// is a hash with a watchdog; the replication hole is the same for both, so
// the plain lock shows it with fewer moving parts. If the master dies
// before the replica has the key and the replica is promoted, the lock is
// simply gone and another client takes it.
//
// With wait_replicas > 0 the client sends WAIT wait_replicas timeout after
// its SET and counts the lock as taken only if enough replicas confirm it;
// otherwise it releases and retries. WAIT does not make Redis strongly
// consistent (a failover may still pick a replica that did not confirm),
// but with one replica it closes this window.
type ReplicaFailover struct{ c Config }

// NewReplicaFailover builds the lock.
func NewReplicaFailover(c Config) Locker { return &ReplicaFailover{c} }

// Lock spins on SET NX PX, then WAITs for the replicas if asked to.
func (l *ReplicaFailover) Lock(ctx context.Context) error {
	c := &l.c
	want := c.Params.Int("wait_replicas")
	if want <= 0 {
		return setNXLoop(ctx, c)
	}
	return retry(ctx, c, func() (bool, error) {
		if ok, err := setNX(ctx, c); !ok || err != nil {
			return ok, err
		}
		n, err := c.Redis.Wait(ctx, want, c.Params.Duration("wait_timeout")).Result()
		if err == nil && n >= int64(want) {
			c.mark("replicated", fmt.Sprintf("WAIT: %d of %d replicas have the lock", n, want))
			return true, nil
		}
		note := fmt.Sprintf("WAIT: only %d of %d replicas confirmed; releasing", n, want)
		if err != nil {
			note = "WAIT failed (" + err.Error() + "); releasing"
		}
		c.mark("not-replicated", note)
		_ = l.Unlock(ctx)
		return false, nil
	})
}

// Unlock runs compare_and_delete.lua.
func (l *ReplicaFailover) Unlock(ctx context.Context) error { return unlockOwned(ctx, &l.c) }
