package server

import (
	"maps"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/scenario"
)

// lockSource serves the lock code the engine runs, as compiled into the
// program (lock.Source): /source/reentrant.go, /source/scripts/reentrant_lock.lua.
// The code view shows it beside the timeline, with the line each command
// came from lit (sim.Event.Src).
func (s *Server) lockSource(w http.ResponseWriter, r *http.Request) {
	name := chi.URLParam(r, "*")
	if name == "" || strings.Contains(name, "..") {
		http.NotFound(w, r)
		return
	}
	f := s.source.files[name]
	if f == nil {
		http.NotFound(w, r)
		return
	}
	f.serve(w, r, "public, max-age=3600")
}

// codeFiles maps each client of a scenario to the file of its algorithm's
// code (lock.SourceOf), for the code view's first page.
func codeFiles(sc *scenario.Scenario) map[string]string {
	out := map[string]string{}
	for _, c := range sc.Clients {
		if l, own := sc.Own(c.Algorithm); own {
			out[c.Name] = l.Spec().File()
		} else if f := lock.SourceOf(c.Algorithm); f != "" {
			out[c.Name] = f
		}
	}
	return out
}

// libView is a library as the code view names it: module, version and
// licence, its home, and the file of its Lua scripts.
type libView struct {
	Module  string `json:"module"`
	Version string `json:"version"`
	License string `json:"license"`
	URL     string `json:"url"`
	Scripts string `json:"scripts,omitempty"` // e.g. scripts.go: where redsync.deleteScript is written
}

// ownCode is the code of the scenario's own locks, as the code view shows
// it (userlock.Spec.Code), and each of their scripts, by the path the view
// asks for; nil when the scenario declares none.
func ownCode(sc *scenario.Scenario) map[string]string {
	var out map[string]string
	for i := range sc.Locks {
		if out == nil {
			out = map[string]string{}
		}
		maps.Copy(out, sc.Locks[i].Code())
	}
	return out
}

// codeLibs describes the libraries the scenario's clients run, by their
// directory in lock.Source (nil when none does).
func codeLibs(sc *scenario.Scenario) map[string]libView {
	var out map[string]libView
	for _, c := range sc.Clients {
		a, ok := sc.Lookup(c.Algorithm)
		if !ok || a.Library == nil {
			continue
		}
		if out == nil {
			out = map[string]libView{}
		}
		l := a.Library
		out[l.Dir] = libView{Module: l.Module, Version: l.Version, License: l.License, URL: l.URL, Scripts: l.Scripts}
	}
	return out
}
