package lock

import (
	"context"
	"github.com/lockstep/lockstep/internal/fact"
	"time"
)

func init() {
	register(typed(&Info{ID: "fencing-token", Row: 16, Title: "SET NX PX with a fencing token drawn on acquire", Seed: "004 (Kleppmann link)",
		Flaw:    "the lease still runs out under a paused holder, but a storage that checks tokens rejects its stale write",
		Fencing: true},
		DefaultFencingTokenOptions, NewFencingToken))
}

// FencingTokenOptions are the options of row 16: those of the SET NX PX
// lock and the counter the tokens come from. Nil options are
// DefaultFencingTokenOptions.
type FencingTokenOptions struct {
	SetNXOptions
	// TokenKey is the counter the fencing tokens are drawn from with INCR
	// (default "lock:token").
	TokenKey string
}

// DefaultFencingTokenOptions are the documented defaults of
// FencingTokenOptions.
func DefaultFencingTokenOptions() *FencingTokenOptions {
	return &FencingTokenOptions{SetNXOptions: *DefaultSetNXOptions(), TokenKey: "lock:token"}
}

func (o *FencingTokenOptions) fields() []field {
	return append(o.SetNXOptions.fields(),
		field{"token_key", &o.TokenKey, "the counter the fencing tokens are drawn from (INCR)"})
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
	setNXLock
	o     *FencingTokenOptions
	token int64
}

// NewFencingToken builds the lock (nil options: the defaults).
func NewFencingToken(c Config, o *FencingTokenOptions) Locker {
	if o == nil {
		o = DefaultFencingTokenOptions()
	}
	return &FencingToken{setNXLock: newSetNXLock(c, &o.SetNXOptions), o: o}
}

// Token is the fencing token of the current lease (0 when none is held).
func (l *FencingToken) Token() int64 { return l.token }

// Lock runs fencing_lock.lua until it returns a token.
func (l *FencingToken) Lock(ctx context.Context) error {
	c := &l.c
	keys := []string{l.o.Key, l.o.TokenKey}
	return retry(ctx, c, l.o.Backoff, func() (bool, error) {
		tok, err := fencingLock.Run(ctx, c.Redis, keys, c.Owner, int64(l.o.TTL/time.Millisecond)).Int64()
		if err != nil || tok <= 0 {
			return false, err
		}
		l.token = tok
		c.fence(tok)
		c.mark("token", &fact.Fact{Key: fact.Token, Token: tok})
		return true, nil
	})
}

// Unlock runs compare_and_delete.lua.
func (l *FencingToken) Unlock(ctx context.Context) error {
	l.token = 0
	return l.unlockOwned(ctx)
}
