package lock

import (
	"context"
	"errors"
)

func init() {
	register(&Info{ID: "local-mutex", Row: 2, Title: "In-process mutex per app instance", Seed: "000 part one, 001 §1",
		Flaw: "threads of one instance serialize, but two instances each have their own mutex: oversell",
		New:  NewLocalMutex})
}

// LocalMutexLock is row 2 (seeds 000 part one, 001 §1): the JVM's
// synchronized block or ReentrantLock around the stock deduction. It is a
// lock of one process, not of the system: the threads of one app instance
// take turns, while a second instance, with a mutex of its own, reads and
// writes the same stock at the same time and the stock is oversold.
type LocalMutexLock struct{ c Config }

// errNoLocal is what a local-mutex lock returns when its process has no mutex.
var errNoLocal = errors.New("lock: local-mutex needs the process's mutex (Config.Local)")

// NewLocalMutex builds the lock on the process's mutex.
func NewLocalMutex(c Config) Locker { return &LocalMutexLock{c} }

// Lock takes the process's mutex, waiting for the process's other threads.
func (l *LocalMutexLock) Lock(ctx context.Context) error {
	if l.c.Local == nil {
		return errNoLocal
	}
	return l.c.Local.Lock(ctx)
}

// Unlock frees the process's mutex.
func (l *LocalMutexLock) Unlock(context.Context) error {
	if l.c.Local == nil {
		return errNoLocal
	}
	l.c.Local.Unlock()
	return nil
}
