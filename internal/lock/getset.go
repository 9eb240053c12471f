package lock

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockstep/lockstep/internal/fact"
)

func init() {
	register(typed(&Info{ID: "setnx-getset-timestamp", Row: 6, Title: "SETNX with an expiry timestamp, GETSET to take over", Seed: "001",
		Flaw:         "it trusts every client's clock: a skewed clock steals a live lock, and a holder past its timeout DELs the next owner's lock",
		Recovery:     func(Options) func(typ, value string) bool { return isTimestamp },
		LeaseInValue: true},
		DefaultSetNXGetSetOptions, NewSetNXGetSet))
}

// isTimestamp reports whether a key holds what the timestamp lock takes over
// once it has passed: a string that is an integer (Lock's takeOver; a
// value it cannot parse, or a hash, it never touches).
func isTimestamp(typ, value string) bool {
	_, err := strconv.ParseInt(value, 10, 64)
	return typ == "string" && err == nil
}

// SetNXGetSetOptions are the options of row 6, named after 001's fields.
// Nil options are DefaultSetNXGetSetOptions.
type SetNXGetSetOptions struct {
	// Key is the lock's key (default "lock"; 001: lockKey + "_lock").
	Key string
	// TTL is expireMsecs: the validity written into the lock's value, now
	// + TTL + 1ms (default 60s).
	TTL time.Duration
	// Backoff is the wait between attempts: Retry is
	// DEFAULT_ACQUIRY_RESOLUTION_MILLIS (default 100ms), AcquireTimeout is
	// timeoutMsecs (default 10s; 0 waits for ever), no jitter by default.
	Backoff
	// Recover is how an expired lock is taken over: "getset" (001's fix,
	// the default) or "del" (the naive DEL + SETNX 001 warns about).
	Recover string
	// CheckExpiry is 001's advice: Unlock leaves the lock alone once our
	// own timestamp has passed (default false).
	CheckExpiry bool
}

// The values of SetNXGetSetOptions.Recover.
const (
	RecoverGetSet = "getset" // 001's fix: GETSET, won only if it returns the value read
	RecoverDel    = "del"    // the naive takeover: DEL, then SETNX
)

// DefaultSetNXGetSetOptions are the documented defaults of
// SetNXGetSetOptions.
func DefaultSetNXGetSetOptions() *SetNXGetSetOptions {
	return &SetNXGetSetOptions{Key: "lock", TTL: 60 * time.Second,
		Backoff: Backoff{Retry: 100 * time.Millisecond, AcquireTimeout: 10 * time.Second}, Recover: RecoverGetSet}
}

func (o *SetNXGetSetOptions) fields() []field {
	return []field{
		{"key", &o.Key, "the lock's key (001: lockKey + \"_lock\")"},
		{"ttl", &o.TTL, "expireMsecs: the lock's validity written into its value (now + ttl + 1ms)"},
		{"acquire_timeout", &o.AcquireTimeout, "timeoutMsecs: give up acquiring after this long"},
		{"retry", &o.Retry, "DEFAULT_ACQUIRY_RESOLUTION_MILLIS: wait between attempts"},
		{"retry_jitter", &o.RetryJitter, "extra random wait in [0, retry_jitter)"},
		{"recover", &o.Recover, "how an expired lock is taken over: getset (001's fix) or del (the naive DEL + SETNX)"},
		{"check_expiry", &o.CheckExpiry, "001's advice: before DEL, check that our own timestamp has not passed"},
	}
}

// SetNXGetSet is row 6 (seed 001): the lock's value is its expiry time as
// Unix milliseconds, SETNX lock now+timeout+1. A client that finds the lock
// taken GETs it; if the time in it has passed, the holder is presumed dead
// and the client takes over with GETSET lock newtime, winning only if the
// old value it got back is the one it read (so of two clients racing, one
// wins). Release is a plain DEL.
//
// It recovers from a crashed holder without any Redis TTL. Its flaws: with
// Recover "del" (the naive takeover 001 warns about) two clients both DEL and
// SETNX and both get in; every client compares its own clock with a time
// another client wrote, so a client whose clock runs ahead steals a live
// lock; and a holder whose work outlasts its timestamp DELs the lock of
// whoever took over.
type SetNXGetSet struct {
	c       Config
	o       *SetNXGetSetOptions
	expires int64 // the timestamp we wrote when we got the lock
}

// NewSetNXGetSet builds the lock (nil options: the defaults).
func NewSetNXGetSet(c Config, o *SetNXGetSetOptions) Locker {
	if o == nil {
		o = DefaultSetNXGetSetOptions()
	}
	return &SetNXGetSet{c: c, o: o}
}

// Lock is 001's lock(): SETNX; else GET, and if expired GETSET (or DEL and
// SETNX with Recover "del"); retried every Retry until AcquireTimeout.
func (l *SetNXGetSet) Lock(ctx context.Context) error {
	key := l.o.Key
	start := l.c.Clock.Now()
	for {
		expires := l.c.Clock.Now().Add(l.o.TTL).UnixMilli() + 1
		val := strconv.FormatInt(expires, 10)
		l.c.own(val) // SETNX writes it only if it wins: the timeline shows it as ours
		ok, err := setnx(ctx, l.c.Redis, key, val)
		if err != nil && ctx.Err() != nil {
			return err
		}
		if err == nil && ok {
			l.expires = expires
			return nil
		}
		if err == nil {
			got, err := l.takeOver(ctx, key, val)
			if err != nil {
				return err
			}
			if got {
				return nil
			}
		}
		if err := sleepRetry(ctx, &l.c, l.o.Backoff, start); err != nil {
			return err
		}
	}
}

// takeOver reads the lock's timestamp and, if it has passed by our clock,
// tries to take the lock.
func (l *SetNXGetSet) takeOver(ctx context.Context, key, val string) (bool, error) {
	cur, err := l.c.Redis.Get(ctx, key).Result()
	if errors.Is(err, redis.Nil) || err != nil && ctx.Err() == nil {
		return false, nil
	} else if err != nil {
		return false, err
	}
	t, perr := strconv.ParseInt(cur, 10, 64)
	if perr != nil || t >= l.c.Clock.Now().UnixMilli() {
		return false, nil
	}
	l.c.mark("expired", &fact.Fact{Key: fact.StampPassed, Value: cur})
	if l.o.Recover == RecoverDel {
		if err := l.c.Redis.Del(ctx, key).Err(); err != nil && ctx.Err() != nil {
			return false, err
		}
		ok, err := setnx(ctx, l.c.Redis, key, val)
		if err != nil && ctx.Err() != nil {
			return false, err
		}
		if err == nil && ok {
			l.expires, _ = strconv.ParseInt(val, 10, 64)
		}
		return err == nil && ok, nil
	}
	// The GETSET value is the time now + ttl + 1, read afresh (001 reuses
	// the string from before its SETNX, a few ms older). It is registered
	// as ours before it is sent, as SETNX's is: the key holds our timestamp
	// from the moment GETSET runs, so the timeline shows it as ours and the
	// checker sees a later DEL by someone else remove it. A loser's GETSET
	// also overwrites the winner's timestamp with its own (001 calls the
	// difference negligible); the key then shows the loser's value.
	val = strconv.FormatInt(l.c.Clock.Now().Add(l.o.TTL).UnixMilli()+1, 10)
	if val == cur {
		return false, nil
	}
	l.c.own(val)
	old, err := l.c.Redis.GetSet(ctx, key, val).Result()
	if err != nil && !errors.Is(err, redis.Nil) && ctx.Err() != nil {
		return false, err
	}
	won := err == nil && old == cur
	if won {
		l.expires, _ = strconv.ParseInt(val, 10, 64)
	}
	return won, nil
}

// Unlock is 001's unlock(): DEL lock. With CheckExpiry, a holder whose own
// timestamp has passed leaves the lock alone, as 001 advises.
func (l *SetNXGetSet) Unlock(ctx context.Context) error {
	if l.o.CheckExpiry && l.c.Clock.Now().UnixMilli() > l.expires {
		return ErrNotHeld
	}
	return l.c.Redis.Del(ctx, l.o.Key).Err()
}
