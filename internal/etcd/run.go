package etcd

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"github.com/lockstep/lockstep/internal/check"
	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/live"
	"github.com/lockstep/lockstep/internal/sim"
)

// Horizon is the longest a lesson's run may take: a run whose workers
// have not finished by then ends there.
const Horizon = 20 * time.Second

// answerWithin is how long a run waits for the server to set up its watch
// on the lock before it says the server does not answer.
const answerWithin = 5 * time.Second

// Run plays lesson l against srv in real time and gives its log, with the
// checker's verdicts at its end. The run's keys live under a namespace of
// their own on the server (so runs can share one), which the log leaves
// out: the lock is job/, the resource account.
func Run(ctx context.Context, srv *Server, l *Lesson) (*live.Recorder, error) {
	p := Begin(ctx, srv, l)
	<-p.Done()
	if err := p.Err(); err != nil {
		return nil, err
	}
	return p.rec, nil
}

// Play is one lesson playing in real time on a server, its log growing
// as it goes (a live.Run: the browser app streams it).
type Play struct {
	rec    *live.Recorder
	where  string
	done   chan struct{}
	err    error
	cancel context.CancelFunc
}

// Begin starts lesson l against srv and returns at once; the run goes on
// in goroutines of its own until its workers finish (or Horizon, or
// Stop).
func Begin(ctx context.Context, srv *Server, l *Lesson) *Play {
	ctx, cancel := context.WithCancel(ctx)
	p := &Play{rec: newLessonRecorder(), where: srv.String(), done: make(chan struct{}), cancel: cancel}
	go func() {
		defer close(p.done)
		defer cancel()
		if p.err = perform(ctx, srv, l, p.rec); p.err != nil {
			p.rec.Abort() // a run that could not play has no verdict
			return
		}
		p.rec.Finish()
	}()
	return p
}

// Events is the log so far.
func (p *Play) Events() []sim.Event { return p.rec.Events() }

// Sections is who came into or left a critical section with event seq.
func (p *Play) Sections(seq int) check.SectionChange { return p.rec.Sections(seq) }

// Changed is nudged after events are added.
func (p *Play) Changed() <-chan struct{} { return p.rec.Changed() }

// Done is closed when the run has ended and its verdicts are logged.
func (p *Play) Done() <-chan struct{} { return p.done }

// Err is what stopped the run before its lesson could play (after Done).
func (p *Play) Err() error { return p.err }

// Since is the wall-clock time since the run's start.
func (p *Play) Since() time.Duration { return p.rec.Since() }

// Server says which etcd the run is on.
func (p *Play) Server() string { return p.where }

// Stop ends the run early (its workers' context is cancelled) and waits
// until its goroutines are done.
func (p *Play) Stop() {
	p.cancel()
	<-p.done
}

// newLessonRecorder is a log checked for the lessons' lock and resource.
func newLessonRecorder() *live.Recorder { return live.NewRecorder(newChecker()) }

// newChecker is the checker of the lessons' lock (a queue lock) and
// resource.
func newChecker() *check.Checker {
	return check.New(check.Options{Locks: []string{LockName}, Queues: []string{LockName}, Resource: Resource})
}

// perform runs l's workers against srv, recording into rec.
func perform(ctx context.Context, srv *Server, l *Lesson, rec *live.Recorder) error {
	if l.StopsServer() && !srv.Stoppable() {
		return ErrCannotPause
	}
	ns, err := namespace()
	if err != nil {
		return err
	}
	obs, err := dial(srv.Addr, nil)
	if err != nil {
		return err
	}
	defer func() { _ = obs.Close() }()
	ctx, cancel := context.WithTimeout(ctx, Horizon)
	defer cancel()
	w := newWatcher(obs, rec, ns, l.Lease)
	wctx, stopWatch := context.WithCancel(ctx)
	ready := make(chan struct{})
	watched := make(chan struct{})
	go func() { w.run(wctx, ready); close(watched) }()
	select {
	case <-ready:
	case <-time.After(answerWithin):
		stopWatch()
		return fmt.Errorf("etcd: the server at %s did not answer within %s", srv.Addr, answerWithin)
	case <-ctx.Done():
		stopWatch()
		return fmt.Errorf("etcd: no watch on the lock at %s: %w", srv.Addr, ctx.Err())
	}
	var wg sync.WaitGroup
	for i := range l.Workers {
		wk := &worker{Worker: l.Workers[i], lesson: l, rec: rec, watch: w, ns: ns, server: srv.Addr}
		wg.Go(func() { wk.run(ctx) })
	}
	pause := serverFaultOf(srv, rec, l)
	pctx, stopPause := context.WithCancel(ctx)
	defer stopPause()
	if pause != nil {
		go pause.run(pctx)
	}
	wg.Wait()
	if pause != nil {
		stopPause() // a holder that never entered: the fault never comes
		<-pause.finished()
	}
	// the watch may still carry the last changes (the lease's end of a
	// session that closed): let it catch up before the log closes
	sleep(ctx, 200*time.Millisecond)
	stopWatch()
	<-watched
	if pause != nil {
		return pause.ended(ctx)
	}
	return nil
}

// serverFault is a lesson's fault of the server itself, which starts once
// the first worker has entered: a pause (ServerPause) or a crash and a
// restart (ServerRestart).
type serverFault interface {
	run(ctx context.Context)
	finished() <-chan struct{}
	ended(ctx context.Context) error
}

// serverFaultOf is l's fault of the server, or nil.
func serverFaultOf(srv *Server, rec *live.Recorder, l *Lesson) serverFault {
	switch {
	case l.ServerPause > 0:
		return &serverPause{srv: srv, rec: rec, holder: l.Workers[0].Name, pause: l.ServerPause, done: make(chan struct{})}
	case l.ServerRestart > 0:
		return &serverRestart{srv: srv, rec: rec, holder: l.Workers[0].Name, down: l.ServerRestart, done: make(chan struct{})}
	}
	return nil
}

func (p *serverPause) finished() <-chan struct{}   { return p.done }
func (r *serverRestart) finished() <-chan struct{} { return r.done }

// namespace is a fresh prefix for one run's keys.
func namespace() (string, error) {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("etcd: %w", err)
	}
	return "lockstep/" + hex.EncodeToString(b[:]) + "/", nil
}

// dial makes a client of addr whose calls t records (none when t is nil).
func dial(addr string, t *tap) (*clientv3.Client, error) {
	cfg := clientv3.Config{Endpoints: []string{addr}, DialTimeout: 5 * time.Second, Logger: zap.NewNop()}
	if t != nil {
		cfg.DialOptions = t.options()
	}
	cli, err := clientv3.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("etcd: connect to %s: %w", addr, err)
	}
	return cli, nil
}

// trim takes the run's namespace out of a text for the log.
func trim(ns string, args []string) []string {
	for i, a := range args {
		args[i] = strings.ReplaceAll(a, ns, "")
	}
	return args
}

// failed is a done event's fact for an error that ended a program.
func failed(err error) *fact.Fact {
	return &fact.Fact{Key: fact.Failed, Text: err.Error()}
}

// done records the end of a worker's program, with the error that ended
// it, if any.
func done(rec *live.Recorder, client string, err error) {
	e := sim.Event{Kind: sim.KindDone, Client: client}
	if err != nil {
		e.Fact = failed(err)
	}
	rec.Add(e)
}
