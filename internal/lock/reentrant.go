package lock

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

func init() {
	register(&Info{ID: "reentrant-hash", Row: 11, Title: "Re-entrant lock: a hash of owner -> hold count, in Lua", Seed: "000 ⑤, 002 script",
		Flaw:   "the same owner may lock again and must unlock as often; others wait — but the TTL still ends a long hold",
		Params: reentrantParams("uuid:thread", "000", false), New: NewReentrant})
	register(&Info{ID: "reentrant-thread-id", Row: 12, Title: "Re-entrant lock keyed by the bare thread id", Seed: "002",
		Flaw:   "a thread id is not an owner: a pooled thread reused by the next request re-enters, and two instances with the same thread id both get in",
		Params: reentrantParams("thread", "002", false), New: NewReentrant})
	register(&Info{ID: "watchdog", Row: 13, Title: "Re-entrant lock with a watchdog renewing it every TTL/3", Seed: "000 ⑥, 004 续期",
		Flaw:   "long work stays safe; but a whole-process pause stops the watchdog too, and a stuck worker's watchdog renews for ever",
		Params: reentrantParams("uuid:thread", "000", true), New: NewReentrant})
}

// reentrantParams are the parameters of the re-entrant family, with the
// defaults of one row.
func reentrantParams(owner, script string, watchdog bool) []Param {
	ps := []Param{
		{Name: "key", Kind: Str, Default: "lock", Doc: "the lock's key (a hash: owner -> hold count)"},
		{Name: "ttl", Kind: Dur, Default: 30 * time.Second, Doc: "the lock's expiry (000: expire = 30 seconds; script 000 rounds up to whole seconds)"},
		{Name: "retry", Kind: Dur, Default: 50 * time.Millisecond, Doc: "wait between acquire attempts (000: Thread.sleep(50))"},
		{Name: "retry_jitter", Kind: Dur, Default: time.Duration(0), Doc: "extra random wait in [0, retry_jitter)"},
		{Name: "acquire_timeout", Kind: Dur, Default: time.Duration(0), Doc: "give up acquiring after this long (0: never)"},
		{Name: "script", Kind: Str, Default: script, Doc: "000: 000 ⑤'s scripts (EXPIRE, 1/0); 002: 002's Redisson-style scripts (PEXPIRE, PTTL when busy)"},
		{Name: "owner", Kind: Str, Default: owner, Doc: "the hash field: uuid:thread (a client uuid plus the thread id), thread (the bare pool thread id) or uuid"},
		{Name: "watchdog", Kind: Bool, Default: watchdog, Doc: "renew the lock from a second thread while it is held (000 ⑥)"},
		{Name: "renew", Kind: Dur, Default: time.Duration(0), Doc: "the watchdog's period (0: ttl/3)"},
	}
	return ps
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
// renewal script every renew (TTL/3): HEXISTS then EXPIRE. Work longer than
// the TTL keeps its lock. But the watchdog is part of the same process: a
// stop-the-world pause longer than the TTL stops it too, and the lock
// expires under its holder; and a worker stuck for ever keeps a live
// watchdog, which keeps the lock for ever.
type Reentrant struct {
	c       Config
	depth   int   // holds taken through this Locker
	running *bool // the current watchdog's run flag
}

// NewReentrant builds the lock.
func NewReentrant(c Config) Locker { return &Reentrant{c: c} }

func (l *Reentrant) script002() bool { return l.c.Params.String("script") == "002" }

// seconds is the TTL in whole seconds, rounded up, for EXPIRE.
func (l *Reentrant) seconds() int64 {
	return int64((l.c.Params.Duration("ttl") + time.Second - 1) / time.Second)
}

// Lock runs the acquire script until it answers "held".
func (l *Reentrant) Lock(ctx context.Context) error {
	key, ttl := l.c.Params.String("key"), l.c.Params.Duration("ttl")
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
			if l.depth == 1 && l.c.Params.Bool("watchdog") {
				l.startWatchdog()
			}
			return nil
		}
		if err := sleepRetry(ctx, &l.c, backoffParams(&l.c), start); err != nil {
			return err
		}
	}
}

// Unlock gives back one hold; the last one deletes the lock and stops the
// watchdog. ErrNotHeld means the owner's field was gone (expired, or never
// ours).
func (l *Reentrant) Unlock(ctx context.Context) error {
	key := l.c.Params.String("key")
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
	if l.c.Spawn == nil {
		l.c.mark("no-watchdog", "this process cannot start threads")
		return
	}
	run := true
	l.running = &run
	period := l.c.Params.Duration("renew")
	if period <= 0 {
		period = l.c.Params.Duration("ttl") / 3
	}
	c, key, secs := l.c, l.c.Params.String("key"), l.seconds()
	l.c.Spawn("watchdog", func(ctx context.Context) error {
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
				c.mark("renew-failed", err.Error())
			case n == 0:
				c.mark("renew-lost", "the lock is no longer ours: the watchdog stops")
				return nil
			default:
				c.mark("renewed", fmt.Sprintf("expire %ds", secs))
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
