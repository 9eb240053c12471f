package lockbench

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bsm/redislock"
	"github.com/go-redsync/redsync/v4"
	"github.com/go-redsync/redsync/v4/redis/goredis/v9"
	"github.com/redis/go-redis/v9"

	"github.com/lockstep/lockstep/internal/lock"
)

// TTL is every contestant's lock TTL: longer than any pair takes, so that
// no lock expires under its holder.
const TTL = 10 * time.Second

// Retry is every contestant's wait between acquire attempts. The libraries'
// defaults differ (redsync a random 50-250ms, redislock no retry at all,
// Lockstep's lua-compare-delete 100ms); one value for all keeps the
// contended runs comparable.
const Retry = time.Millisecond

// Pair takes the lock on key, runs section while holding it, and releases
// it; it returns an error when the lock or the release failed.
type Pair func(ctx context.Context, key string, section func()) error

// Contestant is a lock as its users call it.
type Contestant struct {
	Name string
	// New makes one worker's Pair on rdb (worker w of a run).
	New func(rdb *redis.Client, worker int) Pair
}

// Contestants are Lockstep's own compare-and-delete lock (row 9,
// internal/lock on the machine's clock) and the two libraries, called as
// their READMEs show.
var Contestants = []Contestant{
	{"lockstep", newLockstep},
	{"redislock", newRedislock},
	{"redsync", newRedsync},
}

// newLockstep is internal/lock's lua-compare-delete: SET key owner NX PX,
// then compare_and_delete.lua, with a fresh owner token for each pair.
func newLockstep(rdb *redis.Client, worker int) Pair {
	info, _ := lock.Lookup("lua-compare-delete")
	opts := map[string]lock.Options{}
	n := 0
	return func(ctx context.Context, key string, section func()) error {
		o, ok := opts[key]
		if !ok {
			var err error
			if o, err = info.Decode(map[string]any{"key": key, "ttl": TTL, "retry": Retry}); err != nil {
				return err
			}
			opts[key] = o
		}
		n++
		owner := "w" + strconv.Itoa(worker) + "-" + strconv.Itoa(n)
		l := info.New(lock.Config{Redis: rdb, Clock: Machine{}, Threads: Machine{}, Runtime: Machine{}, Owner: owner, Options: o})
		if err := l.Lock(ctx); err != nil {
			return err
		}
		section()
		return l.Unlock(ctx)
	}
}

// newRedislock is redislock's Obtain and Release, retrying linearly.
func newRedislock(rdb *redis.Client, _ int) Pair {
	c := redislock.New(rdb)
	opt := &redislock.Options{RetryStrategy: redislock.LinearBackoff(Retry)}
	return func(ctx context.Context, key string, section func()) error {
		lk, err := c.Obtain(ctx, key, TTL, opt)
		if err != nil {
			return err
		}
		section()
		return lk.Release(ctx)
	}
}

// newRedsync is redsync's Mutex on one node: LockContext and
// UnlockContext, one Mutex per key as its README makes them.
func newRedsync(rdb *redis.Client, _ int) Pair {
	rs := redsync.New(goredis.NewPool(rdb))
	mutexes := map[string]*redsync.Mutex{}
	return func(ctx context.Context, key string, section func()) error {
		m, ok := mutexes[key]
		if !ok {
			m = rs.NewMutex(key, redsync.WithExpiry(TTL), redsync.WithRetryDelay(Retry), redsync.WithTries(1<<30))
			mutexes[key] = m
		}
		if err := m.LockContext(ctx); err != nil {
			return err
		}
		section()
		ok, err := m.UnlockContext(ctx)
		if !ok && err == nil {
			err = errors.New("redsync: unlock returned false")
		}
		return err
	}
}

// Workload is how the workers share keys.
type Workload struct {
	Name    string
	Workers int
	Shared  bool // every worker on one key (else each on its own)
}

// Workloads are the three of docs/performance.md.
var Workloads = []Workload{
	{"1-client", 1, false},
	{"8-own-keys", 8, false},
	{"8-one-key", 8, true},
}

// Result is what a run of pairs counted.
type Result struct {
	Pairs    int           // pairs attempted
	Correct  int           // pairs that locked, released, and whose critical section overlapped no other
	Overlaps int           // times a worker entered a critical section another was inside
	Errors   int           // pairs whose lock or release failed
	Elapsed  time.Duration // the run's wall time
	FirstErr error
}

// PerSecond is the rate of correct pairs.
func (r Result) PerSecond() float64 { return float64(r.Correct) / r.Elapsed.Seconds() }

// section watches one key's critical sections: inside counts who is in;
// gen moves on every overlap, so that a section that saw one (entering
// into another, or while another entered) does not count.
type section struct {
	inside atomic.Int32
	gen    atomic.Int64
}

// Run makes n pairs with c on rdb, by w's workers, on keys under prefix.
func Run(ctx context.Context, rdb *redis.Client, c Contestant, w Workload, n int, prefix string) Result {
	keys := make([]string, w.Workers)
	secs := make([]*section, w.Workers)
	shared := &section{}
	for i := range keys {
		keys[i], secs[i] = fmt.Sprintf("%s:%d", prefix, i), &section{}
		if w.Shared {
			keys[i], secs[i] = prefix+":shared", shared
		}
	}
	var tickets, correct, overlaps, errs atomic.Int64
	var mu sync.Mutex
	var first error
	var wg sync.WaitGroup
	start := time.Now()
	for i := range w.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pair := c.New(rdb, i)
			key, s := keys[i], secs[i]
			for tickets.Add(1) <= int64(n) {
				clean := false
				err := pair(ctx, key, func() {
					g := s.gen.Load()
					if s.inside.Add(1) > 1 {
						s.gen.Add(1)
						overlaps.Add(1)
					}
					runtime.Gosched() // an empty section, but one others could run into
					s.inside.Add(-1)
					clean = s.gen.Load() == g
				})
				switch {
				case err != nil:
					errs.Add(1)
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
				case clean:
					correct.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	return Result{Pairs: n, Correct: int(correct.Load()), Overlaps: int(overlaps.Load()), Errors: int(errs.Load()),
		Elapsed: time.Since(start), FirstErr: first}
}
