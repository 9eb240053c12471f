package lock

import (
	"context"
	"errors"
	"strings"
	"time"
)

// The libraries: rows 18 and 19 are not re-tellings of a document but
// the code engineers import, run as it is — go-redsync/redsync and
// bsm/redislock, kept under third_party/ with one change each (PATCH.md
// there): their clock, their timers and redsync's goroutines come from a
// Runtime the caller gives, the machine's by default. Here, that Runtime
// is the Config's: the engine's virtual clock and scheduled threads.

// Runtime is what a library's own code runs on: the Clock, contexts whose
// deadlines are on that clock (a library's per-call timeouts and retry
// deadlines), and threads asked all at once whose returns the caller reads
// one by one (redsync's votes, a goroutine per node sending to a channel).
// The engine's process implements it (sim.Proc).
type Runtime interface {
	Clock
	// WithDeadline is context.WithDeadline on the Clock.
	WithDeadline(ctx context.Context, t time.Time) (context.Context, context.CancelFunc)
	// Async runs fn(i) for every i < n at once and returns at once; next
	// waits for one more of them to return and gives its i.
	Async(n int, fn func(i int)) (next func() int)
}

// Library describes the upstream code a library algorithm runs.
type Library struct {
	Module  string // its Go module path
	Version string // the version kept under third_party/
	License string // its SPDX licence identifier
	Dir     string // its directory in Source (redsync)
	File    string // its file in Dir that holds the lock's logic (mutex.go)
	Scripts string // its file in Dir that holds its Lua scripts (scripts.go)
	URL     string // its home
}

// errNoRuntime is what a library algorithm answers when its Config has
// no Runtime: it would otherwise read the machine's clock.
var errNoRuntime = errors.New("lock: a library algorithm needs Config.Runtime (the clock and threads it runs on)")

// libError is a library's own error that also stands for one of this
// package's (ErrNotAcquired, ErrNotHeld): errors.Is finds both, and its
// text is the library's, as its users see it.
type libError struct {
	kind error
	err  error
}

func (e *libError) Error() string   { return e.err.Error() }
func (e *libError) Unwrap() []error { return []error{e.kind, e.err} }

// LibraryWords is what a library said, when err is a library's own error
// standing for one of this package's (ErrNotAcquired, ErrNotHeld), on one
// line; "" for any other error.
func LibraryWords(err error) string {
	var le *libError
	if errors.As(err, &le) {
		return oneLine(le.err)
	}
	return ""
}

// lineError is an error whose text is on one line (errors.Join's are not).
type lineError struct{ err error }

func (e lineError) Error() string { return oneLine(e.err) }
func (e lineError) Unwrap() error { return e.err }

// oneLine is an error's text on one line: errors.Join puts one error a
// line (one node's each, for redsync), and a mark's note is one line.
// callersLoop starts the loop a library leaves to its users to keep a
// lock (redsync's extend, redislock's refresh: neither has a watchdog): a
// thread named name that, every every, calls renew, until renew reports
// false or the flag it returns is cleared (stopLoop), at its next wake-up.
func callersLoop(c Config, name string, every time.Duration, renew func(ctx context.Context) bool) *bool {
	run := true
	c.Threads.Go(name, func(ctx context.Context) error {
		for {
			if err := c.Clock.Sleep(ctx, every); err != nil {
				return err
			}
			if !run || !renew(ctx) {
				return nil
			}
		}
	})
	return &run
}

// stopLoop tells the loop whose flag *running is to end at its next
// wake-up.
func stopLoop(running **bool) {
	if *running != nil {
		**running = false
		*running = nil
	}
}

func oneLine(err error) string { return strings.ReplaceAll(err.Error(), "\n", "; ") }
