package lock

import (
	"context"
	"time"

	"github.com/lockstep/lockstep/internal/fact"
)

func init() {
	register(typed(&Info{ID: "set-nx-ex-blind-del", Row: 7, Title: "SET NX PX, released by a blind DEL", Seed: "000 ②",
		Flaw: "work longer than the TTL: the DEL frees the next owner's lock"},
		DefaultSetNXOptions, NewSetNXBlindDel))
	register(typed(&Info{ID: "lua-compare-delete", Row: 9, Title: "SET NX PX, released by Lua compare-and-delete", Seed: fact.Say("lock.seed.lua-compare-delete").En,
		Flaw: "safe release; a pause past the TTL still overlaps the next holder"},
		DefaultSetNXOptions, NewLuaCompareDelete))
}

// SetNXOptions are the options of the SET NX PX locks (rows 7 to 10, and
// the base of rows 14 and 16). Nil options are DefaultSetNXOptions; a field
// set to its zero value means what its comment says, as a scenario that
// sets it to 0 means.
type SetNXOptions struct {
	// Key is the lock's key (default "lock").
	Key string
	// TTL is the lock's time to live, sent as PX (EX in whole seconds);
	// default 3s, and 0 sets no expiry at all.
	TTL time.Duration
	// Backoff is the wait between acquire attempts (default: retry every
	// 100ms, no jitter, no acquire timeout).
	Backoff
}

// DefaultSetNXOptions are the documented defaults of SetNXOptions.
func DefaultSetNXOptions() *SetNXOptions {
	return &SetNXOptions{Key: "lock", TTL: 3 * time.Second, Backoff: Backoff{Retry: 100 * time.Millisecond}}
}

func (o *SetNXOptions) fields() []field {
	return []field{
		{"key", &o.Key, "the lock's key"},
		{"ttl", &o.TTL, "the lock's time to live (PX)"},
		{"retry", &o.Retry, "wait between acquire attempts"},
		{"retry_jitter", &o.RetryJitter, "extra random wait in [0, retry_jitter)"},
		{"acquire_timeout", &o.AcquireTimeout, "give up acquiring after this long (0: never)"},
	}
}

// setNXLock is the acquire all SET NX PX locks share.
type setNXLock struct {
	c Config
	o *SetNXOptions
}

// newSetNXLock fills nil options with the defaults.
func newSetNXLock(c Config, o *SetNXOptions) setNXLock {
	if o == nil {
		o = DefaultSetNXOptions()
	}
	return setNXLock{c, o}
}

// Lock spins on SET key owner NX PX ttl until it succeeds.
func (l *setNXLock) Lock(ctx context.Context) error {
	return retry(ctx, &l.c, l.o.Backoff, func() (bool, error) { return l.setNX(ctx) })
}

// setNX is one SET key owner NX PX ttl.
func (l *setNXLock) setNX(ctx context.Context) (bool, error) {
	return l.c.Redis.SetNX(ctx, l.o.Key, l.c.Owner, l.o.TTL).Result()
}

// unlockOwned is the Unlock of the locks released by compare-and-delete:
// ErrNotHeld when the key no longer held our value.
func (l *setNXLock) unlockOwned(ctx context.Context) error {
	deleted, err := deleteIfOwner(ctx, l.c.Redis, l.o.Key, l.c.Owner)
	if err != nil {
		return err
	}
	if !deleted {
		return ErrNotHeld
	}
	return nil
}

// deleteIfOwner runs compare_and_delete.lua on r: key is deleted only if
// it still holds owner. It reports whether it was.
func deleteIfOwner(ctx context.Context, r Redis, key, owner string) (bool, error) {
	n, err := compareAndDelete.Run(ctx, r, []string{key}, owner).Int()
	return n > 0, err
}

// SetNXBlindDel is row 7 (seed 000 ②): SET key owner NX PX ttl to acquire,
// a bare DEL to release. When the work outlives the TTL, the lock expires,
// another client takes it, and the first one's DEL frees the second one's
// lock: a foreign unlock, and a third client walks in.
type SetNXBlindDel struct{ setNXLock }

// NewSetNXBlindDel builds the lock (nil options: the defaults).
func NewSetNXBlindDel(c Config, o *SetNXOptions) Locker {
	return &SetNXBlindDel{newSetNXLock(c, o)}
}

// Unlock deletes the key without looking at whose it is.
func (l *SetNXBlindDel) Unlock(ctx context.Context) error {
	return l.c.Redis.Del(ctx, l.o.Key).Err()
}

// LuaCompareDelete is row 9 (seeds 000 ④, 004's right way): SET NX PX with a
// unique owner, released by a Lua script that deletes the key only if it
// still holds the owner. The release can no longer free someone else's
// lock; but a holder paused past the TTL still overlaps the next holder —
// the lease problem, which only fencing closes.
type LuaCompareDelete struct{ setNXLock }

// NewLuaCompareDelete builds the lock (nil options: the defaults).
func NewLuaCompareDelete(c Config, o *SetNXOptions) Locker {
	return &LuaCompareDelete{newSetNXLock(c, o)}
}

// Unlock runs compare_and_delete.lua (EVALSHA, then EVAL on NOSCRIPT).
func (l *LuaCompareDelete) Unlock(ctx context.Context) error { return l.unlockOwned(ctx) }
