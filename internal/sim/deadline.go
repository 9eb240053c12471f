package sim

import (
	"context"
	"time"
)

// Deadlines on the virtual clock: code that bounds its waits with a
// context (a library's per-call timeout, its retry deadline) gets one
// from WithTimeout or WithDeadline. Such a context is done when the
// world's clock reaches its deadline; it is checked where the code looks
// (Done, Err), never by a goroutine of its own, so the same run gives the
// same answers. The world honours it where a client waits: Sleep wakes at
// the deadline, and a command whose reply would come later times out
// then, as a real read deadline would make it.

// deadlineCtx is a context whose deadline is on its process's clock.
type deadlineCtx struct {
	context.Context // the parent: its values, and its Err when it ends first
	p               *Proc
	at              time.Duration // the deadline, in the world's time
	done            chan struct{}
	err             error
}

// WithDeadline is context.WithDeadline on the process's clock: the
// context is done when the process's clock (Now) reaches t, or when
// cancel is called, or when its parent is found done. It must be used
// only by the process's threads (context.WithCancel and AfterFunc on it
// would watch it from a goroutine of their own: don't). A deadline the
// parent had on the machine's clock is not carried over.
func (p *Proc) WithDeadline(parent context.Context, t time.Time) (context.Context, context.CancelFunc) {
	at := t.Sub(p.w.epoch()) - p.skew
	if d, ok := virtualDeadline(parent); ok && d < at {
		at = d
	}
	c := &deadlineCtx{Context: parent, p: p, at: at, done: make(chan struct{})}
	return c, func() { c.end(context.Canceled) }
}

// WithTimeout is context.WithTimeout on the process's clock:
// WithDeadline(parent, p.Now().Add(d)).
func (p *Proc) WithTimeout(parent context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return p.WithDeadline(parent, p.Now().Add(d))
}

// Deadline is the deadline on the process's clock as it reads now.
func (c *deadlineCtx) Deadline() (time.Time, bool) {
	return c.p.w.epoch().Add(c.at + c.p.skew), true
}

// Done is closed once the deadline has passed (or the context was
// cancelled, or its parent is done), as of the world's clock now.
func (c *deadlineCtx) Done() <-chan struct{} {
	c.check()
	return c.done
}

// Err is DeadlineExceeded or Canceled once Done is closed, else nil.
func (c *deadlineCtx) Err() error {
	c.check()
	return c.err
}

// check ends the context if its parent has ended or its deadline passed.
func (c *deadlineCtx) check() {
	if c.err != nil {
		return
	}
	if err := c.Context.Err(); err != nil {
		c.end(err)
	} else if c.p.w.now >= c.at {
		c.end(context.DeadlineExceeded)
	}
}

// end closes the context with err, once.
func (c *deadlineCtx) end(err error) {
	if c.err == nil {
		c.err = err
		close(c.done)
	}
}

// virtualDeadline is the deadline on the world's clock that ctx carries,
// itself or under a context that passes values and cancellation through
// (context.WithValue), in the world's time: the earliest of its chain, as
// WithDeadline keeps it.
func virtualDeadline(ctx context.Context) (time.Duration, bool) {
	if ctx == nil || ctx.Done() == nil {
		return 0, false // no cancellation at all (context.WithoutCancel)
	}
	c, ok := ctx.Value(deadlineKey{}).(*deadlineCtx)
	if !ok {
		return 0, false
	}
	return c.at, true
}

// deadlineKey finds the innermost deadlineCtx under a context that wraps
// one (context.WithValue).
type deadlineKey struct{}

// Value answers deadlineKey with the context itself, and every other key
// from its parent.
func (c *deadlineCtx) Value(key any) any {
	if _, ok := key.(deadlineKey); ok {
		return c
	}
	return c.Context.Value(key)
}
