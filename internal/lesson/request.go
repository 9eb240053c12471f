package lesson

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/redis/go-redis/v9"

	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// client is one scenario client's code: its algorithm and parameters
// around its workload.
type client struct {
	sc       *scenario.Scenario
	c        scenario.Client
	algo     *lock.Info
	opts     lock.Options // the algorithm's typed options
	resource string       // the lock its marks are about (Resource)
	node     string
	requests int
}

// instance is one incarnation of a client process: what a restart resets
// (its in-process mutex, its uuid, its thread pool).
type instance struct {
	cl     *client
	p      *sim.Proc
	local  *sim.Mutex
	uuid   string
	free   []int // free pool thread numbers, lowest first
	slots  *sim.Semaphore
	listed int // items this seller has listed
}

// run is the process's main thread. With no thread pool the requests run
// one after another on main, as pool thread exec-1. With threads: N, each
// request is its own thread that waits for one of N pool threads; a pool
// thread's id is reused by the requests that follow it.
func (cl *client) run(ctx context.Context, p *sim.Proc) error {
	in := &instance{cl: cl, p: p, local: sim.NewMutex(p, "local mutex")}
	if cl.c.Threads <= 0 {
		for i := 1; i <= cl.requests; i++ {
			if err := in.request(ctx, "exec-1"); err != nil {
				return err
			}
		}
		return nil
	}
	in.slots = sim.NewSemaphore(p, cl.c.Threads)
	for n := 1; n <= cl.c.Threads; n++ {
		in.free = append(in.free, n)
	}
	for i := 1; i <= cl.requests; i++ {
		i := i
		p.Go(fmt.Sprintf("req%d", i), func(ctx context.Context) error {
			if err := in.slots.Acquire(ctx); err != nil {
				return err
			}
			n := in.free[0]
			in.free = in.free[1:]
			id := "exec-" + strconv.Itoa(n)
			p.Mark("dispatch", fmt.Sprintf("request %d runs on pool thread %s", i, id))
			err := in.request(ctx, id)
			in.free = append(in.free, n)
			slices.Sort(in.free)
			in.slots.Release()
			return err
		})
	}
	return nil
}

// owner is the identity the lock stores, by the algorithm's owner mode
// (ReentrantOptions.OwnerMode): a fresh uuid per request (the default), the process's uuid,
// uuid:thread (Redisson) or the bare pool thread id (seed 002's incident).
func (in *instance) owner(thread string) string {
	mode := ""
	if o, ok := in.cl.opts.(*lock.ReentrantOptions); ok {
		mode = o.OwnerMode
	}
	if mode == lock.OwnerThread {
		return thread
	}
	if mode == "" || mode == "request" {
		return in.p.Token()
	}
	if in.uuid == "" {
		in.uuid = in.p.Token()
	}
	if mode == lock.OwnerUUIDThread {
		return in.uuid + ":" + thread
	}
	return in.uuid
}

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
				p.MarkLock(sim.MarkGaveUp, res, "could not acquire the lock in time")
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
		in.p.MarkLock(sim.MarkReleaseRefused, in.cl.resource, "the lock was no longer ours; left it alone")
	case err != nil:
		in.p.MarkLock(sim.MarkReleaseFailed, in.cl.resource, err.Error())
	default:
		in.p.MarkLock(sim.MarkReleased, in.cl.resource, note)
	}
}

// optimistic runs the task as a WATCH transaction (row 3): the deduction
// reads the stock under WATCH and writes it in MULTI/EXEC.
func (in *instance) optimistic(ctx context.Context, opt lock.Optimistic) error {
	cl, p := in.cl, in.p
	if cl.c.Task == scenario.TaskBuy {
		return buyWatched(ctx, p, cl.c, opt)
	}
	if cl.c.Task != "" && cl.c.Task != scenario.TaskDeduct {
		return fmt.Errorf("algorithm %s runs only the deduct and buy tasks, not %q", cl.algo.ID, cl.c.Task)
	}
	from := -1
	err := opt.Transact(ctx, []string{StockKey}, func(tx *redis.Tx) (func(redis.Pipeliner) error, error) {
		from = -1
		v, err := tx.Get(ctx, StockKey).Result()
		if err != nil {
			return nil, err
		}
		n, _ := strconv.Atoi(v)
		if n <= 0 {
			p.Mark("sold-out", "no stock left")
			return nil, p.Sleep(ctx, cl.c.Work.D())
		}
		if err := p.Sleep(ctx, cl.c.Work.D()); err != nil {
			return nil, err
		}
		from = n
		return func(pipe redis.Pipeliner) error { pipe.Set(ctx, StockKey, n-1, 0); return nil }, nil
	})
	switch {
	case errors.Is(err, lock.ErrTooManyRetries):
		return nil
	case err != nil:
		return err
	case from > 0:
		p.Mark("deduct", fmt.Sprintf("stock %d -> %d", from, from-1))
	}
	return nil
}
