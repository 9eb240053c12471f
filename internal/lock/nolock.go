package lock

import "context"

func init() {
	register(&Info{ID: "no-lock", Row: 1, Title: "No lock: GET then SET", Seed: "000 intro, 001 §2",
		Flaw: "two clients read the same stock before either writes: oversell", Unguarded: true,
		New: func(Config) Locker { return NoLock{} }})
}

// NoLock is row 1 (seeds 000 intro, 001 §2): no lock at all. The critical
// section's GET and SET of two clients interleave and the stock is sold
// twice.
type NoLock struct{}

// Lock does nothing.
func (NoLock) Lock(context.Context) error { return nil }

// Unlock does nothing.
func (NoLock) Unlock(context.Context) error { return nil }
