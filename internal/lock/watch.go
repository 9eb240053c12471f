package lock

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

func init() {
	register(&Info{ID: "watch-multi-exec", Row: 3, Title: "Optimistic WATCH / MULTI / EXEC, retried", Seed: "000 【1】, 003",
		Flaw: "safe without a lock, but every conflict is a retry, and retries grow with contention",
		Params: []Param{
			{Name: "retry", Kind: Dur, Default: 50 * time.Millisecond, Doc: "sleep before retrying a failed EXEC (000: Thread.sleep(50))"},
			{Name: "retry_jitter", Kind: Dur, Default: time.Duration(0), Doc: "extra random wait in [0, retry_jitter)"},
			{Name: "max_retries", Kind: Int, Default: 0, Doc: "give up after this many retries (0: never)"},
		},
		New: NewWatchMultiExec})
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

// Watcher is a client that can run WATCH transactions (a *redis.Client).
type Watcher interface {
	Watch(ctx context.Context, fn func(*redis.Tx) error, keys ...string) error
}

// WatchMultiExec is row 3 (seeds 000 【1】, 003): Redis optimistic
// concurrency. WATCH stock; GET stock; MULTI; SET stock n-1; EXEC — and if
// EXEC answers nil because someone changed the stock in between, sleep 50ms
// and do it all again. It never oversells; but under contention most EXECs
// fail, and the retries (each a mark "retry") grow with the number of
// clients: 003's table, where five buyers made 161000 retries.
type WatchMultiExec struct{ c Config }

// NewWatchMultiExec builds the algorithm.
func NewWatchMultiExec(c Config) Locker { return &WatchMultiExec{c} }

// Lock takes no lock: the protection is the WATCH inside Transact.
func (l *WatchMultiExec) Lock(context.Context) error { return nil }

// Unlock releases nothing.
func (l *WatchMultiExec) Unlock(context.Context) error { return nil }

// ErrTooManyRetries is what Transact returns after max_retries conflicts.
var ErrTooManyRetries = errors.New("lock: too many WATCH retries")

// Transact runs read and its writes in WATCH / MULTI / EXEC, retrying on
// conflict after the retry interval.
func (l *WatchMultiExec) Transact(ctx context.Context, keys []string, read func(tx *redis.Tx) (func(redis.Pipeliner) error, error)) error {
	return watchRetry(ctx, &l.c, keys, read)
}

// watchRetry is the WATCH retry loop shared by every optimistic algorithm.
func watchRetry(ctx context.Context, c *Config, keys []string, read func(tx *redis.Tx) (func(redis.Pipeliner) error, error)) error {
	wc, ok := c.Redis.(Watcher)
	if !ok {
		return errors.New("lock: WATCH needs a client that can run transactions")
	}
	for retries := 0; ; retries++ {
		err := wc.Watch(ctx, func(tx *redis.Tx) error {
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
		if max := c.Params.Int("max_retries"); max > 0 && retries+1 >= max {
			c.mark("gave-up", fmt.Sprintf("EXEC failed %d times", retries+1))
			return ErrTooManyRetries
		}
		c.mark("retry", fmt.Sprintf("EXEC answered nil: a watched key changed (retry %d)", retries+1))
		d := c.Params.Duration("retry")
		if j := c.Params.Duration("retry_jitter"); j > 0 && c.Jitter != nil {
			d += c.Jitter(j)
		}
		if err := c.Clock.Sleep(ctx, d); err != nil {
			return err
		}
	}
}
