package lock

import (
	"context"
	"time"
)

func init() {
	register(&Info{ID: "set-nx-ex-blind-del", Row: 7, Title: "SET NX PX, released by a blind DEL", Seed: "000 ②",
		Flaw:   "work longer than the TTL: the DEL frees the next owner's lock",
		Params: setNXParams(), New: NewSetNXBlindDel})
	register(&Info{ID: "lua-compare-delete", Row: 9, Title: "SET NX PX, released by Lua compare-and-delete", Seed: "000 ④, 004 正确姿势",
		Flaw:   "safe release; a pause past the TTL still overlaps the next holder",
		Params: setNXParams(), New: NewLuaCompareDelete})
}

// SetNXBlindDel is row 7 (seed 000 ②): SET key owner NX PX ttl to acquire,
// a bare DEL to release. When the work outlives the TTL, the lock expires,
// another client takes it, and the first one's DEL frees the second one's
// lock: a foreign unlock, and a third client walks in.
type SetNXBlindDel struct{ c Config }

// NewSetNXBlindDel builds the lock.
func NewSetNXBlindDel(c Config) Locker { return &SetNXBlindDel{c} }

// Lock spins on SET NX PX until it succeeds.
func (l *SetNXBlindDel) Lock(ctx context.Context) error { return setNXLoop(ctx, &l.c) }

// Unlock deletes the key without looking at whose it is.
func (l *SetNXBlindDel) Unlock(ctx context.Context) error {
	return l.c.Redis.Del(ctx, l.c.Params.String("key")).Err()
}

// setNXLoop is SET key owner NX PX ttl, retried every retry interval.
func setNXLoop(ctx context.Context, c *Config) error {
	return retry(ctx, c, func() (bool, error) { return setNX(ctx, c) })
}

// setNX is one SET key owner NX PX ttl.
func setNX(ctx context.Context, c *Config) (bool, error) {
	return c.Redis.SetNX(ctx, c.Params.String("key"), c.Owner, c.Params.Duration("ttl")).Result()
}

// deleteIfOwner runs compare_and_delete.lua on r: the lock key is
// deleted only if it still holds c.Owner. It reports whether it was.
func deleteIfOwner(ctx context.Context, c *Config, r Redis) (bool, error) {
	n, err := compareAndDelete.Run(ctx, r, []string{c.Params.String("key")}, c.Owner).Int()
	return n > 0, err
}

// unlockOwned is the Unlock of the locks released by compare-and-delete:
// ErrNotHeld when the key no longer held our value.
func unlockOwned(ctx context.Context, c *Config) error {
	deleted, err := deleteIfOwner(ctx, c, c.Redis)
	if err != nil {
		return err
	}
	if !deleted {
		return ErrNotHeld
	}
	return nil
}

// LuaCompareDelete is row 9 (seeds 000 ④, 004 正确姿势): SET NX PX with a
// unique owner, released by a Lua script that deletes the key only if it
// still holds the owner. The release can no longer free someone else's
// lock; but a holder paused past the TTL still overlaps the next holder —
// the lease problem, which only fencing closes.
type LuaCompareDelete struct{ c Config }

// NewLuaCompareDelete builds the lock.
func NewLuaCompareDelete(c Config) Locker { return &LuaCompareDelete{c} }

// Lock spins on SET NX PX until it succeeds.
func (l *LuaCompareDelete) Lock(ctx context.Context) error { return setNXLoop(ctx, &l.c) }

// Unlock runs compare_and_delete.lua (EVALSHA, then EVAL on NOSCRIPT).
func (l *LuaCompareDelete) Unlock(ctx context.Context) error { return unlockOwned(ctx, &l.c) }

// setNXParams are the parameters of every SET NX PX lock.
func setNXParams() []Param {
	return []Param{
		{Name: "key", Kind: Str, Default: "lock", Doc: "the lock's key"},
		{Name: "ttl", Kind: Dur, Default: 3 * time.Second, Doc: "the lock's time to live (PX)"},
		{Name: "retry", Kind: Dur, Default: 100 * time.Millisecond, Doc: "wait between acquire attempts"},
		{Name: "retry_jitter", Kind: Dur, Default: time.Duration(0), Doc: "extra random wait in [0, retry_jitter)"},
		{Name: "acquire_timeout", Kind: Dur, Default: time.Duration(0), Doc: "give up acquiring after this long (0: never)"},
	}
}
