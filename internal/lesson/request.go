package lesson

import (
	"context"
	"errors"
	"github.com/lockstep/lockstep/internal/fact"

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
			p.MarkLock(sim.MarkReenter, res, &fact.Fact{Key: fact.AsksAgain, Hold: d, Depth: depth})
		}
		if err := l.Lock(ctx); err != nil {
			if errors.Is(err, lock.ErrNotAcquired) {
				p.MarkLock(sim.MarkGaveUp, res, &fact.Fact{Key: fact.NotInTime, Text: lock.LibraryWords(err)})
				if d > 1 {
					p.MarkLock(sim.MarkLeave, res, nil)
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
			p.MarkLock(sim.MarkAcquired, res, &fact.Fact{Key: fact.HoldOf, Hold: d, Depth: depth})
		} else {
			p.MarkLock(sim.MarkAcquired, res, nil)
		}
		if d == 1 {
			p.MarkLock(sim.MarkEnter, res, nil)
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
			p.MarkLock(sim.MarkKept, res, fact.New(fact.Kept))
		}
		if idle {
			return p.Sleep(ctx, cl.c.Work.D())
		}
		return nil
	}
	p.MarkLock(sim.MarkLeave, res, nil)
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
	var said *fact.Fact
	if depth > 1 {
		said = &fact.Fact{Key: fact.HoldGivenBack, Hold: d, Depth: depth}
	}
	switch err := l.Unlock(ctx); {
	case errors.Is(err, lock.ErrNotHeld):
		in.p.MarkLock(sim.MarkReleaseRefused, in.cl.resource, &fact.Fact{Key: fact.NoLongerOurs, Text: lock.LibraryWords(err)})
	case err != nil:
		in.p.MarkLock(sim.MarkReleaseFailed, in.cl.resource, fact.Error(err))
	default:
		in.p.MarkLock(sim.MarkReleased, in.cl.resource, said)
	}
}
