package lock

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

// Clock is the time a lock sees: the virtual clock of its process.
type Clock interface {
	Now() time.Time
	Sleep(ctx context.Context, d time.Duration) error
}

// Redis is the narrow client a single-node lock needs.
type Redis interface {
	redis.Cmdable
	redis.Scripter
	// Wait is WAIT numreplicas timeout (row 14), which go-redis' clients
	// have but Cmdable does not list.
	Wait(ctx context.Context, numReplicas int, timeout time.Duration) *redis.IntCmd
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

// Jitter gives a random retry jitter in [0, max); lock code gets it from its
// process's seeded random source.
type Jitter func(max time.Duration) time.Duration

// Config is what every algorithm is built from: the clients, clock and
// hooks of the process that runs it, and the algorithm's typed Options.
type Config struct {
	Redis  Redis   // the node (single-node algorithms)
	Nodes  []Redis // every master (Redlock)
	Clock  Clock
	Jitter Jitter
	Owner  string // the owner identity the lock stores (a token, uuid:thread, ...)
	// Options are the algorithm's typed options, from its Info.Decode
	// (nil, or options of another algorithm: its defaults).
	Options Options

	// Local is the process's in-process mutex (row 2); nil elsewhere.
	Local LocalMutex
	// Spawn starts another scheduled thread of the process (a watchdog).
	Spawn func(name string, fn func(ctx context.Context) error)
	// Mark logs a step of the algorithm (retry, renewed, ...); may be nil.
	Mark func(name, note string)
	// Fence hands the fencing token of a new lease to the code inside the
	// critical section (row 16); may be nil.
	Fence func(token int64)
	// SQL is the database of the MySQL lock (row 17); nil elsewhere.
	SQL SQL
	// Own registers a value the lock writes (a timestamp, say) as this
	// process's, so the timeline can show whose it is; may be nil.
	Own func(value string)
}

// LocalMutex is an in-process lock shared by one process's threads.
type LocalMutex interface {
	Lock(ctx context.Context) error
	Unlock()
}

// mark logs a step if the Config has a Mark hook.
func (c *Config) mark(name, note string) {
	if c.Mark != nil {
		c.Mark(name, note)
	}
}

// own registers a written value if the Config has an Own hook.
func (c *Config) own(v string) {
	if c.Own != nil {
		c.Own(v)
	}
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
	p, ok := r.(interface {
		Process(ctx context.Context, cmd redis.Cmder) error
	})
	if !ok {
		return r.SetNX(ctx, key, value, 0).Result()
	}
	cmd := redis.NewBoolCmd(ctx, "setnx", key, value)
	_ = p.Process(ctx, cmd)
	return cmd.Result()
}
