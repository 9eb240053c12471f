package lock

import (
	"context"
	"time"
)

func init() {
	register(typed(&Info{ID: "setnx-no-expiry", Row: 4, Title: "SETNX with no expiry, DEL in finally", Seed: "000 ①, 003 first lock",
		Flaw: "a holder that crashes inside the critical section never runs its DEL: the lock stays forever (deadlock)"},
		DefaultSetNXNoExpiryOptions, NewSetNXNoExpiry))
}

// SetNXNoExpiryOptions are the options of row 4. Nil options are
// DefaultSetNXNoExpiryOptions.
type SetNXNoExpiryOptions struct {
	// Key is the lock's key (default "lock").
	Key string
	// Backoff is the wait between acquire attempts (default: retry every
	// 100ms, as 000's Thread.sleep(100), no jitter, no acquire timeout).
	Backoff
}

// DefaultSetNXNoExpiryOptions are the documented defaults of
// SetNXNoExpiryOptions.
func DefaultSetNXNoExpiryOptions() *SetNXNoExpiryOptions {
	return &SetNXNoExpiryOptions{Key: "lock", Backoff: Backoff{Retry: 100 * time.Millisecond}}
}

func (o *SetNXNoExpiryOptions) fields() []field {
	return []field{
		{"key", &o.Key, "the lock's key"},
		{"retry", &o.Retry, "wait between acquire attempts (000: Thread.sleep(100))"},
		{"retry_jitter", &o.RetryJitter, "extra random wait in [0, retry_jitter)"},
		{"acquire_timeout", &o.AcquireTimeout, "give up acquiring after this long (0: never; 003 uses 10s)"},
	}
}

// SetNXNoExpiry is row 4 (seeds 000 ①, 003's first acquireLock): SETNX
// lock owner, retried until it answers 1; DEL lock in a finally block. The
// key has no expiry, so a holder that dies before its finally runs leaves
// the lock behind for ever and every other client spins until the horizon:
// a deadlock.
type SetNXNoExpiry struct {
	c Config
	o *SetNXNoExpiryOptions
}

// NewSetNXNoExpiry builds the lock (nil options: the defaults).
func NewSetNXNoExpiry(c Config, o *SetNXNoExpiryOptions) Locker {
	if o == nil {
		o = DefaultSetNXNoExpiryOptions()
	}
	return &SetNXNoExpiry{c, o}
}

// Lock spins on SETNX.
func (l *SetNXNoExpiry) Lock(ctx context.Context) error {
	return retry(ctx, &l.c, l.o.Backoff, func() (bool, error) {
		return setnx(ctx, l.c.Redis, l.o.Key, l.c.Owner)
	})
}

// Unlock is the finally block: DEL lock.
func (l *SetNXNoExpiry) Unlock(ctx context.Context) error {
	return l.c.Redis.Del(ctx, l.o.Key).Err()
}
