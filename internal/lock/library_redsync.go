package lock

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/go-redsync/redsync/v4"
	redsyncredis "github.com/go-redsync/redsync/v4/redis"
	"github.com/go-redsync/redsync/v4/redis/goredis/v9"
	"github.com/redis/go-redis/v9"

	"github.com/lockstep/lockstep/internal/fact"
)

func init() {
	register(typed(&Info{ID: "redsync", Row: 18, Title: "go-redsync/redsync: the Redlock library, run as it is", Seed: "github.com/go-redsync/redsync/v4",
		Flaw: "Redlock as Go code imports it: safe while the TTL outlasts the work, but it never extends by itself (PR #153), " +
			"its unlock after expiry answers with a lock error (#107), and an extend after a node restart holds fewer nodes (PR #149)",
		Library: &Library{Module: "github.com/go-redsync/redsync/v4", Version: "v4.18.1", License: "BSD-3-Clause", Dir: "redsync", File: "mutex.go", Scripts: "scripts.go",
			URL: "https://github.com/go-redsync/redsync"},
		CompareNodes: 3,
		Quorum:       func(_ Options, masters int) int { return masters/2 + 1 }, // mutex.go: quorum = len(pools)/2 + 1
		FlawAfter:    []string{"SET"},                                           // a vote (SET NX PX), before the quorum is counted
		CompareParams: func(lease, retry time.Duration) map[string]any {
			// its 32 tries would stop it after about 32 retries: these outlast any run beside the others
			return map[string]any{"expiry": lease.String(), "retry_delay": retry.String(), "tries": 1000}
		}},
		DefaultRedsyncOptions, NewRedsync))
}

// RedsyncOptions are the options of row 18: redsync's own (its Option
// functions), with its defaults, and how often the caller extends.
type RedsyncOptions struct {
	// Key is the mutex's name, its key on every node (default "lock").
	Key string
	// Expiry is the lock's time to live on each node (WithExpiry; default 8s).
	Expiry time.Duration
	// Tries is how many times Lock tries (WithTries; default 32).
	Tries int
	// RetryDelay is the wait between tries (WithRetryDelay); 0, the
	// default, is the library's own: a random 50-250ms, here drawn from
	// the process's seeded source.
	RetryDelay time.Duration
	// DriftFactor is the clock drift allowance (WithDriftFactor; default
	// 0.01): until = now + expiry - elapsed - expiry*DriftFactor.
	DriftFactor float64
	// TimeoutFactor bounds each node's answer to expiry*TimeoutFactor
	// (WithTimeoutFactor; default 0.05).
	TimeoutFactor float64
	// FailFast returns as soon as a quorum answered (WithFailFast;
	// default false).
	FailFast bool
	// SetNXOnExtend makes Extend also SET the key where it is missing,
	// a node that restarted empty (WithSetNXOnExtend, PR #149; default
	// false).
	SetNXOnExtend bool
	// Extend is how often the caller calls Extend while it holds the
	// lock, from a thread of its own, stopping at the first failure (0,
	// the default: never). redsync has no watchdog (PR #153 was closed):
	// this is the loop its users write.
	Extend time.Duration
}

// DefaultRedsyncOptions are redsync's defaults (redsync.go, NewMutex).
func DefaultRedsyncOptions() *RedsyncOptions {
	return &RedsyncOptions{Key: "lock", Expiry: 8 * time.Second, Tries: 32, DriftFactor: 0.01, TimeoutFactor: 0.05}
}

func (o *RedsyncOptions) fields() []field {
	return []field{
		{"key", &o.Key, "the mutex's name: its key on every node"},
		{"expiry", &o.Expiry, "the lock's time to live on each node (WithExpiry)"},
		{"tries", &o.Tries, "how many times Lock tries before it fails (WithTries)"},
		{"retry_delay", &o.RetryDelay, "the wait between tries (WithRetryDelay; 0: the library's random 50-250ms)"},
		{"drift_factor", &o.DriftFactor, "clock drift allowance: until = now + expiry - elapsed - expiry*drift_factor (WithDriftFactor)"},
		{"timeout_factor", &o.TimeoutFactor, "each node must answer within expiry*timeout_factor (WithTimeoutFactor)"},
		{"fail_fast", &o.FailFast, "return as soon as a quorum answered (WithFailFast)"},
		{"set_nx_on_extend", &o.SetNXOnExtend, "Extend also SETs the key where it is missing, on a node that restarted empty (WithSetNXOnExtend, PR #149)"},
		{"extend", &o.Extend, "the caller calls Extend this often while it holds the lock, until one fails (0: never; redsync has no watchdog)"},
	}
}

// Redsync is row 18: github.com/go-redsync/redsync/v4's Mutex, the code
// itself (third_party/redsync), on the Config's nodes through its go-redis
// v9 pool. It asks every node at once (a thread per node, as its
// goroutines), holds the lock when a majority said yes and time is left
// (until = now + expiry - elapsed - drift), and releases with its Lua
// compare-and-delete, which tells "expired" (-1) from "someone else's"
// (0). Lock and Unlock are the library's LockContext and UnlockContext;
// the library's errors reach the caller as they are, standing for
// ErrNotAcquired or ErrNotHeld.
type Redsync struct {
	c       Config
	o       *RedsyncOptions
	m       *redsync.Mutex
	running *bool // the extend loop's run flag
}

// NewRedsync builds the lock over c.Nodes (or c.Redis alone), which must
// be go-redis clients (nil options: redsync's defaults).
func NewRedsync(c Config, o *RedsyncOptions) Locker {
	if o == nil {
		o = DefaultRedsyncOptions()
	}
	return &Redsync{c: c, o: o}
}

// Mutex is the library's mutex the lock runs, once Lock has made it.
func (l *Redsync) Mutex() *redsync.Mutex { return l.m }

// mutex makes the library's mutex with the options and the Config's
// runtime, owner and random source.
func (l *Redsync) mutex() (*redsync.Mutex, error) {
	if l.c.Runtime == nil {
		return nil, errNoRuntime
	}
	nodes := l.c.Nodes
	if len(nodes) == 0 && l.c.Redis != nil {
		nodes = []Redis{l.c.Redis}
	}
	pools := make([]redsyncredis.Pool, len(nodes))
	for i, n := range nodes {
		u, ok := n.(redis.UniversalClient)
		if !ok {
			return nil, fmt.Errorf("lock: redsync needs go-redis clients, got %T", n)
		}
		pools[i] = goredis.NewPool(u)
	}
	o, c := l.o, l.c
	opts := []redsync.Option{
		redsync.WithRuntime(redsyncRuntime{c.Runtime}),
		redsync.WithExpiry(o.Expiry),
		redsync.WithTries(o.Tries),
		redsync.WithDriftFactor(o.DriftFactor),
		redsync.WithTimeoutFactor(o.TimeoutFactor),
		redsync.WithFailFast(o.FailFast),
		redsync.WithGenValueFunc(func() (string, error) { return c.Owner, nil }),
	}
	if o.RetryDelay > 0 {
		opts = append(opts, redsync.WithRetryDelay(o.RetryDelay))
	} else {
		// the library's default delay, uniform over 50-250 ms, drawn from
		// the run's seeded jitter rather than the machine's random source
		opts = append(opts, redsync.WithRetryDelayFunc(func(int) time.Duration {
			d := 50 * time.Millisecond
			if c.Jitter != nil {
				d += c.Jitter(200 * time.Millisecond).Truncate(time.Millisecond)
			}
			return d
		}))
	}
	if o.SetNXOnExtend {
		opts = append(opts, redsync.WithSetNXOnExtend())
	}
	return redsync.New(pools...).NewMutex(o.Key, opts...), nil
}

// Lock is the library's LockContext. Its failure (ErrFailed, or the
// last try's error: ErrTaken, a node's error) stands for ErrNotAcquired.
func (l *Redsync) Lock(ctx context.Context) error {
	if l.m == nil {
		m, err := l.mutex()
		if err != nil {
			return err
		}
		l.m = m
	}
	if err := l.m.LockContext(ctx); err != nil {
		if ctx.Err() != nil {
			return err
		}
		return &libError{ErrNotAcquired, err}
	}
	// Runtime is the engine's virtual clock (a client without one is
	// refused before it runs).
	l.c.mark("valid-until", &fact.Fact{Key: fact.ValidUntil, For: l.m.Until().Sub(l.c.Runtime.Now())})
	if l.o.Extend > 0 && l.running == nil {
		l.startExtending()
	}
	return nil
}

// Unlock is the library's UnlockContext. When it answers false because
// the lock was not ours on a quorum (ErrLockAlreadyExpired, ErrTaken),
// its error stands for ErrNotHeld; a node's error is returned as it is.
func (l *Redsync) Unlock(ctx context.Context) error {
	l.stopExtending()
	if l.m == nil {
		return ErrNotHeld
	}
	ok, err := l.m.UnlockContext(ctx)
	switch {
	case ok:
		return nil
	case err == nil:
		return ErrNotHeld
	}
	var re *redsync.RedisError
	if errors.As(err, &re) {
		return lineError{err}
	}
	return &libError{ErrNotHeld, err}
}

// startExtending starts the caller's extend loop: every Extend, the
// library's ExtendContext, until one fails or Unlock stops it.
func (l *Redsync) startExtending() {
	if l.c.Threads == nil {
		l.c.mark("no-extend", fact.New(fact.NoWatchdog))
		return
	}
	c, m := l.c, l.m
	l.running = callersLoop(c, "extend", l.o.Extend, func(ctx context.Context) bool {
		ok, err := m.ExtendContext(ctx)
		if !ok {
			said := fact.New(fact.ExtendFailed)
			if err != nil {
				said.Text = oneLine(err)
			}
			c.mark("extend-failed", said)
			return false
		}
		c.mark("extended", &fact.Fact{Key: fact.Extended, For: m.Until().Sub(c.Clock.Now())})
		return true
	})
}

// stopExtending tells the extend loop to end at its next wake-up.
func (l *Redsync) stopExtending() { stopLoop(&l.running) }

// redsyncRuntime is redsync's Runtime over the Config's.
type redsyncRuntime struct{ rt Runtime }

func (r redsyncRuntime) Now() time.Time { return r.rt.Now() }

func (r redsyncRuntime) Sleep(ctx context.Context, d time.Duration) error { return r.rt.Sleep(ctx, d) }

func (r redsyncRuntime) WithTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return r.rt.WithDeadline(ctx, r.rt.Now().Add(d))
}

func (r redsyncRuntime) Go(n int, fn func(i int)) func() int { return r.rt.Async(n, fn) }
