package lock

import (
	"context"
	"errors"
	"github.com/lockstep/lockstep/internal/fact"
	"time"

	"github.com/redis/go-redis/v9"
)

func init() {
	register(typed(&Info{ID: "reentrant-hash", Row: 11, Title: "Re-entrant lock: a hash of owner -> hold count, in Lua", Seed: "000 ⑤, 002 script",
		Flaw: "the same owner may lock again and must unlock as often; others wait — but the TTL still ends a long hold"},
		DefaultReentrantOptions, NewReentrant))
	register(typed(&Info{ID: "reentrant-thread-id", Row: 12, Title: "Re-entrant lock keyed by the bare thread id", Seed: "002",
		Flaw: "a thread id is not an owner: a pooled thread reused by the next request re-enters, and two instances with the same thread id both get in"},
		func() *ReentrantOptions {
			o := DefaultReentrantOptions()
			o.Script, o.OwnerMode = Script002, OwnerThread
			return o
		}, NewReentrant))
	register(typed(&Info{ID: "watchdog", Row: 13, Title: "Re-entrant lock with a watchdog renewing it every TTL/3", Seed: fact.Say("lock.seed.watchdog").En,
		Flaw: "long work stays safe; but a whole-process pause stops the watchdog too, and a stuck worker's watchdog renews for ever"},
		func() *ReentrantOptions {
			o := DefaultReentrantOptions()
			o.Watchdog = true
			return o
		}, NewReentrant))
}

// ReentrantOptions are the options of the re-entrant family (rows 11-13).
// Nil options are DefaultReentrantOptions, row 11's; row 12 defaults to
// Script "002" and OwnerMode "thread", row 13 to Watchdog true.
type ReentrantOptions struct {
	// Key is the lock's key, a hash of owner -> hold count (default "lock").
	Key string
	// TTL is the lock's expiry (default 30s, as 000; Script "000" rounds
	// it up to whole seconds for EXPIRE).
	TTL time.Duration
	// Backoff is the wait between acquire attempts (default: retry every
	// 50ms, as 000's Thread.sleep(50), no jitter, no acquire timeout).
	Backoff
	// Script picks the Lua scripts: "000" (the default) for 000 ⑤'s
	// (EXPIRE, answers 1/0), "002" for 002's Redisson-style ones (PEXPIRE,
	// PTTL when busy).
	Script string
	// OwnerMode is what the caller uses as the hash field: "uuid:thread" (the
	// default: a client uuid plus the thread id), "thread" (the bare pool
	// thread id) or "uuid". The lock stores Config.Owner; this option only
	// tells the caller how to make it.
	OwnerMode string
	// Watchdog renews the lock from a second thread while it is held
	// (000 ⑥; default false).
	Watchdog bool
	// Renew is the watchdog's period (0, the default: TTL/3).
	Renew time.Duration
}

// The values of ReentrantOptions.Script.
const (
	Script000 = "000" // 000 ⑤'s scripts: EXPIRE in whole seconds, answers 1/0
	Script002 = "002" // 002's Redisson-style scripts: PEXPIRE, PTTL when busy
)

// The values of ReentrantOptions.OwnerMode.
const (
	OwnerUUIDThread = "uuid:thread" // a client uuid plus the thread id (Redisson)
	OwnerThread     = "thread"      // the bare pool thread id (002's incident)
	OwnerUUID       = "uuid"        // the client's uuid alone
)

// DefaultReentrantOptions are the documented defaults of ReentrantOptions
// (row 11's).
func DefaultReentrantOptions() *ReentrantOptions {
	return &ReentrantOptions{Key: "lock", TTL: 30 * time.Second, Backoff: Backoff{Retry: 50 * time.Millisecond},
		Script: Script000, OwnerMode: OwnerUUIDThread}
}

func (o *ReentrantOptions) fields() []field {
	return []field{
		{"key", &o.Key, "the lock's key (a hash: owner -> hold count)"},
		{"ttl", &o.TTL, "the lock's expiry (000: expire = 30 seconds; script 000 rounds up to whole seconds)"},
		{"retry", &o.Retry, "wait between acquire attempts (000: Thread.sleep(50))"},
		{"retry_jitter", &o.RetryJitter, "extra random wait in [0, retry_jitter)"},
		{"acquire_timeout", &o.AcquireTimeout, "give up acquiring after this long (0: never)"},
		{"script", &o.Script, "000: 000 ⑤'s scripts (EXPIRE, 1/0); 002: 002's Redisson-style scripts (PEXPIRE, PTTL when busy)"},
		{"owner", &o.OwnerMode, "the hash field: uuid:thread (a client uuid plus the thread id), thread (the bare pool thread id) or uuid"},
		{"watchdog", &o.Watchdog, "renew the lock from a second thread while it is held (000 ⑥)"},
		{"renew", &o.Renew, "the watchdog's period (0: ttl/3)"},
	}
}

// Reentrant is rows 11-13: the re-entrant lock of seeds 000 ⑤ and 002,
// optionally with 000 ⑥'s watchdog.
//
// Row 11 (reentrant-hash): the lock is a hash whose field is the owner and
// whose value counts its holds. A Lua script takes the lock if the key does
// not exist or the owner's field does (HINCRBY +1, then EXPIRE or PEXPIRE);
// release is HINCRBY -1 and DEL when the count reaches 0. The same owner
// nests, others wait.
//
// Row 12 (reentrant-thread-id): the same scripts with the bare thread id as
// the owner, as in 002's incident. A pool thread that handled an earlier
// request re-enters a lock that request never released, and two instances
// whose threads happen to share an id both get in. The fix is the owner
// Redisson uses: a per-client uuid plus the thread id.
//
// Row 13 (watchdog): after the first acquire, a second thread runs 000 ⑥'s
// renewal script every Renew (TTL/3): HEXISTS then EXPIRE. Work longer than
// the TTL keeps its lock. But the watchdog is part of the same process: a
// stop-the-world pause longer than the TTL stops it too, and the lock
// expires under its holder; and a worker stuck for ever keeps a live
// watchdog, which keeps the lock for ever.
type Reentrant struct {
	c       Config
	o       *ReentrantOptions
	depth   int   // holds taken through this Locker
	running *bool // the current watchdog's run flag
}

// NewReentrant builds the lock (nil options: the defaults, row 11's).
func NewReentrant(c Config, o *ReentrantOptions) Locker {
	if o == nil {
		o = DefaultReentrantOptions()
	}
	return &Reentrant{c: c, o: o}
}

func (l *Reentrant) script002() bool { return l.o.Script == Script002 }

// seconds is the TTL in whole seconds, rounded up, for EXPIRE.
func (l *Reentrant) seconds() int64 {
	return int64(l.o.ttlRuns() / time.Second)
}

// Lock runs the acquire script until it answers "held".
func (l *Reentrant) Lock(ctx context.Context) error {
	key, ttl := l.o.Key, l.o.TTL
	start := l.c.Clock.Now()
	for {
		var held bool
		var err error
		if l.script002() {
			var n int64
			n, err = reentrantLockPTTL.Run(ctx, l.c.Redis, []string{key}, ttl.Milliseconds(), l.c.Owner).Int64()
			held = err == nil && n == -1
		} else {
			var n int64
			n, err = reentrantLock.Run(ctx, l.c.Redis, []string{key}, l.c.Owner, l.seconds()).Int64()
			held = err == nil && n == 1
		}
		if err != nil && ctx.Err() != nil {
			return err
		}
		if held {
			l.depth++
			if l.depth == 1 && l.o.Watchdog {
				l.startWatchdog()
			}
			return nil
		}
		if err := sleepRetry(ctx, &l.c, l.o.Backoff, start); err != nil {
			return err
		}
	}
}

// Unlock gives back one hold; the last one deletes the lock and stops the
// watchdog. ErrNotHeld means the owner's field was gone (expired, or never
// ours).
func (l *Reentrant) Unlock(ctx context.Context) error {
	key := l.o.Key
	var n int64
	var err error
	if l.script002() {
		n, err = reentrantUnlockPTTL.Run(ctx, l.c.Redis, []string{key}, l.c.Owner).Int64()
		if err == nil && n == -1 {
			err = redis.Nil
		}
	} else {
		n, err = reentrantUnlock.Run(ctx, l.c.Redis, []string{key}, l.c.Owner).Int64()
	}
	if l.depth > 0 {
		l.depth--
	}
	if errors.Is(err, redis.Nil) || err == nil && n == 1 || l.depth == 0 {
		l.stopWatchdog()
	}
	if errors.Is(err, redis.Nil) {
		return ErrNotHeld
	}
	return err
}

// startWatchdog spawns the renewal thread.
func (l *Reentrant) startWatchdog() {
	if l.c.Threads == nil {
		l.c.mark("no-watchdog", fact.New(fact.NoWatchdog))
		return
	}
	run := true
	l.running = &run
	period := l.o.Renew
	if period <= 0 {
		period = l.o.TTL / 3
	}
	c, key, secs := l.c, l.o.Key, l.seconds()
	l.c.Threads.Go("watchdog", func(ctx context.Context) error {
		for {
			if err := c.Clock.Sleep(ctx, period); err != nil {
				return err
			}
			if !run {
				return nil
			}
			n, err := watchdogRenew.Run(ctx, c.Redis, []string{key}, c.Owner, secs).Int64()
			switch {
			case err != nil && ctx.Err() != nil:
				return err
			case err != nil:
				c.mark("renew-failed", fact.Error(err))
			case n == 0:
				c.mark("renew-lost", fact.New(fact.RenewLost))
				return nil
			default:
				said := &fact.Fact{Key: fact.Renewed, For: time.Duration(secs) * time.Second}
				if o, ok := c.Threads.(Orphans); ok && o.Orphaned() {
					// the request that took the lock died on an error
					// without its unlock: the renewal goes on, for nobody
					// (Redisson's watchdog does the same)
					said.Key = fact.RenewedOrphan
				}
				c.mark("renewed", said)
			}
		}
	})
}

// stopWatchdog tells the renewal thread to end at its next wake-up.
func (l *Reentrant) stopWatchdog() {
	if l.running != nil {
		*l.running = false
		l.running = nil
	}
}
