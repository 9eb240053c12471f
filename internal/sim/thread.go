package sim

import (
	"context"
	"errors"
	"fmt"
	"github.com/lockstep/lockstep/internal/fact"
	"hash/fnv"
	"iter"
	"math/rand/v2"
	"time"
)

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
	failed  bool    // it ended on an error (not a crash)
	parent  *thread // the thread that started it (Proc.Go), if any
	ctx     context.Context
	req     *request // its last request, kept for its next (roundTrip)

	// helper: the thread speaks for another thread of its process (Each):
	// its events carry that thread's name, it logs no start or done of
	// its own, and when it returns (or panics: panicked) it calls back.
	helper   bool
	returned func()
	panicked any    // what a helper panicked with, for the thread it speaks for to panic with
	id       string // a helper's own name among its siblings ("main#2"), for a schedule's moves (mover.go)
}

// moveID names the thread in a schedule of moves: its name, or for a
// helper its own id, since helpers share the name of the thread they
// speak for.
func (th *thread) moveID() string {
	if th.id != "" {
		return th.id
	}
	return th.name
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
	th := w.newThread(p, name, fn)
	w.schedule(&item{t: at, kind: itemStart, th: th})
	return th
}

// newThread creates a thread of p that has not run yet.
func (w *World) newThread(p *Proc, name string, fn func(ctx context.Context) error) *thread {
	th := &thread{proc: p, name: name, ctx: context.Background()}
	th.next, th.stop = iter.Pull(func(yield func(struct{}) bool) {
		th.yield = yield
		th.main(fn)
	})
	p.threads = append(p.threads, th)
	return th
}

// unwind stops a thread that has not ended: a parked one panics out of
// its park, one that never ran never will. While it unwinds the thread is
// the running one: code deferred in the program (go-redis's Watch closes
// its transaction with UNWATCH, say) runs on the thread's own goroutine
// and may call back into the world, and each such call must find the
// thread and meet its crash (live) rather than a world that runs nobody.
// So a dead process sends nothing, and its thread ends as crashed.
func (th *thread) unwind() {
	if !th.done {
		w := th.proc.w
		prev := w.running
		w.running = th
		th.stop()
		w.running = prev
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
				err = panicError{fmt.Sprint(r)}
				if th.helper {
					th.panicked = r
				}
			}
		}()
		err = fn(th.ctx)
	}()
	if errors.Is(err, ErrCrashed) {
		return
	}
	th.failed = err != nil
	if th.helper {
		th.returned()
		return
	}
	w.emit(Event{Kind: KindDone, Client: th.proc.name, Thread: th.name, Fact: fact.Error(err)})
}

// boot starts (or restarts) a process's main thread at virtual time at.
func (w *World) boot(p *Proc, at time.Duration) {
	h := fnv.New64a()
	h.Write([]byte(p.name))
	p.rng = rand.New(rand.NewPCG(uint64(w.cfg.Seed)^h.Sum64(), uint64(p.incarnation)+1))
	p.crashed, p.paused, p.held, p.threads = false, false, nil, nil
	p.dropReq, p.dropReply = map[string]int{}, map[string]int{}
	for i, c := range p.clients {
		if c != nil {
			c.Close()
			p.clients[i] = nil
		}
	}
	prog := p.program
	w.spawn(p, "main", at, func(ctx context.Context) error { return prog(ctx, p) })
}

// schedule queues an item; a client-side item of a paused process waits in
// the process until the pause ends, and one of a crashed process is dropped.
func (w *World) schedule(it *item) {
	if it.clientSide() {
		p := it.th.proc
		if p.crashed || it.th.done {
			return
		}
		if p.paused {
			p.held = append(p.held, it)
			return
		}
	}
	w.q.push(it)
}

// current is the running thread, which must belong to p.
func (w *World) current(p *Proc) *thread {
	th := w.running
	if th == nil || th.proc != p {
		panic(fmt.Sprintf("sim: client %s acted outside its own scheduled thread", p.name))
	}
	return th
}

// run hands the baton to a thread until it parks or ends.
func (w *World) run(th *thread) {
	if th.done {
		return
	}
	w.running = th
	th.next()
	w.running = nil
	w.reap()
}

// reap unwinds the parked threads of crashed processes.
func (w *World) reap() {
	for _, p := range w.procs {
		if !p.crashed {
			continue
		}
		for _, th := range p.threads {
			th.unwind()
		}
	}
}

// crashSignal unwinds a crashed thread's goroutine.
type crashSignal struct{}

// panicError is a client program's panic, as its thread ends with it.
type panicError struct{ value string }

func (e panicError) Error() string    { return e.Fact().Render().En }
func (e panicError) Fact() *fact.Fact { return &fact.Fact{Key: fact.Panic, Text: e.value} }
