package zookeeper

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/lockstep/lockstep/internal/check"
	"github.com/lockstep/lockstep/internal/live"
)

// Service offers the ZooKeeper lessons to the browser app (a
// live.Service): its server, a JVM this program starts or an external
// one, is found when a run first needs it, so that a page that never
// opens a ZooKeeper lesson costs no JVM.
type Service struct {
	where string // "": a server started here; else an external host:port
	// Started, if set, is told of the server once it has started (or been
	// found), and how long that took.
	Started func(where string, took time.Duration)

	mu      sync.Mutex
	srv     *Server          // the server started here, if any
	paused  map[*Server]bool // the servers of the server pause's runs, until each ends
	addr    string
	startup time.Duration
}

// NewService is the ZooKeeper lessons on the server where names: "" (a
// real ZooKeeper started here on first use) or an external server's
// host:port.
func NewService(where string) (*Service, error) {
	if where != "" {
		if _, _, err := net.SplitHostPort(where); err != nil {
			return nil, fmt.Errorf("zookeeper: %q is not a server's host:port", where)
		}
	}
	return &Service{where: where}, nil
}

var _ live.Service = (*Service)(nil)

// Name is "ZooKeeper".
func (s *Service) Name() string { return "ZooKeeper" }

// Lessons are the ZooKeeper lessons as the page lists them.
func (s *Service) Lessons() []live.Lesson {
	out := make([]live.Lesson, len(Lessons))
	for i, l := range Lessons {
		names := make([]string, len(l.Workers))
		for j, w := range l.Workers {
			names[j] = w.Name
		}
		out[i] = live.Lesson{ID: l.ID, Title: l.Title, Story: l.Story, Expect: l.Expect, Clients: names, Needs: s.needs(&l)}
		if l.ServerPause > 0 { // its verdict is the branch the run took
			out[i].Expected = Lessons[i].Expected
		}
	}
	return out
}

// needs says what this machine lacks to start a server here: nil when
// Java and ZooKeeper's jars are installed, or the server is external; a
// lesson that stops the server needs the server started here.
func (s *Service) needs(l *Lesson) *live.Needs {
	if l.ServerPause > 0 && s.where != "" {
		return &live.Needs{Short: NeedsStarted, Say: CannotPause}
	}
	if s.where != "" || Available() == nil {
		return nil
	}
	return &live.Needs{Short: NeedsJava, Say: Install}
}

// Start begins lesson id, starting the server first if it is not running.
// Without Java the error is ErrNoJava, whose words say what to install; a
// server that failed to start is tried again on the next Start.
func (s *Service) Start(ctx context.Context, id string) (live.Run, error) {
	l, ok := Find(id)
	if !ok {
		return nil, fmt.Errorf("zookeeper: no lesson %q", id)
	}
	if l.ServerPause > 0 {
		return s.startPaused(ctx, l)
	}
	addr, where, err := s.server()
	if err != nil {
		return nil, err
	}
	return Begin(ctx, addr, where, l), nil
}

// startPaused begins l, a lesson that stops its server, on a JVM of its
// own, killed when the run ends: the shared server's other runs (another
// viewer's, a class's) are not stopped with it. It is refused on an
// external server, which cannot be stopped from here.
func (s *Service) startPaused(ctx context.Context, l *Lesson) (live.Run, error) {
	if s.where != "" {
		return nil, &live.Unavailable{Err: ErrCannotPause, Say: CannotPause}
	}
	srv, err := Start(Options{})
	if errors.Is(err, ErrNoJava) {
		return nil, &live.Unavailable{Err: err, Say: Install}
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
	p := BeginOn(ctx, srv, "ZooKeeper (a JVM started by Lockstep for this run, tickTime 100ms) at "+srv.Addr, l)
	go func() {
		<-p.Done()
		s.mu.Lock()
		delete(s.paused, srv)
		s.mu.Unlock()
		srv.Kill()
	}()
	return p, nil
}

// Where is the server as a run names it, once found ("" before).
func (s *Service) Where() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.name()
}

// name says which server it is (s.mu held).
func (s *Service) name() string {
	switch {
	case s.addr == "":
		return ""
	case s.srv != nil:
		return "ZooKeeper (a JVM started by Lockstep, tickTime 100ms) at " + s.addr
	}
	return "ZooKeeper at " + s.addr
}

// server is the running server's address, started (or found) on first
// use.
func (s *Service) server() (addr, where string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.addr != "" {
		return s.addr, s.name(), nil
	}
	t0 := time.Now()
	if s.where == "" {
		srv, err := Start(Options{})
		if errors.Is(err, ErrNoJava) {
			return "", "", &live.Unavailable{Err: err, Say: Install}
		}
		if err != nil {
			return "", "", err
		}
		s.srv, s.addr = srv, srv.Addr
	} else {
		s.addr = s.where
	}
	s.startup = time.Since(t0)
	if s.Started != nil {
		s.Started(s.name(), s.startup)
	}
	return s.addr, s.name(), nil
}

// Startup is how long the server took to start on first use (0 before).
func (s *Service) Startup() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.startup
}

// Close stops the server this program started, if any.
func (s *Service) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.srv != nil {
		s.srv.Kill()
		s.srv, s.addr = nil, ""
	}
	for srv := range s.paused {
		srv.Kill() // its run's end kills it again: Kill is once
	}
}

// Checker is the checker every ZooKeeper lesson's run is judged by: a
// recording of one is judged again by it (live.Replay).
func (s *Service) Checker(string) *check.Checker { return newChecker() }

var _ live.Judged = (*Service)(nil)
