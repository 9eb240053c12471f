package etcd

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/live"
	"github.com/lockstep/lockstep/internal/sim"
)

// worker is one client of a run: its own connection through its own
// proxy, its session, and its program.
type worker struct {
	Worker
	lesson  *Lesson
	rec     *live.Recorder
	watch   *watcher
	ns      string
	server  string
	proxy   *Proxy
	tap     *tap
	cli     *clientv3.Client
	closing atomic.Bool // the session ends by the program's own hand (or its crash)
}

// logWait is how long a client's "acquired" waits for the watch to log
// the change that gave it the lock.
const logWait = 500 * time.Millisecond

// run plays the worker's program: it starts at its time, opens a session
// and takes the lock its rounds, believing it holds from Lock() returning
// until its Unlock (the program does not watch Session.Done, as most code
// does not: the log draws Session.Done as the moment it could have
// learned).
func (w *worker) run(ctx context.Context) {
	select {
	case <-time.After(w.Start):
	case <-ctx.Done():
		return
	}
	w.rec.Add(sim.Event{Kind: sim.KindStart, Client: w.Name})
	err := w.program(ctx)
	if !errors.Is(err, errCrashed) {
		done(w.rec, w.Name, err) // a crashed process says nothing more
	}
}

func (w *worker) program(ctx context.Context) error {
	p, err := NewProxy(w.server)
	if err != nil {
		return err
	}
	defer p.Close()
	w.proxy = p
	w.tap = &tap{rec: w.rec, client: w.Name, ns: w.ns, resource: w.ns + Resource, watch: w.watch}
	cli, err := dial(p.Addr(), w.tap)
	if err != nil {
		return err
	}
	defer func() { _ = cli.Close() }()
	w.cli = cli
	s, err := concurrency.NewSession(cli, concurrency.WithTTL(w.lesson.Lease), concurrency.WithContext(ctx))
	if err != nil {
		return err
	}
	w.watch.own(s.Lease(), w.Name)
	learned := make(chan struct{})
	go func() {
		defer close(learned)
		select {
		case <-s.Done():
			if !w.closing.Load() {
				w.rec.Add(sim.Event{Kind: sim.KindMark, Client: w.Name, Name: "session-done", Lock: LockName,
					Fact: &fact.Fact{Key: fact.SessionDone, Client: w.Name}})
			}
		case <-ctx.Done():
		}
	}()
	m := concurrency.NewMutex(s, w.ns+LockName)
	rounds := max(w.Rounds, 1)
	for i := range rounds {
		if err = w.round(ctx, s.Client(), m, i == 0); err != nil {
			break
		}
	}
	if errors.Is(err, errCrashed) {
		return err // its process is gone: nobody is left to learn anything
	}
	w.closing.Store(true)
	_ = s.Close()
	<-learned
	return err
}

// round takes the lock once, works inside, writes, leaves and unlocks.
func (w *worker) round(ctx context.Context, cli *clientv3.Client, m *concurrency.Mutex, first bool) error {
	if first && w.Fault.At == AtWaiting {
		go w.faultWhenQueued(ctx)
	}
	if err := m.Lock(ctx); err != nil {
		w.mark(sim.MarkGaveUp, nil)
		return err
	}
	w.watch.waitLogged(ctx, strings.TrimPrefix(m.Key(), w.ns), logWait)
	w.mark(sim.MarkAcquired, nil)
	if first && w.fault(ctx, sim.MarkAcquired) {
		return errCrashed
	}
	w.mark(sim.MarkEnter, nil)
	if first && w.fault(ctx, sim.MarkEnter) {
		return errCrashed
	}
	if !sleep(ctx, w.Work) {
		return ctx.Err()
	}
	if err := w.write(ctx, cli, m); err != nil {
		// the error ends the program's work: it leaves its critical
		// section here, before its session closes and frees the lock
		w.mark(sim.MarkLeave, nil)
		return err
	}
	w.mark(sim.MarkLeave, nil)
	if err := m.Unlock(ctx); err != nil {
		w.mark(sim.MarkReleaseFailed, failed(err))
		return err
	}
	w.mark(sim.MarkReleased, nil)
	return nil
}

// write writes the worker's name to the resource, as its Write says.
func (w *worker) write(ctx context.Context, cli *clientv3.Client, m *concurrency.Mutex) error {
	key := w.ns + Resource
	switch w.Write {
	case Plain:
		if _, err := cli.Put(ctx, key, w.Name); err != nil {
			return err
		}
		w.mark("wrote", nil)
	case Guarded:
		resp, err := cli.Txn(ctx).If(m.IsOwner()).Then(clientv3.OpPut(key, w.Name)).Commit()
		if err != nil {
			return err
		}
		if !resp.Succeeded {
			w.mark("write-rejected", &fact.Fact{Key: fact.NotOwner, Client: w.Name})
			return nil
		}
		w.mark("wrote", nil)
	}
	return nil
}

// faultWhenQueued applies the worker's fault once the server has put its
// key in the lock's queue (the watch's exec of its Put), while its Lock()
// waits. Only a fault that lets the program go on fits here: a partition
// or a lost reply.
func (w *worker) faultWhenQueued(ctx context.Context) {
	for {
		for _, e := range w.rec.Events() {
			if e.Kind == sim.KindExec && e.Client == w.Name && len(e.Cmd) > 0 && e.Cmd[0] == "Put" {
				w.fault(ctx, AtWaiting)
				return
			}
		}
		if !sleep(ctx, 10*time.Millisecond) {
			return
		}
	}
}

// errCrashed ends the program of a worker that crashed.
var errCrashed = errors.New("etcd: the client crashed")

// fault applies the worker's fault if it is due after mark at, and
// reports whether the worker crashed. A pause ends early when ctx does.
func (w *worker) fault(ctx context.Context, at string) (crashed bool) {
	f := w.Fault
	if f.Kind == "" || f.At != at {
		return false
	}
	ev := sim.Event{Kind: sim.KindFault, Name: string(f.Kind), Client: w.Name}
	switch f.Kind {
	case sim.FaultPause:
		w.proxy.Hold()
		ev.Fact = &fact.Fact{Key: fact.Paused, Client: w.Name, For: f.For}
		w.rec.Add(ev)
		sleep(ctx, f.For) // a run stopped (Ctrl-C) ends the pause
		w.proxy.Release()
		w.rec.Add(sim.Event{Kind: sim.KindFault, Name: "resume", Client: w.Name, Fact: &fact.Fact{Key: fact.RunsAgain, Client: w.Name}})
	case sim.FaultPartition:
		w.proxy.Hold()
		ev.Node, ev.Fact = Node, &fact.Fact{Key: fact.CutOff, Node: Node, Client: w.Name}
		w.rec.Add(ev)
		time.AfterFunc(f.For, func() {
			w.proxy.Release()
			w.rec.Add(sim.Event{Kind: sim.KindFault, Name: string(sim.FaultHeal), Node: Node, Client: w.Name,
				Fact: &fact.Fact{Key: fact.Reachable, Node: Node}})
		})
	case sim.FaultCrash:
		ev.Fact = &fact.Fact{Key: fact.Crashed, Client: w.Name}
		w.rec.Add(ev)
		w.crash()
		return true
	case sim.FaultDropReply:
		w.tap.loseNext.Store(true)
		ev.Fact = &fact.Fact{Key: fact.NextReplyLost, Client: w.Name}
		w.rec.Add(ev)
	}
	return false
}

// crash ends the worker's process: its client stops (its keep-alive with
// it) without revoking its lease, and its connections close.
func (w *worker) crash() {
	w.closing.Store(true)
	_ = w.cli.Close()
	w.proxy.Cut()
}

// mark records a step of the worker's program on the lock.
func (w *worker) mark(name string, f *fact.Fact) {
	w.rec.Add(sim.Event{Kind: sim.KindMark, Client: w.Name, Name: name, Lock: LockName, Fact: f})
}

// sleep waits d, or until ctx ends (false).
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
