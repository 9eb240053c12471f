package etcd

import (
	"context"
	"fmt"
	"time"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/live"
	"github.com/lockstep/lockstep/internal/sim"
)

// The names the log gives a server's stop and resume (fault events on
// the server's lane).
const (
	FaultServerPause  = "server-pause"
	FaultServerResume = "server-resume"
)

// SayPauseOutcome names the say event that tells which branch a server
// pause's run took.
const SayPauseOutcome = "pause-outcome"

// serverPause stops srv (SIGSTOP) for a lesson's ServerPause once its
// first worker has entered the critical section, and resumes it
// (SIGCONT), even when ctx ends first: a run never leaves the server
// stopped.
type serverPause struct {
	srv    *Server
	rec    *live.Recorder
	holder string // the worker whose entry starts the pause
	pause  time.Duration

	done    chan struct{}
	err     error
	stopped int // the stop's seq in the log (0: not stopped)
	resumed int // the resume's seq
}

func (p *serverPause) run(ctx context.Context) {
	defer close(p.done)
	for !entered(p.rec, p.holder) {
		if !sleep(ctx, 10*time.Millisecond) {
			return
		}
	}
	if err := p.srv.Stop(); err != nil {
		p.err = fmt.Errorf("etcd: stop the server: %w", err)
		return
	}
	p.stopped = p.rec.Add(sim.Event{Kind: sim.KindFault, Name: FaultServerPause, Node: Node,
		Fact: &fact.Fact{Key: fact.EtcdServerStopped, Node: Node, For: p.pause}})
	sleep(ctx, p.pause) // a run stopped (Ctrl-C) ends the pause
	if err := p.srv.Resume(); err != nil {
		p.err = fmt.Errorf("etcd: resume the server: %w", err)
		return
	}
	p.resumed = p.rec.Add(sim.Event{Kind: sim.KindFault, Name: FaultServerResume, Node: Node,
		Fact: &fact.Fact{Key: fact.EtcdServerResumed, Node: Node}})
}

// ended says why the pause failed, if it did, or else names the branch
// the run took; a run whose holder never entered is an error, unless the
// run was stopped.
func (p *serverPause) ended(ctx context.Context) error {
	switch {
	case p.err != nil:
		return p.err
	case p.stopped == 0 && ctx.Err() == nil:
		return fmt.Errorf("etcd: %s never entered the critical section, so the server was never stopped", p.holder)
	}
	p.say()
	return nil
}

// say names the branch this run took, with the tally measured: the
// server ended the holder's lease after its resume (its key's expiry in
// the log), or the holder's lease lived on.
func (p *serverPause) say() {
	if p.resumed == 0 {
		return
	}
	f := &fact.Fact{Key: fact.EtcdPauseKept, Holder: p.holder, Have: ServerPauseTally.Kept, Want: ServerPauseTally.Runs}
	refs := []int{p.resumed}
	for _, e := range p.rec.Events() {
		if e.Kind == sim.KindExpire && e.Seq > p.stopped && e.Fact != nil && e.Fact.Holder == p.holder {
			f = &fact.Fact{Key: fact.EtcdPauseDropped, Holder: p.holder, Have: ServerPauseTally.Dropped, Want: ServerPauseTally.Runs}
			refs = []int{p.resumed, e.Seq}
			break
		}
	}
	text := f.Render()
	p.rec.Add(sim.Event{Kind: sim.KindSay, Name: SayPauseOutcome, Refs: refs, Fact: f, Say: &text})
}
