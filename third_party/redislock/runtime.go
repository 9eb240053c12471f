package redislock

// This file is not part of upstream redislock: see PATCH.md.

import (
	"context"
	"time"
)

// A Runtime is the clock Obtain runs on. By default it is the machine's:
// time.Now, a ticker and context.WithDeadline, exactly as upstream
// redislock uses them. A simulator that runs the lock under a virtual
// clock gives its own in Options.Runtime.
type Runtime interface {
	// Now is the current time (time.Now).
	Now() time.Time
	// Sleep waits d, or less if ctx is done first, and then gives
	// ctx.Err() (a ticker and a select on it and ctx.Done()).
	Sleep(ctx context.Context, d time.Duration) error
	// WithDeadline is context.WithDeadline on this Runtime's clock.
	WithDeadline(ctx context.Context, t time.Time) (context.Context, context.CancelFunc)
}

func (o *Options) getRuntime() Runtime {
	if o != nil && o.Runtime != nil {
		return o.Runtime
	}
	return machine{}
}

// machine is the default Runtime: the machine's clock.
type machine struct{}

func (machine) Now() time.Time { return time.Now() }

func (machine) Sleep(ctx context.Context, d time.Duration) error {
	ticker := time.NewTicker(d)
	defer ticker.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-ticker.C:
		return nil
	}
}

func (machine) WithDeadline(ctx context.Context, t time.Time) (context.Context, context.CancelFunc) {
	return context.WithDeadline(ctx, t)
}
