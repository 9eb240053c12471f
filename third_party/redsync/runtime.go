package redsync

// This file is not part of upstream redsync: see PATCH.md.

import (
	"context"
	"time"
)

// A Runtime is the clock and the goroutines a Mutex runs on. By default
// they are the machine's: time.Now, timers, context.WithTimeout and the go
// statement, exactly as upstream redsync uses them. A simulator that runs
// the mutex under a virtual clock and its own scheduler gives its own with
// WithRuntime.
type Runtime interface {
	// Now is the current time (time.Now).
	Now() time.Time
	// Sleep waits d, or less if ctx is done first, and then gives
	// ctx.Err() (a timer and a select on it and ctx.Done()).
	Sleep(ctx context.Context, d time.Duration) error
	// WithTimeout is context.WithTimeout on this Runtime's clock.
	WithTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc)
	// Go calls fn(i) for every i < n, each on a goroutine of its own, and
	// returns at once; each call of next waits until one more of them has
	// returned and gives its i (a buffered channel the goroutines send
	// to). The goroutines run to their end even if nobody calls next.
	Go(n int, fn func(i int)) (next func() int)
}

// WithRuntime can be used to run the mutex on another clock and other
// goroutines than the machine's (a simulator's).
func WithRuntime(rt Runtime) Option {
	return OptionFunc(func(m *Mutex) {
		m.rt = rt
	})
}

// machine is the default Runtime: the machine's clock and goroutines.
type machine struct{}

func (machine) Now() time.Time { return time.Now() }

func (machine) Sleep(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}

func (machine) WithTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, d)
}

func (machine) Go(n int, fn func(i int)) (next func() int) {
	ch := make(chan int, n)
	for i := range n {
		go func(i int) {
			fn(i)
			ch <- i
		}(i)
	}
	return func() int { return <-ch }
}

// runtime is the mutex's Runtime: the machine's unless WithRuntime gave
// another.
func (m *Mutex) runtime() Runtime {
	if m.rt == nil {
		return machine{}
	}
	return m.rt
}
