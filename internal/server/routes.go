package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"runtime"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
)

// Handler is the app's HTTP handler.
func (s *Server) Handler() http.Handler {
	r := chi.NewRouter()
	r.Use(s.guard, middleware.GetHead)
	r.Get("/", s.index)
	r.Get("/ws", s.serveWS)
	r.Get("/api/scenarios", s.scenarios)
	r.Get("/favicon.ico", favicon)
	r.Get("/healthz", s.health)
	r.Get("/source/*", s.lockSource)
	files := http.StripPrefix("/static/", http.FileServer(http.FS(filesOnly{s.opts.Static})))
	r.Get("/static/*", func(w http.ResponseWriter, req *http.Request) {
		if s.opts.Dev {
			w.Header().Set("Cache-Control", "no-cache")
		}
		files.ServeHTTP(w, req)
	})
	return r
}

// health answers "ok" and the server's load, one figure a line: live
// sessions, open sockets, goroutines and the sessions' estimated memory.
func (s *Server) health(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	sessions, sockets := len(s.sessions), len(s.conns)
	s.mu.Unlock()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = fmt.Fprintf(w, "ok\nsessions %d\nsockets %d\ngoroutines %d\nmemory %d\n",
		sessions, sockets, runtime.NumGoroutine(), s.total.Load())
}

// pageData is what index.html is rendered with.
type pageData struct {
	Catalog  []catalogEntry
	Protocol int
}

func (s *Server) index(w http.ResponseWriter, _ *http.Request) {
	t := s.tmpl
	if s.opts.Dev {
		var err error
		if t, err = s.loadTemplates(); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := t.ExecuteTemplate(w, "index.html", pageData{Catalog: s.catalog, Protocol: ProtocolVersion}); err != nil {
		s.opts.Logf("index: %v", err)
	}
}

func (s *Server) scenarios(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(s.catalog)
}
