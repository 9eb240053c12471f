package etcd

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/lockstep/lockstep/internal/check"
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
	startup time.Duration // how long the server took to start (embedded) or be found
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
		out[i] = live.Lesson{ID: l.ID, Title: l.Title, Story: l.Story, Expect: l.Expect, Clients: names}
	}
	return out
}

// Start begins lesson id, starting the server first if it is not running.
// A server that failed to start is tried again on the next Start.
func (s *Service) Start(ctx context.Context, id string) (live.Run, error) {
	l, ok := Find(id)
	if !ok {
		return nil, fmt.Errorf("etcd: no lesson %q", id)
	}
	srv, err := s.server()
	if err != nil {
		return nil, err
	}
	return Begin(ctx, srv, l), nil
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
}

// Checker is the checker every etcd lesson's run is judged by: a
// recording of one is judged again by it (live.Replay).
func (s *Service) Checker(string) *check.Checker { return newChecker() }

var _ live.Judged = (*Service)(nil)
