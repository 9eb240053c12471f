package lock

import (
	"context"
	"github.com/lockstep/lockstep/internal/fact"
	"time"
)

func init() {
	register(typed(&Info{ID: "replica-failover", Row: 14, Title: "SET NX PX on a master with an asynchronous replica", Seed: fact.Say("lock.seed.replica-failover").En,
		Flaw:    "the master dies before its replica has the lock, the replica is promoted without it, and a second client locks; WAIT for the replica closes that window",
		Replica: true},
		DefaultReplicaFailoverOptions, NewReplicaFailover))
}

// ReplicaFailoverOptions are the options of row 14: those of the SET NX PX
// lock, and WAIT's. Nil options are DefaultReplicaFailoverOptions.
type ReplicaFailoverOptions struct {
	SetNXOptions
	// WaitReplicas makes Lock send WAIT after its SET and count the lock
	// as taken only if this many replicas confirm it (0, the default: no
	// WAIT).
	WaitReplicas int
	// WaitTimeout is WAIT's timeout (default 100ms): too few replicas in
	// time counts as not acquired.
	WaitTimeout time.Duration
}

// DefaultReplicaFailoverOptions are the documented defaults of
// ReplicaFailoverOptions.
func DefaultReplicaFailoverOptions() *ReplicaFailoverOptions {
	return &ReplicaFailoverOptions{SetNXOptions: *DefaultSetNXOptions(), WaitTimeout: 100 * time.Millisecond}
}

func (o *ReplicaFailoverOptions) fields() []field {
	return append(o.SetNXOptions.fields(),
		field{"wait_replicas", &o.WaitReplicas, "after SET, WAIT until this many replicas have the lock (0: do not wait)"},
		field{"wait_timeout", &o.WaitTimeout, "WAIT's timeout; too few replicas in time counts as not acquired"})
}

// ReplicaFailover is row 14 (seeds 000, its cluster problem, and 004
// Redisson-sentinel): the single-node lock of row 9 (SET NX PX, Lua
// compare-and-delete) on a master whose replica copies it asynchronously. Seed 004's Redisson lock
// is a hash with a watchdog; the replication hole is the same for both, so
// the plain lock shows it with fewer moving parts. If the master dies
// before the replica has the key and the replica is promoted, the lock is
// simply gone and another client takes it.
//
// With WaitReplicas > 0 the client sends WAIT WaitReplicas WaitTimeout
// after its SET and counts the lock as taken only if enough replicas
// confirm it; otherwise it releases and retries. WAIT does not make Redis
// strongly consistent (a failover may still pick a replica that did not
// confirm), but with one replica it closes this window.
type ReplicaFailover struct {
	setNXLock
	o *ReplicaFailoverOptions
}

// NewReplicaFailover builds the lock (nil options: the defaults).
func NewReplicaFailover(c Config, o *ReplicaFailoverOptions) Locker {
	if o == nil {
		o = DefaultReplicaFailoverOptions()
	}
	return &ReplicaFailover{newSetNXLock(c, &o.SetNXOptions), o}
}

// Lock spins on SET NX PX, then WAITs for the replicas if asked to.
func (l *ReplicaFailover) Lock(ctx context.Context) error {
	c, want := &l.c, l.o.WaitReplicas
	if want <= 0 {
		return l.setNXLock.Lock(ctx)
	}
	return retry(ctx, c, l.o.Backoff, func() (bool, error) {
		if ok, err := l.setNX(ctx); !ok || err != nil {
			return ok, err
		}
		n, err := c.Redis.Wait(ctx, want, l.o.WaitTimeout).Result()
		if err == nil && n >= int64(want) {
			c.mark("replicated", &fact.Fact{Key: fact.Replicated, Have: int(n), Want: want})
			return true, nil
		}
		c.mark("not-replicated", &fact.Fact{Key: fact.NotReplicated, Have: int(n), Want: want, Reason: fact.Error(err)})
		_ = l.Unlock(ctx)
		return false, nil
	})
}

// Unlock runs compare_and_delete.lua.
func (l *ReplicaFailover) Unlock(ctx context.Context) error { return l.unlockOwned(ctx) }
