package lock

import (
	"context"
	"errors"
	"time"

	"github.com/bsm/redislock"

	"github.com/lockstep/lockstep/internal/fact"
)

func init() {
	register(typed(&Info{ID: "redislock", Row: 19, Title: "bsm/redislock: one node, Lua, no watchdog — run as it is", Seed: "github.com/bsm/redislock",
		Flaw: "a careful single-node lock (SET NX PX, Lua refresh and release by token), but nothing renews it: " +
			"a holder that pauses longer than its TTL loses it to the next client while it still works",
		Library: &Library{Module: "github.com/bsm/redislock", Version: "v0.9.4", License: "Apache-2.0", Dir: "redislock", File: "redislock.go", Scripts: "redislock.go",
			URL: "https://github.com/bsm/redislock"},
		// Its default is one attempt (NoRetry), and Obtain stops at now +
		// ttl, just as the holder's lease runs out (#21, #74): beside the
		// others it retries at their pace, linearly, until it gets the lock.
		CompareParams: func(lease, retry time.Duration) map[string]any {
			return map[string]any{"ttl": lease.String(), "retry_strategy": "linear", "backoff": retry.String(), "deadline": "1m"}
		}},
		DefaultRedislockOptions, NewRedislock))
}

// The values of RedislockOptions.RetryStrategy: the library's strategies.
const (
	RetryNone        = "none"        // NoRetry, the library's default: one attempt
	RetryLinear      = "linear"      // LinearBackoff(backoff)
	RetryExponential = "exponential" // ExponentialBackoff(backoff, backoff_max)
)

// RedislockOptions are the options of row 19: Obtain's arguments and
// redislock.Options, with the library's defaults, and an optional refresh
// loop of the caller's.
type RedislockOptions struct {
	// Key is the lock's key (default "lock").
	Key string
	// TTL is Obtain's ttl, the lock's PX. The library has no default (it
	// is an argument); here 10s.
	TTL time.Duration
	// RetryStrategy is "none" (the default, NoRetry: one attempt),
	// "linear" (LinearBackoff) or "exponential" (ExponentialBackoff).
	RetryStrategy string
	// Backoff is the linear strategy's wait, the exponential one's least
	// (default 100ms).
	Backoff time.Duration
	// BackoffMax is the exponential strategy's longest wait (0: none).
	BackoffMax time.Duration
	// RetryLimit wraps the strategy in LimitRetry (0, the default: no limit).
	RetryLimit int
	// Deadline is the caller's deadline for Obtain (0, the default: none,
	// and Obtain then gives up at now + ttl by itself).
	Deadline time.Duration
	// Refresh is how often the caller calls Refresh(ttl) while it holds
	// the lock, from a thread of its own, stopping at the first failure
	// (0, the default: never). The library has no watchdog on purpose:
	// its README shows this loop, to be written by its users.
	Refresh time.Duration
}

// DefaultRedislockOptions are the defaults of RedislockOptions.
func DefaultRedislockOptions() *RedislockOptions {
	return &RedislockOptions{Key: "lock", TTL: 10 * time.Second, RetryStrategy: RetryNone, Backoff: 100 * time.Millisecond}
}

func (o *RedislockOptions) fields() []field {
	return []field{
		{"key", &o.Key, "the lock's key"},
		{"ttl", &o.TTL, "Obtain's ttl: the lock's time to live (PX)"},
		{"retry_strategy", &o.RetryStrategy, "none (NoRetry: one attempt), linear (LinearBackoff) or exponential (ExponentialBackoff)"},
		{"backoff", &o.Backoff, "the linear strategy's wait; the exponential one's least"},
		{"backoff_max", &o.BackoffMax, "the exponential strategy's longest wait (0: none)"},
		{"retry_limit", &o.RetryLimit, "at most this many retries (LimitRetry; 0: no limit)"},
		{"deadline", &o.Deadline, "the caller's deadline for Obtain (0: none; Obtain then stops at now + ttl)"},
		{"refresh", &o.Refresh, "the caller calls Refresh(ttl) this often while it holds the lock, until one fails (0: never; the library has no watchdog)"},
	}
}

// Redislock is row 19: github.com/bsm/redislock, the code itself
// (third_party/redislock), on the Config's node. Obtain runs one Lua
// script, SET NX PX or, when the key already holds this token, SET PX
// again; it retries by its strategy until its context's deadline, which
// is now + ttl unless the caller set one. Release and Refresh are Lua
// compare-and-delete and compare-and-pexpire by token. Nothing renews the
// lock unless the caller does.
type Redislock struct {
	c       Config
	o       *RedislockOptions
	lk      *redislock.Lock
	running *bool // the refresh loop's run flag
}

// NewRedislock builds the lock over c.Redis (nil options: the defaults).
func NewRedislock(c Config, o *RedislockOptions) Locker {
	if o == nil {
		o = DefaultRedislockOptions()
	}
	return &Redislock{c: c, o: o}
}

// strategy makes the library's retry strategy the options name (a fresh
// one: the library's strategies count their calls).
func (l *Redislock) strategy() redislock.RetryStrategy {
	o := l.o
	var s redislock.RetryStrategy
	switch o.RetryStrategy {
	case RetryLinear:
		s = redislock.LinearBackoff(o.Backoff)
	case RetryExponential:
		s = redislock.ExponentialBackoff(o.Backoff, o.BackoffMax)
	default:
		return redislock.NoRetry()
	}
	if o.RetryLimit > 0 {
		s = redislock.LimitRetry(s, o.RetryLimit)
	}
	return s
}

// Lock is the library's Obtain, with the Config's owner as its token. Its
// failure (ErrNotObtained, or its own deadline's DeadlineExceeded) stands
// for ErrNotAcquired.
func (l *Redislock) Lock(ctx context.Context) error {
	rt := l.c.Runtime
	if rt == nil {
		return errNoRuntime
	}
	octx := ctx
	if d := l.o.Deadline; d > 0 {
		var cancel context.CancelFunc
		octx, cancel = rt.WithDeadline(ctx, rt.Now().Add(d))
		defer cancel()
	}
	opt := &redislock.Options{RetryStrategy: l.strategy(), Token: l.c.Owner, Runtime: rt}
	lk, err := redislock.New(l.c.Redis).Obtain(octx, l.o.Key, l.o.TTL, opt)
	if err != nil {
		if ctx.Err() != nil {
			return err
		}
		return &libError{ErrNotAcquired, err}
	}
	l.lk = lk
	if l.o.Refresh > 0 && l.running == nil {
		l.startRefreshing()
	}
	return nil
}

// Unlock is the library's Release; its ErrLockNotHeld stands for
// ErrNotHeld.
func (l *Redislock) Unlock(ctx context.Context) error {
	l.stopRefreshing()
	if l.lk == nil {
		return ErrNotHeld
	}
	err := l.lk.Release(ctx)
	if errors.Is(err, redislock.ErrLockNotHeld) {
		return &libError{ErrNotHeld, err}
	}
	return err
}

// startRefreshing starts the caller's refresh loop (the README's
// pattern): every Refresh, the library's Refresh(ttl), until one fails or
// Unlock stops it.
func (l *Redislock) startRefreshing() {
	if l.c.Threads == nil {
		l.c.mark("no-refresh", fact.New(fact.NoWatchdog))
		return
	}
	c, lk, ttl := l.c, l.lk, l.o.TTL
	l.running = callersLoop(c, "refresh", l.o.Refresh, func(ctx context.Context) bool {
		if err := lk.Refresh(ctx, ttl, nil); err != nil {
			c.mark("refresh-failed", &fact.Fact{Key: fact.RefreshFailed, Text: oneLine(err)})
			return false
		}
		c.mark("refreshed", &fact.Fact{Key: fact.Refreshed, For: ttl})
		return true
	})
}

// stopRefreshing tells the refresh loop to end at its next wake-up.
func (l *Redislock) stopRefreshing() { stopLoop(&l.running) }
