package lock

import (
	"context"
	"errors"
	"github.com/lockstep/lockstep/internal/fact"
	"time"

	"github.com/redis/go-redis/v9"
)

// Clock is the time a lock sees: the virtual clock of its process.
type Clock interface {
	Now() time.Time
	Sleep(ctx context.Context, d time.Duration) error
}

// Redis is the narrow client the locks need: the go-redis commands they
// send, each as a *redis.Client method of the same signature, and the
// script runner of redis.Script (redis.Scripter). A *redis.Client
// satisfies it; a wrapper (a fault injected in a test) implements only
// these.
type Redis interface {
	redis.Scripter
	Get(ctx context.Context, key string) *redis.StringCmd
	SetNX(ctx context.Context, key string, value any, expiration time.Duration) *redis.BoolCmd
	GetSet(ctx context.Context, key string, value any) *redis.StringCmd
	Del(ctx context.Context, keys ...string) *redis.IntCmd
	Expire(ctx context.Context, key string, expiration time.Duration) *redis.BoolCmd
	TTL(ctx context.Context, key string) *redis.DurationCmd
	// Wait is WAIT numreplicas timeout (row 14).
	Wait(ctx context.Context, numReplicas int, timeout time.Duration) *redis.IntCmd
	// Watch runs fn in a WATCH transaction on keys (rows 3 and 10).
	Watch(ctx context.Context, fn func(*redis.Tx) error, keys ...string) error
	// Process sends a command go-redis has no method of its own for, as
	// the seeds write it (SETNX: go-redis's SetNX sends SET NX).
	Process(ctx context.Context, cmd redis.Cmder) error
}

var _ Redis = (*redis.Client)(nil)

// Threads runs a lock's code on other threads of its caller's process,
// which the caller's scheduler runs: a lock never starts a goroutine of
// its own.
type Threads interface {
	// Go starts fn on a thread of its own and returns at once (the
	// watchdog of row 13).
	Go(name string, fn func(ctx context.Context) error)
	// Each runs fn(ctx, i) for every i < n at once and returns when every
	// one has returned (Redlock asks all its masters together), or with
	// ctx's error.
	Each(ctx context.Context, n int, fn func(ctx context.Context, i int)) error
}

// Orphans is what a Threads may also tell a thread it started: whether
// the thread that started it has ended on an error, leaving it behind.
type Orphans interface {
	Orphaned() bool
}

// Observer is what a lock shows of itself beyond its commands: the steps
// of its algorithm, the values it writes that stand for its owner, and
// the fencing tokens it hands to the critical section. The engine's
// timeline and checker read them; a lock works the same without one (a
// nil Observer).
type Observer interface {
	// Mark reports a step of the algorithm (retry, quorum, renewed, ...)
	// and what it says, as a fact (nil: nothing more than its name).
	Mark(name string, said *fact.Fact)
	// Own registers a value the lock writes (a timestamp, say) as its
	// owner's, so that the timeline can show whose it is.
	Own(value string)
	// Fence hands the fencing token of a new lease to the code inside the
	// critical section (row 16).
	Fence(token int64)
}

// Locker is a lock around a critical section.
type Locker interface {
	// Lock blocks until the lock is held, or returns ErrNotAcquired when its
	// acquire timeout runs out, or the error that stopped it.
	Lock(ctx context.Context) error
	// Unlock releases the lock. ErrNotHeld means the release found the lock
	// no longer ours (and, for a safe algorithm, left it alone).
	Unlock(ctx context.Context) error
}

// Errors of the lock package.
var (
	ErrNotAcquired = errors.New("lock: not acquired")
	ErrNotHeld     = errors.New("lock: not held by this owner")
)

// Jitter gives a random retry jitter in [0, limit); lock code gets it from
// its process's seeded random source.
type Jitter func(limit time.Duration) time.Duration

// Config is what every algorithm is built from: the clients of the
// process that runs it, its clock, its owner identity and the algorithm's
// typed Options. Each algorithm reads only the clients it uses.
type Config struct {
	Redis Redis      // the node (single-node algorithms)
	Nodes []Redis    // every master (Redlock)
	SQL   SQL        // the database (the MySQL lock, row 17)
	Local LocalMutex // the process's in-process mutex (row 2)

	Clock   Clock
	Threads Threads // the watchdog's thread, Redlock's at once; nil: no watchdog, one master after another
	// Runtime is what the libraries' own code runs on (rows 18-19): the
	// same clock, with deadlines, and threads; nil: they refuse to run.
	Runtime Runtime
	Jitter  Jitter // nil: no jitter
	Owner   string // the owner identity the lock stores (a token, uuid:thread, ...)
	// Options are the algorithm's typed options, from its Info.Decode
	// (nil, or options of another algorithm: its defaults).
	Options Options
	// Observer sees the lock's steps, owned values and fencing tokens;
	// nil: nobody.
	Observer Observer
	// Site, when set, makes the commands sent with the context it returns
	// come from line of file in the code view: a lock declared in a
	// scenario, whose code is not Go, names its own lines (nil: the Go
	// call site is the line).
	Site func(ctx context.Context, file string, line int) context.Context
}

// LocalMutex is an in-process lock shared by one process's threads.
type LocalMutex interface {
	Lock(ctx context.Context) error
	Unlock()
}

// mark reports a step to the observer, if any.
func (c *Config) mark(name string, said *fact.Fact) {
	if c.Observer != nil {
		c.Observer.Mark(name, said)
	}
}

// own registers a written value with the observer, if any.
func (c *Config) own(v string) {
	if c.Observer != nil {
		c.Observer.Own(v)
	}
}

// fence hands a fencing token to the observer, if any.
func (c *Config) fence(token int64) {
	if c.Observer != nil {
		c.Observer.Fence(token)
	}
}

// each runs fn(ctx, i) for every i < n: at once on the Config's Threads,
// else one after another; it stops early only when ctx is done.
func (c *Config) each(ctx context.Context, n int, fn func(ctx context.Context, i int)) error {
	if c.Threads != nil {
		return c.Threads.Each(ctx, n, fn)
	}
	for i := range n {
		fn(ctx, i)
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}

// retry calls try until it reports the lock taken, sleeping the retry
// interval (sleepRetry) after each miss. An error is a miss, unless ctx is
// done: then it ends the loop.
func retry(ctx context.Context, c *Config, b Backoff, try func() (bool, error)) error {
	start := c.Clock.Now()
	for {
		ok, err := try()
		if err != nil && ctx.Err() != nil {
			return err
		}
		if err == nil && ok {
			return nil
		}
		if err := sleepRetry(ctx, c, b, start); err != nil {
			return err
		}
	}
}

// sleepRetry waits b's retry interval plus jitter, or returns
// ErrNotAcquired once b's acquire timeout (if any) would pass.
func sleepRetry(ctx context.Context, c *Config, b Backoff, start time.Time) error {
	d := b.Retry
	if j := b.RetryJitter; j > 0 && c.Jitter != nil {
		d += c.Jitter(j)
	}
	if to := b.AcquireTimeout; to > 0 && c.Clock.Now().Add(d).Sub(start) > to {
		return ErrNotAcquired
	}
	return c.Clock.Sleep(ctx, d)
}

// setnx sends the SETNX command itself (go-redis's SetNX sends SET NX), so
// the timeline shows the seeds' command.
func setnx(ctx context.Context, r Redis, key, value string) (bool, error) {
	cmd := redis.NewBoolCmd(ctx, "setnx", key, value)
	_ = r.Process(ctx, cmd)
	return cmd.Result()
}
