package lock

import (
	"context"
	"fmt"
	"time"
)

func init() {
	register(&Info{ID: "fencing-token", Row: 16, Title: "SET NX PX with a fencing token drawn on acquire", Seed: "004 (Kleppmann link)",
		Flaw:   "the lease still runs out under a paused holder, but a storage that checks tokens rejects its stale write",
		Params: fencingParams(), New: NewFencingToken})
}

func fencingParams() []Param {
	return append(setNXParams(),
		Param{Name: "token_key", Kind: Str, Default: "lock:token", Doc: "the counter the fencing tokens are drawn from (INCR)"})
}

// FencingToken is row 16 (seed 004's link to Kleppmann, "How to do
// distributed locking"): the lock of row 9 plus a fencing token. One Lua
// script takes the lock with SET NX PX and, only if it got it, INCRs a
// counter: every lease gets a token larger than every lease before it. The
// holder sends the token with each write to the protected storage, and a
// storage that remembers the highest token it has seen rejects writes with
// a lower one. A holder paused past its TTL still believes it holds the
// lock — that is not fixable by the lock — but its late write is refused.
type FencingToken struct {
	c     Config
	token int64
}

// NewFencingToken builds the lock.
func NewFencingToken(c Config) Locker { return &FencingToken{c: c} }

// Token is the fencing token of the current lease (0 when none is held).
func (l *FencingToken) Token() int64 { return l.token }

// Lock runs fencing_lock.lua until it returns a token.
func (l *FencingToken) Lock(ctx context.Context) error {
	c := &l.c
	keys := []string{c.Params.String("key"), c.Params.String("token_key")}
	return retry(ctx, c, func() (bool, error) {
		tok, err := fencingLock.Run(ctx, c.Redis, keys, c.Owner, int64(c.Params.Duration("ttl")/time.Millisecond)).Int64()
		if err != nil || tok <= 0 {
			return false, err
		}
		l.token = tok
		if c.Fence != nil {
			c.Fence(tok)
		}
		c.mark("token", fmt.Sprintf("fencing token %d", tok))
		return true, nil
	})
}

// Unlock runs compare_and_delete.lua.
func (l *FencingToken) Unlock(ctx context.Context) error {
	l.token = 0
	return unlockOwned(ctx, &l.c)
}
