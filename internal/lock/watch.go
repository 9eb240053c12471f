package lock

import (
	"context"
	"errors"
	"github.com/lockstep/lockstep/internal/fact"
	"time"

	"github.com/redis/go-redis/v9"
)

func init() {
	a := typed(&Info{ID: "watch-multi-exec", Row: 3, Title: "Optimistic WATCH / MULTI / EXEC, retried", Seed: "000 【1】, 003",
		Flaw: "safe without a lock, but every conflict is a retry, and retries grow with contention"},
		DefaultWatchMultiExecOptions, NewWatchMultiExec)
	a.NewOptimistic = func(c Config) Optimistic {
		return newWatchMultiExec(c, optionsOr(c, DefaultWatchMultiExecOptions))
	}
	register(a)
}

// WatchMultiExecOptions are the options of row 3. Nil options are
// DefaultWatchMultiExecOptions.
type WatchMultiExecOptions struct {
	// Retry is the sleep before retrying a failed EXEC (default 50ms, as
	// 000's Thread.sleep(50)).
	Retry time.Duration
	// RetryJitter adds a random wait in [0, RetryJitter) to each (0, the
	// default: none).
	RetryJitter time.Duration
	// MaxRetries gives up with ErrTooManyRetries after this many failed
	// EXECs (0, the default: never).
	MaxRetries int
}

// DefaultWatchMultiExecOptions are the documented defaults of
// WatchMultiExecOptions.
func DefaultWatchMultiExecOptions() *WatchMultiExecOptions {
	return &WatchMultiExecOptions{Retry: 50 * time.Millisecond}
}

func (o *WatchMultiExecOptions) fields() []field {
	return []field{
		{"retry", &o.Retry, "sleep before retrying a failed EXEC (000: Thread.sleep(50))"},
		{"retry_jitter", &o.RetryJitter, "extra random wait in [0, retry_jitter)"},
		{"max_retries", &o.MaxRetries, "give up after this many retries (0: never)"},
	}
}

// Optimistic is an algorithm that guards a read-modify-write without taking
// any lock: the program hands it the keys to watch and the body instead of
// running its own critical section between Lock and Unlock.
type Optimistic interface {
	// Transact runs read under WATCH keys. read returns the writes to
	// commit (nil: nothing to write); they go out as MULTI ... EXEC, and a
	// conflict (EXEC answers nil) sleeps and starts over from WATCH.
	Transact(ctx context.Context, keys []string, read func(tx *redis.Tx) (write func(redis.Pipeliner) error, err error)) error
}

// WatchMultiExec is row 3 (seeds 000 【1】, 003): Redis optimistic
// concurrency. WATCH stock; GET stock; MULTI; SET stock n-1; EXEC — and if
// EXEC answers nil because someone changed the stock in between, sleep 50ms
// and do it all again. It never oversells; but under contention most EXECs
// fail, and the retries (each a mark "retry") grow with the number of
// clients: 003's table, where five buyers made 161000 retries.
type WatchMultiExec struct {
	c Config
	o *WatchMultiExecOptions
}

// NewWatchMultiExec builds the algorithm (nil options: the defaults). As
// a Locker it takes no lock: Transact is the algorithm.
func NewWatchMultiExec(c Config, o *WatchMultiExecOptions) Locker { return newWatchMultiExec(c, o) }

func newWatchMultiExec(c Config, o *WatchMultiExecOptions) *WatchMultiExec {
	if o == nil {
		o = DefaultWatchMultiExecOptions()
	}
	return &WatchMultiExec{c, o}
}

// Lock takes no lock: the protection is the WATCH inside Transact.
func (l *WatchMultiExec) Lock(context.Context) error { return nil }

// Unlock releases nothing.
func (l *WatchMultiExec) Unlock(context.Context) error { return nil }

// ErrTooManyRetries is what Transact returns after MaxRetries conflicts.
var ErrTooManyRetries = errors.New("lock: too many WATCH retries")

// Transact runs read and its writes in WATCH / MULTI / EXEC, retrying on
// conflict after the retry interval.
func (l *WatchMultiExec) Transact(ctx context.Context, keys []string, read func(tx *redis.Tx) (func(redis.Pipeliner) error, error)) error {
	c, o := &l.c, l.o
	for retries := 0; ; retries++ {
		err := c.Redis.Watch(ctx, func(tx *redis.Tx) error {
			write, err := read(tx)
			if err != nil || write == nil {
				return err
			}
			_, err = tx.TxPipelined(ctx, write)
			return err
		}, keys...)
		if !errors.Is(err, redis.TxFailedErr) {
			return err
		}
		if most := o.MaxRetries; most > 0 && retries+1 >= most {
			c.mark("gave-up", &fact.Fact{Key: fact.ExecFailed, Tries: retries + 1})
			return ErrTooManyRetries
		}
		c.mark("retry", &fact.Fact{Key: fact.ExecRetry, Tries: retries + 1})
		d := o.Retry
		if j := o.RetryJitter; j > 0 && c.Jitter != nil {
			d += c.Jitter(j)
		}
		if err := c.Clock.Sleep(ctx, d); err != nil {
			return err
		}
	}
}
