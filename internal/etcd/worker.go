package etcd

import (
	"context"
	"sync/atomic"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/sim"
)

// worker is one client of a run: its own connection through its own
// proxy, its session, and its program.
type worker struct {
	Worker
	lesson *Lesson
	rec    *Recorder
	watch  *watcher
	ns     string
	server string
	proxy  *Proxy
	tap    *tap
}

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
	done(w.rec, w.Name, err)
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
	s, err := concurrency.NewSession(cli, concurrency.WithTTL(w.lesson.Lease), concurrency.WithContext(ctx))
	if err != nil {
		return err
	}
	w.watch.own(s.Lease(), w.Name)
	var closing atomic.Bool
	learned := make(chan struct{})
	go func() {
		defer close(learned)
		select {
		case <-s.Done():
			if !closing.Load() {
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
	closing.Store(true)
	_ = s.Close()
	<-learned
	return err
}

// round takes the lock once, works inside, writes, leaves and unlocks.
func (w *worker) round(ctx context.Context, cli *clientv3.Client, m *concurrency.Mutex, first bool) error {
	if err := m.Lock(ctx); err != nil {
		w.mark(sim.MarkGaveUp, nil)
		return err
	}
	w.mark(sim.MarkAcquired, nil)
	if first {
		w.pause(sim.MarkAcquired)
	}
	w.mark(sim.MarkEnter, nil)
	if first {
		w.pause(sim.MarkEnter)
	}
	if !sleep(ctx, w.Work) {
		return ctx.Err()
	}
	if err := w.write(ctx, cli, m); err != nil {
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

// pause stops the worker's world after mark at, if its pause is there: its
// connection is held (the keep-alive cannot reach the server) and its
// program waits, for the pause's length.
func (w *worker) pause(at string) {
	if w.Pause.For == 0 || w.Pause.At != at {
		return
	}
	w.proxy.Hold()
	w.rec.Add(sim.Event{Kind: sim.KindFault, Name: string(sim.FaultPause), Client: w.Name,
		Fact: &fact.Fact{Key: fact.Paused, Client: w.Name, For: w.Pause.For}})
	time.Sleep(w.Pause.For)
	w.proxy.Release()
	w.rec.Add(sim.Event{Kind: sim.KindFault, Name: "resume", Client: w.Name, Fact: &fact.Fact{Key: fact.RunsAgain, Client: w.Name}})
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
