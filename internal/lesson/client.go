package lesson

import (
	"context"
	"fmt"
	"github.com/lockstep/lockstep/internal/fact"
	"slices"
	"strconv"
	"time"

	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/service/sqldb"
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

// program builds a client's code: its algorithm around its workload.
func program(sc *scenario.Scenario, c scenario.Client) (sim.Program, error) {
	algo, ok := sc.Lookup(c.Algorithm)
	if !ok {
		return nil, fmt.Errorf("unknown algorithm %q", c.Algorithm)
	}
	opts, err := algo.Decode(c.Params)
	if err != nil {
		return nil, err
	}
	requests := c.Requests
	if requests <= 0 {
		requests = scenario.DefaultRequests
	}
	cl := &client{sc: sc, c: c, algo: algo, opts: opts, resource: Resource(opts), node: NodeNames(sc)[0], requests: requests}
	return cl.run, nil
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
			p.Mark("dispatch", &fact.Fact{Key: fact.Dispatch, Request: i, Thread: id})
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
// (lock.OwnerModeOf): a fresh uuid per request (the default), the process's uuid,
// uuid:thread (Redisson) or the bare pool thread id (seed 002's incident).
func (in *instance) owner(thread string) string {
	mode := lock.OwnerModeOf(in.cl.opts)
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

// lockConfig is what a client's algorithm is built from, for one request:
// its typed options; its marks are about the lock res.
func lockConfig(p *sim.Proc, node string, opts lock.Options, res, owner string) lock.Config {
	return lock.Config{
		Redis:    p.Redis(node),
		Clock:    p,
		Jitter:   func(limit time.Duration) time.Duration { return time.Duration(p.Rand().Int64N(int64(limit))) },
		Owner:    owner,
		Options:  opts,
		Nodes:    redisNodes(p),
		Threads:  p,
		Runtime:  p,
		Observer: observer{p, res},
		SQL:      sqldb.NewClient(p, scenario.DBService),
		Site:     sim.WithSite,
	}
}

// Resource is the lock a client's marks are about: its algorithm's key
// ("lock" for the in-process mutex, which has none: it stands for the
// same resource in every process).
func Resource(opts lock.Options) string {
	if k := lock.KeyOf(opts); k != "" {
		return k
	}
	return "lock"
}
