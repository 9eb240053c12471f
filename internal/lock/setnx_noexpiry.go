package lock

import (
	"context"
	"time"
)

func init() {
	register(&Info{ID: "setnx-no-expiry", Row: 4, Title: "SETNX with no expiry, DEL in finally", Seed: "000 ①, 003 first lock",
		Flaw: "a holder that crashes inside the critical section never runs its DEL: the lock stays forever (deadlock)",
		Params: []Param{
			{Name: "key", Kind: Str, Default: "lock", Doc: "the lock's key"},
			{Name: "retry", Kind: Dur, Default: 100 * time.Millisecond, Doc: "wait between acquire attempts (000: Thread.sleep(100))"},
			{Name: "retry_jitter", Kind: Dur, Default: time.Duration(0), Doc: "extra random wait in [0, retry_jitter)"},
			{Name: "acquire_timeout", Kind: Dur, Default: time.Duration(0), Doc: "give up acquiring after this long (0: never; 003 uses 10s)"},
		},
		New: NewSetNXNoExpiry})
}

// SetNXNoExpiry is row 4 (seeds 000 ①, 003's first acquireLock): SETNX
// lock owner, retried until it answers 1; DEL lock in a finally block. The
// key has no expiry, so a holder that dies before its finally runs leaves
// the lock behind for ever and every other client spins until the horizon:
// a deadlock.
type SetNXNoExpiry struct{ c Config }

// NewSetNXNoExpiry builds the lock.
func NewSetNXNoExpiry(c Config) Locker { return &SetNXNoExpiry{c} }

// Lock spins on SETNX.
func (l *SetNXNoExpiry) Lock(ctx context.Context) error {
	return retry(ctx, &l.c, backoffParams(&l.c), func() (bool, error) {
		return setnx(ctx, l.c.Redis, l.c.Params.String("key"), l.c.Owner)
	})
}

// Unlock is the finally block: DEL lock.
func (l *SetNXNoExpiry) Unlock(ctx context.Context) error {
	return l.c.Redis.Del(ctx, l.c.Params.String("key")).Err()
}
