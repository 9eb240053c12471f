package lock

import (
	"context"
	"github.com/lockstep/lockstep/internal/fact"
	"time"
)

func init() {
	register(typed(&Info{ID: "setnx-then-expire", Row: 5, Title: "SETNX, then EXPIRE in a second round trip", Seed: fact.Say("lock.seed.setnx-then-expire").En,
		Flaw:      "a crash between SETNX and EXPIRE leaves a lock with no TTL (deadlock); 003's repair gives such a lock a TTL when it finds one",
		FlawAfter: []string{"SETNX"},
		Recovery: func(o Options) func(typ, value string) bool {
			if x, ok := o.(*SetNXThenExpireOptions); ok && x.Repair {
				return anyKey // a failed SETNX asks TTL: -1 gets an EXPIRE
			}
			return nil
		}},
		DefaultSetNXThenExpireOptions, NewSetNXThenExpire))
}

// SetNXThenExpireOptions are the options of row 5. Nil options are
// DefaultSetNXThenExpireOptions.
type SetNXThenExpireOptions struct {
	// Key is the lock's key (default "lock").
	Key string
	// TTL is the EXPIRE sent after a successful SETNX, in whole seconds
	// (default 20s, as 003).
	TTL time.Duration
	// Repair is 003's repair: a failed SETNX asks TTL and, on -1, sets the
	// EXPIRE a crashed holder never set (default false).
	Repair bool
	// Backoff is the wait between acquire attempts (default: retry every
	// 100ms, no jitter, no acquire timeout).
	Backoff
}

// DefaultSetNXThenExpireOptions are the documented defaults of
// SetNXThenExpireOptions.
func DefaultSetNXThenExpireOptions() *SetNXThenExpireOptions {
	return &SetNXThenExpireOptions{Key: "lock", TTL: 20 * time.Second, Backoff: Backoff{Retry: 100 * time.Millisecond}}
}

func (o *SetNXThenExpireOptions) fields() []field {
	return []field{
		{"key", &o.Key, "the lock's key"},
		{"ttl", &o.TTL, "the EXPIRE set after SETNX, in whole seconds (003: 20s)"},
		{"repair", &o.Repair, "003's repair: a failed SETNX checks TTL and sets the EXPIRE a crashed holder never set"},
		{"retry", &o.Retry, "wait between acquire attempts"},
		{"retry_jitter", &o.RetryJitter, "extra random wait in [0, retry_jitter)"},
		{"acquire_timeout", &o.AcquireTimeout, "give up acquiring after this long (0: never; 003 uses 10s)"},
	}
}

// anyKey: 003's repair gives any key it finds without expiry one (SETNX
// answers 0 for a key of any type, and TTL -1 gets an EXPIRE).
func anyKey(string, string) bool { return true }

// SetNXThenExpire is row 5 (seeds 004's second wrong example, 003
// acquireLockWithTimeout): SETNX lock owner, and when that answers 1,
// EXPIRE lock ttl as a second command. The two are not atomic: a holder
// that crashes between them leaves a lock with no TTL, and it is never
// released (deadlock). With Repair, 003's fix: a client whose SETNX fails
// asks TTL lock, and if the answer is -1 (a lock with no expiry) it runs the
// EXPIRE the crashed holder never did, so the lock ends.
type SetNXThenExpire struct {
	c Config
	o *SetNXThenExpireOptions
}

// NewSetNXThenExpire builds the lock (nil options: the defaults).
func NewSetNXThenExpire(c Config, o *SetNXThenExpireOptions) Locker {
	if o == nil {
		o = DefaultSetNXThenExpireOptions()
	}
	return &SetNXThenExpire{c, o}
}

// Lock spins on SETNX; a success is followed by EXPIRE, a failure (with
// Repair) by TTL and, on -1, EXPIRE.
func (l *SetNXThenExpire) Lock(ctx context.Context) error {
	key, ttl := l.o.Key, l.o.TTL
	start := l.c.Clock.Now()
	for {
		ok, err := setnx(ctx, l.c.Redis, key, l.c.Owner)
		if err != nil && ctx.Err() != nil {
			return err
		}
		if err == nil && ok {
			return l.c.Redis.Expire(ctx, key, ttl).Err()
		}
		if err == nil && l.o.Repair {
			if d, err := l.c.Redis.TTL(ctx, key).Result(); err == nil && d == -1 {
				l.c.mark("repair", fact.New(fact.Repair))
				if err := l.c.Redis.Expire(ctx, key, ttl).Err(); err != nil && ctx.Err() != nil {
					return err
				}
			}
		}
		if err := sleepRetry(ctx, &l.c, l.o.Backoff, start); err != nil {
			return err
		}
	}
}

// Unlock deletes the lock (DEL lock).
func (l *SetNXThenExpire) Unlock(ctx context.Context) error {
	return l.c.Redis.Del(ctx, l.o.Key).Err()
}
