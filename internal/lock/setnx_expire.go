package lock

import (
	"context"
	"time"
)

func init() {
	register(&Info{ID: "setnx-then-expire", Row: 5, Title: "SETNX, then EXPIRE in a second round trip", Seed: "004 错误示范二, 003 acquireLockWithTimeout",
		Flaw: "a crash between SETNX and EXPIRE leaves a lock with no TTL (deadlock); 003's repair gives such a lock a TTL when it finds one",
		Params: []Param{
			{Name: "key", Kind: Str, Default: "lock", Doc: "the lock's key"},
			{Name: "ttl", Kind: Dur, Default: 20 * time.Second, Doc: "the EXPIRE set after SETNX, in whole seconds (003: 20s)"},
			{Name: "repair", Kind: Bool, Default: false, Doc: "003's repair: a failed SETNX checks TTL and sets the EXPIRE a crashed holder never set"},
			{Name: "retry", Kind: Dur, Default: 100 * time.Millisecond, Doc: "wait between acquire attempts"},
			{Name: "retry_jitter", Kind: Dur, Default: time.Duration(0), Doc: "extra random wait in [0, retry_jitter)"},
			{Name: "acquire_timeout", Kind: Dur, Default: time.Duration(0), Doc: "give up acquiring after this long (0: never; 003 uses 10s)"},
		},
		New: NewSetNXThenExpire})
}

// SetNXThenExpire is row 5 (seeds 004 错误示范二, 003
// acquireLockWithTimeout): SETNX lock owner, and when that answers 1,
// EXPIRE lock ttl as a second command. The two are not atomic: a holder
// that crashes between them leaves a lock with no TTL, and it is never
// released (deadlock). With repair, 003's fix: a client whose SETNX fails
// asks TTL lock, and if the answer is -1 (a lock with no expiry) it runs the
// EXPIRE the crashed holder never did, so the lock ends.
type SetNXThenExpire struct{ c Config }

// NewSetNXThenExpire builds the lock.
func NewSetNXThenExpire(c Config) Locker { return &SetNXThenExpire{c} }

// Lock spins on SETNX; a success is followed by EXPIRE, a failure (with
// repair) by TTL and, on -1, EXPIRE.
func (l *SetNXThenExpire) Lock(ctx context.Context) error {
	key, ttl := l.c.Params.String("key"), l.c.Params.Duration("ttl")
	start := l.c.Clock.Now()
	for {
		ok, err := setnx(ctx, l.c.Redis, key, l.c.Owner)
		if err != nil && ctx.Err() != nil {
			return err
		}
		if err == nil && ok {
			return l.c.Redis.Expire(ctx, key, ttl).Err()
		}
		if err == nil && l.c.Params.Bool("repair") {
			if d, err := l.c.Redis.TTL(ctx, key).Result(); err == nil && d == -1 {
				l.c.mark("repair", "the lock has no TTL: its holder died before EXPIRE; setting it")
				if err := l.c.Redis.Expire(ctx, key, ttl).Err(); err != nil && ctx.Err() != nil {
					return err
				}
			}
		}
		if err := sleepRetry(ctx, &l.c, backoffParams(&l.c), start); err != nil {
			return err
		}
	}
}

// Unlock deletes the lock (DEL lock).
func (l *SetNXThenExpire) Unlock(ctx context.Context) error {
	return l.c.Redis.Del(ctx, l.c.Params.String("key")).Err()
}
