package sim

import (
	"context"
	"errors"
	"fmt"
	"github.com/lockstep/lockstep/internal/fact"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// Program is the code a client process runs: ordinary Go that talks to
// Redis through p.Redis and waits through p.Sleep.
type Program func(ctx context.Context, p *Proc) error

// ClientOptions set up one client process.
type ClientOptions struct {
	Start   time.Duration // when the process starts (virtual time)
	Skew    time.Duration // the process's clock minus the world's
	Latency time.Duration // one-way latency to every node; 0 uses the world's
}

// ErrCrashed is what a thread's program sees if it recovers the crash
// unwinding; programs need not handle it.
var ErrCrashed = errors.New("sim: process crashed")

// Proc is one simulated client process: one or more threads that share its
// clock, its Redis connections and its fate (pause, crash, restart).
type Proc struct {
	w           *World
	name        string
	idx         int
	incarnation int
	program     Program
	opt         ClientOptions
	skew        time.Duration
	rng         *rand.Rand
	threads     []*thread
	clients     []*redis.Client // per node index, made on first use
	crashed     bool
	paused      bool
	pausedUntil time.Duration
	held        []*item        // client-side items waiting for the pause to end
	dropReq     map[string]int // node name ("*" any) -> requests still to drop
	dropReply   map[string]int // node name ("*" any) -> replies still to drop
}

// Name is the client's name.
func (p *Proc) Name() string { return p.name }

// Incarnation counts the process's restarts (0 before the first).
func (p *Proc) Incarnation() int { return p.incarnation }

// Now is the process's own clock: the world's clock plus its skew.
func (p *Proc) Now() time.Time { return p.w.epoch().Add(p.w.now + p.skew) }

// Rand is the process's random source, derived from the world's seed.
func (p *Proc) Rand() *rand.Rand { return p.rng }

// Nodes lists the world's node names in order.
func (p *Proc) Nodes() []string { return p.w.NodeNames() }

// Redis gives the process's go-redis client for a node. Its commands are
// scheduled by the world.
func (p *Proc) Redis(node string) *redis.Client {
	n := p.w.node(node)
	if n == nil {
		panic(fmt.Sprintf("sim: client %s asks for unknown node %q", p.name, node))
	}
	if c := p.clients[n.idx]; c != nil {
		return c
	}
	c := p.w.newClient(p, n)
	p.clients[n.idx] = c
	return c
}

// Token makes a new random identity registered as owned by this process, so
// that key states show their owner. Tokens come from the process's random
// source: the same seed gives the same tokens.
func (p *Proc) Token() string {
	tok := fmt.Sprintf("%08x", p.rng.Uint32())
	p.w.tokens[tok] = p.name
	return tok
}

// Own registers an identity built by the caller (a thread id, say) as
// belonging to this process.
func (p *Proc) Own(token string) { p.w.tokens[token] = p.name }

// Sleep waits d of virtual time, or until the deadline of a context made
// by WithDeadline or WithTimeout if that comes first, and gives ctx.Err().
// A paused process sleeps through its pause.
func (p *Proc) Sleep(ctx context.Context, d time.Duration) error {
	th := p.w.current(p)
	th.live()
	if at, ok := virtualDeadline(ctx); ok && at-p.w.now < d {
		d = at - p.w.now
	}
	if d < 0 {
		d = 0
	}
	p.w.schedule(&item{t: p.w.now + d, kind: itemWake, th: th})
	th.park()
	return ctx.Err()
}

// Mark reports a step of the algorithm (acquired, enter, leave, released,
// ...) as an event, with what it says (nil: nothing). Marks are what the
// checker and fault triggers read.
func (p *Proc) Mark(name string, said *fact.Fact) { p.MarkLock(name, "", said) }

// MarkLock reports a step of a lock algorithm about the lock whose key is
// lock (acquired, enter, leave, released, ...): the checker tells locks
// apart by it.
func (p *Proc) MarkLock(name, lock string, said *fact.Fact) {
	th := p.w.current(p)
	th.live()
	p.w.emit(Event{Kind: KindMark, Client: p.name, Thread: th.name, Name: name, Lock: lock, Fact: said})
	th.live()
}

// Go starts another thread of the process (a watchdog, say). It first runs
// when the engine schedules it, at the current virtual time.
func (p *Proc) Go(name string, fn func(ctx context.Context) error) {
	th := p.w.current(p)
	th.live()
	p.w.spawn(p, name, p.w.now, fn).parent = th
}

// Orphaned reports whether the thread that started the calling one (Go)
// has ended on an error, leaving it behind: a watchdog that renews a lock
// for a request whose program died keeps it for ever, for nobody.
func (p *Proc) Orphaned() bool {
	th := p.w.current(p)
	return th.parent != nil && th.parent.failed
}

// Each runs fn(ctx, i) for every i < n at once, each on a helper thread
// of the calling thread, and returns when every one has returned, or the
// error that stopped the caller (ctx's). It is how a client asks several
// servers together, as a goroutine per server would (Redlock's votes):
// the helpers run now, in order of i, each up to its first command, so
// that their commands are in flight side by side and the wait is the
// slowest round trip, not the sum. A helper's events carry the calling
// thread's name; it logs no start or done of its own. A crash or a pause
// of the process takes the helpers with it. A helper that panics makes the
// caller panic with the same value once every helper is back, as a panic
// in the caller itself would end it.
func (p *Proc) Each(ctx context.Context, n int, fn func(ctx context.Context, i int)) error {
	w := p.w
	th := w.current(p)
	th.live()
	left, waiting := n, false
	helpers := make([]*thread, n)
	for i := range n {
		h := w.newThread(p, th.name, func(context.Context) error {
			fn(ctx, i)
			return nil
		})
		h.helper = true
		helpers[i] = h
		h.id = th.moveID() + "#" + strconv.Itoa(i+1)
		h.returned = func() {
			if left--; left == 0 && waiting {
				w.schedule(&item{t: w.now, kind: itemWake, th: th})
			}
		}
		// the helper runs on the caller's turn until it parks (its first
		// command is on its way) or returns; then the caller goes on
		w.running = h
		h.next()
		w.running = th
	}
	for left > 0 {
		waiting = true
		th.park()
		waiting = false
	}
	th.live()
	for _, h := range helpers {
		if h.panicked != nil {
			panic(h.panicked)
		}
	}
	return ctx.Err()
}

// Async runs fn(i) for every i < n at once, each on a helper thread of the
// calling thread, as Each does, but returns at once: each call of next
// parks the caller until one more helper has returned, and gives its i,
// in the order they returned. It is what a goroutine per server sending
// to a buffered channel is (redsync's votes), which the caller may stop
// reading early: helpers nobody waits for run on to their end. A helper
// that panics makes next panic with the same value when it gives that
// helper's i. next must be called by the thread that called Async.
func (p *Proc) Async(n int, fn func(i int)) (next func() int) {
	w := p.w
	th := w.current(p)
	th.live()
	var back []int // helpers returned and not yet given by next
	waiting := false
	helpers := make([]*thread, n)
	for i := range n {
		h := w.newThread(p, th.name, func(context.Context) error {
			fn(i)
			return nil
		})
		h.helper = true
		helpers[i] = h
		h.id = th.moveID() + "#" + strconv.Itoa(i+1)
		h.returned = func() {
			back = append(back, i)
			if waiting {
				waiting = false
				w.schedule(&item{t: w.now, kind: itemWake, th: th})
			}
		}
		w.running = h
		h.next()
		w.running = th
	}
	return func() int {
		if w.current(p) != th {
			panic(fmt.Sprintf("sim: client %s: Async's next called by another thread than %s", p.name, th.name))
		}
		th.live()
		for len(back) == 0 {
			waiting = true
			th.park()
		}
		th.live()
		i := back[0]
		back = back[1:]
		if r := helpers[i].panicked; r != nil {
			panic(r)
		}
		return i
	}
}
