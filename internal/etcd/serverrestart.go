package etcd

import (
	"context"
	"fmt"
	"time"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/live"
	"github.com/lockstep/lockstep/internal/sim"
)

// The names the log gives a server's crash and its restart (fault events
// on the server's lane).
const (
	FaultServerCrash   = "server-crash"
	FaultServerRestart = "server-restart"
)

// SayRestartOutcome names the say event that tells which branch a server
// restart's run took.
const SayRestartOutcome = "restart-outcome"

// serverRestart kills srv (SIGKILL) for a lesson's ServerRestart once its
// first worker has entered the critical section, and starts it again on
// the same data directory that long after, even when ctx ends first: a
// run never leaves the server down.
type serverRestart struct {
	srv    *Server
	rec    *live.Recorder
	holder string // the worker whose entry starts the crash
	down   time.Duration

	done      chan struct{}
	err       error
	crashed   int // the crash's seq in the log (0: never crashed)
	restarted int // the restart's seq
}

func (r *serverRestart) run(ctx context.Context) {
	defer close(r.done)
	for !entered(r.rec, r.holder) {
		if !sleep(ctx, 10*time.Millisecond) {
			return
		}
	}
	if err := r.srv.Crash(); err != nil {
		r.err = fmt.Errorf("etcd: kill the server: %w", err)
		return
	}
	r.crashed = r.rec.Add(sim.Event{Kind: sim.KindFault, Name: FaultServerCrash, Node: Node,
		Fact: &fact.Fact{Key: fact.EtcdServerCrashed, Node: Node, For: r.down}})
	sleep(ctx, r.down) // a run stopped (Ctrl-C) restarts it at once
	if err := r.srv.Restart(); err != nil {
		r.err = fmt.Errorf("etcd: restart the server: %w", err)
		return
	}
	r.restarted = r.rec.Add(sim.Event{Kind: sim.KindFault, Name: FaultServerRestart, Node: Node,
		Fact: &fact.Fact{Key: fact.EtcdServerRestarted, Node: Node}})
}

// entered reports whether worker name has entered its critical section
// in rec's log.
func entered(rec *live.Recorder, name string) bool {
	for _, e := range rec.Events() {
		if e.Kind == sim.KindMark && e.Name == sim.MarkEnter && e.Client == name {
			return true
		}
	}
	return false
}

// ended says why the restart failed, if it did, or else names the branch
// the run took; a run whose holder never entered is an error, unless the
// run was stopped.
func (r *serverRestart) ended(ctx context.Context) error {
	switch {
	case r.err != nil:
		return r.err
	case r.crashed == 0 && ctx.Err() == nil:
		return fmt.Errorf("etcd: %s never entered the critical section, so the server was never restarted", r.holder)
	}
	r.say()
	return nil
}

// say names the branch this run took, with the tally measured: the
// holder's lease lived through the restart (its key was never expired),
// or it ended after the crash (its key's expiry in the log).
func (r *serverRestart) say() {
	if r.restarted == 0 {
		return
	}
	f := &fact.Fact{Key: fact.EtcdRestartKept, Holder: r.holder, Have: ServerRestartTally.Kept, Want: ServerRestartTally.Runs}
	refs := []int{r.restarted}
	if e := expiredAfter(r.rec, r.holder, r.crashed); e != nil {
		f = &fact.Fact{Key: fact.EtcdRestartLost, Holder: r.holder, Have: ServerRestartTally.Lost, Want: ServerRestartTally.Runs}
		refs = []int{r.restarted, e.Seq}
	}
	text := f.Render()
	r.rec.Add(sim.Event{Kind: sim.KindSay, Name: SayRestartOutcome, Refs: refs, Fact: f, Say: &text})
}

// expiredAfter is the first expiry of holder's key after seq in rec's
// log, or nil.
func expiredAfter(rec *live.Recorder, holder string, seq int) *sim.Event {
	for _, e := range rec.Events() {
		if e.Kind == sim.KindExpire && e.Seq > seq && e.Fact != nil && e.Fact.Holder == holder {
			return &e
		}
	}
	return nil
}
