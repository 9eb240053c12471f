// Package lockbench measures the lock code on a real Redis server, outside
// the engine: Lockstep's own internal/lock code on the machine's clock and
// goroutines with a real go-redis client, beside the libraries engineers
// import, redsync and redislock, called as their users call them.
// scripts/bench-locks.sh runs its benchmarks (not in CI); docs/performance.md
// reports them.
package lockbench

import (
	"context"
	"sync"
	"time"
)

// Machine is the machine's clock and goroutines, for running internal/lock
// outside the engine: it is a lock.Clock, lock.Threads and lock.Runtime.
type Machine struct{}

// Now is the machine's clock.
func (Machine) Now() time.Time { return time.Now() }

// Sleep waits d, or until ctx is done, and gives ctx.Err().
func (Machine) Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
	return ctx.Err()
}

// WithDeadline is context.WithDeadline.
func (Machine) WithDeadline(ctx context.Context, t time.Time) (context.Context, context.CancelFunc) {
	return context.WithDeadline(ctx, t)
}

// Go runs fn on a goroutine of its own.
func (Machine) Go(_ string, fn func(ctx context.Context) error) {
	go func() { _ = fn(context.Background()) }()
}

// Each runs fn(ctx, i) for every i < n on goroutines and waits for them.
func (Machine) Each(ctx context.Context, n int, fn func(ctx context.Context, i int)) error {
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(ctx, i)
		}()
	}
	wg.Wait()
	return ctx.Err()
}

// Async runs fn(i) for every i < n on goroutines; next gives them in the
// order they return.
func (Machine) Async(n int, fn func(i int)) (next func() int) {
	ch := make(chan int, n)
	for i := range n {
		go func() {
			fn(i)
			ch <- i
		}()
	}
	return func() int { return <-ch }
}
