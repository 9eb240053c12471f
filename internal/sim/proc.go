package sim

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"math/rand/v2"
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

// crashSignal unwinds a crashed thread's goroutine.
type crashSignal struct{}

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

// thread is one thread of a process: a coroutine (iter.Pull) that runs
// only while the engine waits for it. The engine hands it the baton with
// next; the thread gives it back by yielding. stop unwinds it: its yield
// returns false, and the thread panics its way out (crashSignal).
type thread struct {
	proc    *Proc
	name    string
	next    func() (struct{}, bool)
	stop    func()
	yield   func(struct{}) bool
	started bool
	done    bool
	ctx     context.Context
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

// Sleep waits d of virtual time. A paused process sleeps through its pause.
func (p *Proc) Sleep(ctx context.Context, d time.Duration) error {
	th := p.w.current(p)
	th.live()
	if d < 0 {
		d = 0
	}
	p.w.schedule(&item{t: p.w.now + d, kind: itemWake, th: th})
	th.park()
	return ctx.Err()
}

// Mark reports a step of the algorithm (acquired, enter, leave, released,
// ...) as an event. Marks are what the checker and fault triggers read.
func (p *Proc) Mark(name, note string) { p.MarkLock(name, "", note) }

// MarkLock reports a step of a lock algorithm about the lock whose key is
// lock (acquired, enter, leave, released, ...): the checker tells locks
// apart by it.
func (p *Proc) MarkLock(name, lock, note string) {
	th := p.w.current(p)
	th.live()
	p.w.emit(Event{Kind: KindMark, Client: p.name, Thread: th.name, Name: name, Lock: lock, Note: note})
	th.live()
}

// Go starts another thread of the process (a watchdog, say). It first runs
// when the engine schedules it, at the current virtual time.
func (p *Proc) Go(name string, fn func(ctx context.Context) error) {
	th := p.w.current(p)
	th.live()
	p.w.spawn(p, name, p.w.now, fn)
}

// live returns only while the thread's process may act: a crashed process
// unwinds, a paused one waits for its pause to end.
func (th *thread) live() {
	p := th.proc
	if p.crashed {
		panic(crashSignal{})
	}
	for p.paused {
		p.w.schedule(&item{t: p.w.now, kind: itemWake, th: th})
		th.park()
	}
}

// park gives the baton back to the engine and waits to be run again.
func (th *thread) park() {
	if !th.yield(struct{}{}) || th.proc.crashed {
		panic(crashSignal{}) // stopped: unwind
	}
}

// spawn creates a thread and schedules its start.
func (w *World) spawn(p *Proc, name string, at time.Duration, fn func(ctx context.Context) error) *thread {
	th := &thread{proc: p, name: name, ctx: context.Background()}
	th.next, th.stop = iter.Pull(func(yield func(struct{}) bool) {
		th.yield = yield
		th.main(fn)
	})
	p.threads = append(p.threads, th)
	w.schedule(&item{t: at, kind: itemStart, th: th})
	return th
}

// unwind stops a thread that has not ended: a parked one panics out of
// its park, one that never ran never will.
func (th *thread) unwind() {
	if !th.done {
		th.stop()
		th.done = true
	}
}

// main is the thread's body, run from its first turn: it runs the program
// and reports how it ended.
func (th *thread) main(fn func(ctx context.Context) error) {
	w := th.proc.w
	defer func() { th.done = true }()
	th.started = true
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(crashSignal); ok {
					err = ErrCrashed
					return
				}
				err = fmt.Errorf("panic: %v", r)
			}
		}()
		err = fn(th.ctx)
	}()
	if errors.Is(err, ErrCrashed) {
		return
	}
	note := ""
	if err != nil {
		note = err.Error()
	}
	w.emit(Event{Kind: KindDone, Client: th.proc.name, Thread: th.name, Note: note})
}
