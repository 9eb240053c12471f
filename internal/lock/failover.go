package lock

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
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
	start := c.Clock.Now()
	want := c.Params.Int("wait_replicas")
	for {
		ok, err := c.Redis.SetNX(ctx, c.Params.String("key"), c.Owner, c.Params.Duration("ttl")).Result()
		if err != nil && ctx.Err() != nil {
			return err
		}
		if err == nil && ok {
			if want <= 0 {
				return nil
			}
			n, err := wait(ctx, c.Redis, want, c.Params.Duration("wait_timeout"))
			if err == nil && n >= int64(want) {
				c.mark("replicated", fmt.Sprintf("WAIT: %d of %d replicas have the lock", n, want))
				return nil
			}
			note := fmt.Sprintf("WAIT: only %d of %d replicas confirmed; releasing", n, want)
			if err != nil {
				note = "WAIT failed (" + err.Error() + "); releasing"
			}
			c.mark("not-replicated", note)
			_ = l.Unlock(ctx)
		}
		if err := sleepRetry(ctx, c, start); err != nil {
			return err
		}
	}
}

// Unlock runs compare_and_delete.lua.
func (l *ReplicaFailover) Unlock(ctx context.Context) error {
	n, err := Scripts["compare_and_delete"].Run(ctx, l.c.Redis, []string{l.c.Params.String("key")}, l.c.Owner).Int()
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrNotHeld
	}
	return nil
}

// wait sends WAIT numreplicas timeout (in ms) and returns how many
// replicas confirmed every write before it.
func wait(ctx context.Context, r Redis, replicas int, timeout time.Duration) (int64, error) {
	p, ok := r.(interface {
		Process(ctx context.Context, cmd redis.Cmder) error
	})
	if !ok {
		return 0, errors.New("lock: this client cannot send WAIT")
	}
	cmd := redis.NewIntCmd(ctx, "wait", replicas, int64(timeout/time.Millisecond))
	_ = p.Process(ctx, cmd)
	return cmd.Result()
}
