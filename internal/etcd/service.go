package etcd

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/lockstep/lockstep/internal/check"
	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/live"
)

// Service offers the etcd lessons to the browser app (a live.Service):
// its server, embedded or external, is found when a run first needs it,
// so that a page that never opens an etcd lesson costs nothing.
type Service struct {
	where string // "" or "embedded": a server in the process; else a client URL
	// Started, if set, is told of the server once it has started (or been
	// found), and how long that took.
	Started func(srv *Server, took time.Duration)

	mu      sync.Mutex
	srv     *Server
	paused  map[*Server]bool // the processes of the server pause's runs, until each ends
	startup time.Duration    // how long the server took to start (embedded) or be found
}

// NewService is the etcd lessons on the server where names: "" or
// "embedded" (a real etcd started in the process on first use), or an
// external server's client URL.
func NewService(where string) (*Service, error) {
	if where != "" && where != "embedded" {
		if _, err := External(where); err != nil {
			return nil, err
		}
	}
	return &Service{where: where}, nil
}

var _ live.Service = (*Service)(nil)

// Name is "etcd".
func (s *Service) Name() string { return "etcd" }

// Lessons are the etcd lessons as the page lists them.
func (s *Service) Lessons() []live.Lesson {
	out := make([]live.Lesson, len(Lessons))
	for i, l := range Lessons {
		names := make([]string, len(l.Workers))
		for j, w := range l.Workers {
			names[j] = w.Name
		}
		out[i] = live.Lesson{ID: l.ID, Title: l.Title, Story: l.Story, Expect: l.Expect, Clients: names, Needs: s.needs(&l)}
		if l.ServerRestart > 0 { // its verdict is the branch the run took
			out[i].Expected = Lessons[i].Expected
		}
	}
	return out
}

// needs says what a lesson that stops its server lacks here: a server
// Lockstep starts (the etcd lessons run on an external one), or the etcd
// server program; nil for the other lessons, which the embedded server
// runs.
func (s *Service) needs(l *Lesson) *live.Needs {
	switch {
	case !l.StopsServer():
		return nil
	case s.where != "" && s.where != "embedded":
		return &live.Needs{Short: fact.Text{En: NeedsStarted.En, Zh: NeedsStarted.Zh}, Say: fact.Text{En: CannotPause.En, Zh: CannotPause.Zh}}
	case Available() != nil:
		return &live.Needs{Short: fact.Text{En: NeedsBinary.En, Zh: NeedsBinary.Zh}, Say: fact.Text{En: Install.En, Zh: Install.Zh}}
	}
	return nil
}

// Start begins lesson id, starting the server first if it is not running.
// A server that failed to start is tried again on the next Start.
func (s *Service) Start(ctx context.Context, id string) (live.Run, error) {
	l, ok := Find(id)
	if !ok {
		return nil, fmt.Errorf("etcd: no lesson %q", id)
	}
	if l.StopsServer() {
		return s.startPaused(ctx, l)
	}
	srv, err := s.server()
	if err != nil {
		return nil, err
	}
	return Begin(ctx, srv, l), nil
}

// startPaused begins l, a lesson that stops its server, on an etcd
// process of its own, killed when the run ends: the shared server's other
// runs are not stopped with it. It is refused on an external server, and
// without the etcd server program it says what to install.
func (s *Service) startPaused(ctx context.Context, l *Lesson) (live.Run, error) {
	if s.where != "" && s.where != "embedded" {
		return nil, &live.Unavailable{Err: ErrCannotPause, Say: fact.Text{En: CannotPause.En, Zh: CannotPause.Zh}}
	}
	srv, err := StartProcess()
	if errors.Is(err, ErrNoBinary) {
		return nil, &live.Unavailable{Err: err, Say: fact.Text{En: Install.En, Zh: Install.Zh}}
	}
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if s.paused == nil {
		s.paused = map[*Server]bool{}
	}
	s.paused[srv] = true
	s.mu.Unlock()
	p := Begin(ctx, srv, l)
	go func() {
		<-p.Done()
		s.mu.Lock()
		delete(s.paused, srv)
		s.mu.Unlock()
		srv.Close()
	}()
	return p, nil
}

// server is the running server, started (or found) on first use.
func (s *Service) server() (*Server, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.srv != nil {
		return s.srv, nil
	}
	t0 := time.Now()
	var srv *Server
	var err error
	if s.where == "" || s.where == "embedded" {
		srv, err = StartEmbedded()
	} else {
		srv, err = External(s.where)
	}
	if err != nil {
		return nil, err
	}
	s.srv, s.startup = srv, time.Since(t0)
	if s.Started != nil {
		s.Started(srv, s.startup)
	}
	return srv, nil
}

// Startup is how long the server took to start on first use (0 before).
func (s *Service) Startup() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.startup
}

// Close stops an embedded server, if one was started.
func (s *Service) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.srv != nil {
		s.srv.Close()
		s.srv = nil
	}
	for srv := range s.paused {
		srv.Close() // its run's end closes it again: a process is killed once
	}
}

// Checker is the checker every etcd lesson's run is judged by: a
// recording of one is judged again by it (live.Replay).
func (s *Service) Checker(string) *check.Checker { return newChecker() }

var _ live.Judged = (*Service)(nil)
