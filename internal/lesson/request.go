package lesson

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// request is one request: lock (Reentry times, nested), the task, unlock
// as many times — or, for an optimistic algorithm, the task inside its
// WATCH transaction.
func (in *instance) request(ctx context.Context, thread string) error {
	cl, p := in.cl, in.p
	cfg := lockConfig(p, cl.node, cl.opts, cl.resource, in.owner(thread))
	cfg.Local = in.local
	if cl.c.Task == scenario.TaskBuyItem {
		return in.buyItemLocked(ctx, thread)
	}
	if cl.algo.NewOptimistic != nil {
		return in.optimistic(ctx, cl.algo.NewOptimistic(cfg))
	}
	l := cl.algo.New(cfg)
	guarded := !cl.algo.Unguarded
	res := cl.resource
	depth := cl.c.Reentry
	if depth < 1 {
		depth = 1
	}
	for d := 1; d <= depth; d++ {
		if d > 1 && guarded {
			p.MarkLock(sim.MarkReenter, res, fmt.Sprintf("asks again for the lock it holds (hold %d of %d)", d, depth))
		}
		if err := l.Lock(ctx); err != nil {
			if errors.Is(err, lock.ErrNotAcquired) {
				p.MarkLock(sim.MarkGaveUp, res, "could not acquire the lock in time"+libSays(err, lock.ErrNotAcquired))
				if d > 1 {
					p.MarkLock(sim.MarkLeave, res, "")
				}
				for ; d > 1; d-- {
					in.unlock(ctx, l, d-1, depth)
				}
				return nil
			}
			return err
		}
		if !guarded {
			continue
		}
		if depth > 1 {
			p.MarkLock(sim.MarkAcquired, res, fmt.Sprintf("hold %d of %d", d, depth))
		} else {
			p.MarkLock(sim.MarkAcquired, res, "")
		}
		if d == 1 {
			p.MarkLock(sim.MarkEnter, res, "")
		}
	}
	idle := false
	if err := in.work(ctx); errors.Is(err, errEmpty) {
		idle = true
	} else if err != nil {
		return err
	}
	if !guarded || cl.c.KeepLock {
		if cl.c.KeepLock && guarded {
			p.MarkLock(sim.MarkKept, res, "the request ends without releasing: the unlock is left to a later callback")
		}
		if idle {
			return p.Sleep(ctx, cl.c.Work.D())
		}
		return nil
	}
	p.MarkLock(sim.MarkLeave, res, "")
	for d := depth; d >= 1; d-- {
		in.unlock(ctx, l, d, depth)
	}
	if idle {
		return p.Sleep(ctx, cl.c.Work.D())
	}
	return nil
}

// work is the request's task: a market task (seed 003's lab) or one of
// task's.
func (in *instance) work(ctx context.Context) error {
	cl, p := in.cl, in.p
	switch cl.c.Task {
	case scenario.TaskList:
		in.listed++
		return listItem(ctx, p, cl.c, cl.node, in.listed)
	case scenario.TaskBuy:
		return buyItem(ctx, p, cl.node)
	}
	return task(ctx, p, cl.c, cl.node)
}

// unlock gives back hold d of depth and marks the outcome.
func (in *instance) unlock(ctx context.Context, l lock.Locker, d, depth int) {
	note := ""
	if depth > 1 {
		note = fmt.Sprintf("hold %d of %d given back", d, depth)
	}
	switch err := l.Unlock(ctx); {
	case errors.Is(err, lock.ErrNotHeld):
		in.p.MarkLock(sim.MarkReleaseRefused, in.cl.resource, "the lock was no longer ours; left it alone"+libSays(err, lock.ErrNotHeld))
	case err != nil:
		// errors.Join puts one error a line: one node's each, for redsync
		in.p.MarkLock(sim.MarkReleaseFailed, in.cl.resource, strings.ReplaceAll(err.Error(), "\n", "; "))
	default:
		in.p.MarkLock(sim.MarkReleased, in.cl.resource, note)
	}
}

// libSays is what a library's own error adds to the package error it
// stands for (lock.ErrNotHeld, say): ` (the library says: ...)`, or "".
func libSays(err, kind error) string {
	if err == nil || err.Error() == kind.Error() {
		return ""
	}
	return " (the library says: " + strings.ReplaceAll(err.Error(), "\n", "; ") + ")"
}
