package server

// The code view of a live lesson: the service's lock code, as compiled
// into this program, served under /source/ beside the engine's locks.

import (
	"fmt"

	"github.com/lockstep/lockstep/internal/live"
)

// liveCode serves a service's lock code under /source/, beside the
// engine's locks, when it shows its code.
func (s *Server) liveCode(svc live.Service) error {
	c, ok := svc.(live.Coded)
	if !ok {
		return nil
	}
	a, err := loadAssets(c.Code().Files)
	if err != nil {
		return fmt.Errorf("server: %s's code: %w", svc.Name(), err)
	}
	for name, f := range a.files {
		if s.source.files[name] != nil {
			return fmt.Errorf("server: %s's code: %s is the engine's", svc.Name(), name)
		}
		s.source.files[name] = f
	}
	return nil
}

// liveCodeFiles maps each client of a live lesson to the file its lock
// code starts in, when its service shows its code.
func liveCodeFiles(l *liveState) map[string]string {
	c, ok := l.svc.(live.Coded)
	if !ok {
		return nil
	}
	f := c.Code().File
	out := make(map[string]string, len(l.lesson.Clients))
	for _, name := range l.lesson.Clients {
		out[name] = f
	}
	return out
}

// liveLibs describes the library a live lesson's code belongs to, for
// the code view's header.
func liveLibs(l *liveState) map[string]libView {
	c, ok := l.svc.(live.Coded)
	if !ok {
		return nil
	}
	code := c.Code()
	return map[string]libView{code.Dir: {Module: code.Module, Version: code.Version, License: code.License, URL: code.URL}}
}
