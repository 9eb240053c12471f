package zookeeper

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

// serverPause stops srv (SIGSTOP) for a lesson's ServerPause once every
// worker's node is in the lock's queue and every waiter has its watch
// (a request of its own in flight would fail with the connection, not
// with the session), and resumes it (SIGCONT), even when ctx ends first:
// a run never leaves the server stopped.
type serverPause struct {
	srv     *Server
	rec     *live.Recorder
	watch   *watcher
	workers int
	names   []string // the workers', in the lesson's order
	pause   time.Duration

	done    chan struct{}
	err     error
	stopped int // the stop's seq in the log (0: not stopped)
}

func (p *serverPause) run(ctx context.Context) {
	defer close(p.done)
	for !p.watch.queued(p.workers) || !p.waiting() {
		if !sleep(ctx, 10*time.Millisecond) {
			return
		}
	}
	if err := p.srv.Stop(); err != nil {
		p.err = fmt.Errorf("zookeeper: stop the server: %w", err)
		return
	}
	p.stopped = p.rec.Add(sim.Event{Kind: sim.KindFault, Name: FaultServerPause, Node: Node,
		Fact: &fact.Fact{Key: fact.ServerStopped, Node: Node, For: p.pause}})
	sleep(ctx, p.pause) // a run stopped (Ctrl-C) ends the pause
	if err := p.srv.Resume(); err != nil {
		p.err = fmt.Errorf("zookeeper: resume the server: %w", err)
		return
	}
	p.rec.Add(sim.Event{Kind: sim.KindFault, Name: FaultServerResume, Node: Node,
		Fact: &fact.Fact{Key: fact.ServerResumed, Node: Node}})
}

// waiting reports whether every worker but the holder has set its watch
// (its watch mark).
func (p *serverPause) waiting() bool {
	who := map[string]bool{}
	for _, e := range p.rec.Events() {
		if e.Kind == sim.KindMark && e.Name == "watch" {
			who[e.Client] = true
		}
	}
	return len(who) >= p.workers-1
}

// ended says why the pause failed, if it did, or else names the branch
// the run took; a run whose workers finished before the pause came (its
// lesson was not played) is an error, unless the run was stopped.
func (p *serverPause) ended(ctx context.Context) error {
	switch {
	case p.err != nil:
		return p.err
	case p.stopped == 0 && ctx.Err() == nil:
		return fmt.Errorf("zookeeper: the workers finished before every one of them was in the lock's queue, so the server was never stopped")
	}
	p.say()
	return nil
}

// say names the branch this run took on the resume, from the sessions
// the server expired after the stop (the watcher's expire events), with
// the tally measured: every one, none, or some.
func (p *serverPause) say() {
	if p.stopped == 0 {
		return
	}
	var expired []int
	who := map[string]bool{}
	for _, e := range p.rec.Events() {
		if e.Kind == sim.KindExpire && e.Seq > p.stopped && e.Fact != nil {
			expired = append(expired, e.Seq)
			who[e.Fact.Holder] = true
		}
	}
	var f *fact.Fact
	switch {
	case len(who) == p.workers:
		f = &fact.Fact{Key: fact.PauseExpiredAll, Have: PauseTally.Expired, Want: PauseTally.Runs}
	case len(who) == 0:
		f = &fact.Fact{Key: fact.PauseOutlived, Have: PauseTally.Outlived, Want: PauseTally.Runs}
		expired = []int{p.stopped}
	default:
		f = &fact.Fact{Key: fact.PauseSplit, Have: PauseTally.Split, Want: PauseTally.Runs}
		for _, w := range p.names {
			if who[w] {
				f.Holder = w
			} else {
				f.Client = w
			}
		}
	}
	text := f.Render()
	p.rec.Add(sim.Event{Kind: sim.KindSay, Name: SayPauseOutcome, Refs: expired, Fact: f, Say: &text})
}

// SayPauseOutcome names the say event that tells which branch a server
// pause's run took.
const SayPauseOutcome = "pause-outcome"
