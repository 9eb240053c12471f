package zookeeper

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/lockstep/lockstep/internal/check"
	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/live"
	"github.com/lockstep/lockstep/internal/sim"
)

// Node is the name the log gives the ZooKeeper server.
const Node = "zookeeper"

// Horizon is the longest a lesson's run may take: a run whose workers
// have not finished by then ends there.
const Horizon = 20 * time.Second

// answerWithin is how long a run waits for the server to give its
// observer a session before it says the server does not answer.
const answerWithin = 5 * time.Second

// Run plays lesson l against the server at addr in real time and gives
// its log, with the checker's verdicts at its end. The run's nodes live
// under a path of their own (so runs can share a server), which the log
// leaves out: the lock is job/, the resource account. A lesson that stops
// the server (ServerPause) needs RunOn: here it is refused
// (ErrCannotPause).
func Run(ctx context.Context, addr string, l *Lesson) (*live.Recorder, error) {
	return wait(Begin(ctx, addr, "ZooKeeper at "+addr, l))
}

// RunOn plays lesson l on srv, a server this program started, which a
// lesson may stop and resume (ServerPause).
func RunOn(ctx context.Context, srv *Server, l *Lesson) (*live.Recorder, error) {
	return wait(BeginOn(ctx, srv, "ZooKeeper at "+srv.Addr, l))
}

func wait(p *Play) (*live.Recorder, error) {
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

// Begin starts lesson l against the server at addr (where says which
// server it is) and returns at once; the run goes on in goroutines of its
// own until its workers finish (or Horizon, or Stop). A lesson that stops
// the server (ServerPause) needs BeginOn: here its run ends at once with
// ErrCannotPause.
func Begin(ctx context.Context, addr, where string, l *Lesson) *Play {
	return begin(ctx, addr, nil, where, l)
}

// BeginOn starts lesson l on srv, a server this program started, which a
// lesson may stop and resume (ServerPause).
func BeginOn(ctx context.Context, srv *Server, where string, l *Lesson) *Play {
	return begin(ctx, srv.Addr, srv, where, l)
}

func begin(ctx context.Context, addr string, srv *Server, where string, l *Lesson) *Play {
	ctx, cancel := context.WithCancel(ctx)
	p := &Play{rec: newLessonRecorder(), where: where, done: make(chan struct{}), cancel: cancel}
	go func() {
		defer close(p.done)
		defer cancel()
		if p.err = perform(ctx, addr, srv, l, p.rec); p.err != nil {
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

// Server says which ZooKeeper the run is on.
func (p *Play) Server() string { return p.where }

// Stop ends the run early (its workers' context is cancelled) and waits
// until its goroutines are done.
func (p *Play) Stop() {
	p.cancel()
	<-p.done
}

// Recorder is the log of a run (its Verdicts once it is over).
func (p *Play) Recorder() *live.Recorder { return p.rec }

// newLessonRecorder is a log checked for the lessons' lock (a queue lock:
// the lowest node's client holds) and resource (a storage that checks
// the tokens its writes carry).
func newLessonRecorder() *live.Recorder { return live.NewRecorder(newChecker()) }

// newChecker is the checker of the lessons' lock and resource.
func newChecker() *check.Checker {
	return check.New(check.Options{Locks: []string{LockName}, Queues: []string{LockName},
		Resource: Resource, FencedStorage: true})
}

// perform runs l's workers against the server at addr (srv, if this
// program started it), recording into rec.
func perform(ctx context.Context, addr string, srv *Server, l *Lesson, rec *live.Recorder) error {
	if l.ServerPause > 0 && srv == nil {
		return ErrCannotPause
	}
	root, err := namespace()
	if err != nil {
		return err
	}
	obs, err := connect(ctx, addr, 2*time.Second)
	if err != nil {
		return err
	}
	defer obs.Close()
	for _, p := range []string{root, root + "/" + LockName, root + "/" + Resource} {
		if _, err := obs.Create(p, nil, 0, zk.WorldACL(zk.PermAll)); err != nil {
			return fmt.Errorf("zookeeper: create %s: %w", p, err)
		}
	}
	defer clean(obs, root)
	horizon := Horizon
	if l.Horizon > 0 {
		horizon = l.Horizon
	}
	ctx, cancel := context.WithTimeout(ctx, horizon)
	defer cancel()
	// at the horizon the log closes with the verdicts on the state then:
	// what the clients do as the run tears them down is not the lesson's
	defer context.AfterFunc(ctx, func() {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			rec.Finish()
		}
	})()
	w := newWatcher(obs, rec, root, l.Session)
	wctx, stopWatch := context.WithCancel(ctx)
	watched := make(chan struct{})
	go func() { w.run(wctx); close(watched) }()
	var wg sync.WaitGroup
	for i := range l.Workers {
		wk := &worker{Worker: l.Workers[i], lesson: l, rec: rec, watch: w, root: root, server: addr}
		wg.Go(func() { wk.run(ctx) })
	}
	var pause *serverPause
	pctx, stopPause := context.WithCancel(ctx)
	defer stopPause()
	if l.ServerPause > 0 {
		pause = &serverPause{srv: srv, rec: rec, watch: w, workers: len(l.Workers), pause: l.ServerPause, done: make(chan struct{})}
		for _, wk := range l.Workers {
			pause.names = append(pause.names, wk.Name)
		}
		go pause.run(pctx)
	}
	wg.Wait()
	stopPause() // workers that finished before every node queued: no pause
	// the watch may still carry the last changes (the node of a session
	// that closed): let it catch up before the log closes
	sleep(ctx, 200*time.Millisecond)
	stopWatch()
	<-watched
	if pause != nil {
		<-pause.done
		if err := pause.ended(ctx); err != nil {
			return err
		}
	}
	return nil
}

// connect opens a session of timeout with the server at addr and waits
// until the server has given it (or says why not).
func connect(ctx context.Context, addr string, timeout time.Duration) (*zk.Conn, error) {
	c, events, err := zk.Connect([]string{addr}, timeout, zk.WithLogger(quiet{}))
	if err != nil {
		return nil, fmt.Errorf("zookeeper: connect to %s: %w", addr, err)
	}
	limit := time.After(answerWithin)
	for {
		select {
		case ev := <-events:
			if ev.State == zk.StateHasSession {
				go drain(events)
				return c, nil
			}
		case <-limit:
			c.Close()
			return nil, fmt.Errorf("zookeeper: the server at %s did not answer within %s", addr, answerWithin)
		case <-ctx.Done():
			c.Close()
			return nil, ctx.Err()
		}
	}
}

// drain reads a connection's session events until it closes (the client
// blocks on a full channel otherwise).
func drain(events <-chan zk.Event) {
	for range events {
	}
}

// quiet keeps the client's own log out of the program's output.
type quiet struct{}

func (quiet) Printf(string, ...any) {}

// clean deletes a run's nodes (its ephemeral ones go with their sessions).
func clean(c *zk.Conn, root string) {
	for _, dir := range []string{root + "/" + LockName, root} {
		kids, _, err := c.Children(dir)
		if err != nil {
			continue
		}
		for _, k := range kids {
			_ = c.Delete(dir+"/"+k, -1)
		}
	}
	_ = c.Delete(root, -1)
}

// namespace is a fresh path for one run's nodes.
func namespace() (string, error) {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("zookeeper: %w", err)
	}
	return "/lockstep-" + hex.EncodeToString(b[:]), nil
}

// failed is a done event's fact for an error that ended a program.
func failed(err error) *fact.Fact {
	return &fact.Fact{Key: fact.Failed, Text: err.Error()}
}

// done records the end of a worker's program, with the error that ended
// it, if any.
func done(rec *live.Recorder, client string, err error) {
	e := sim.Event{Kind: sim.KindDone, Client: client}
	if err != nil && !errors.Is(err, context.Canceled) {
		e.Fact = failed(err)
	}
	rec.Add(e)
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
