package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"runtime"
	"time"

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
// sessions, open sockets, goroutines, the sessions' estimated memory, and
// the server's time over requests since it started (from the message read
// to its answer queued, in microseconds): steps' p50, p99 and longest,
// other requests' p50 and p99.
func (s *Server) health(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	sessions, sockets := len(s.sessions), len(s.conns)
	s.mu.Unlock()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	us := func(d time.Duration) int64 { return d.Microseconds() }
	_, _ = fmt.Fprintf(w, "ok\nsessions %d\nsockets %d\ngoroutines %d\nmemory %d\n", sessions, sockets, runtime.NumGoroutine(), s.total.Load())
	_, _ = fmt.Fprintf(w, "steps %d\nstep_p50_us %d\nstep_p99_us %d\nstep_max_us %d\nother_p50_us %d\nother_p99_us %d\n",
		s.stepTime.n.Load(), us(s.stepTime.quantile(0.5)), us(s.stepTime.quantile(0.99)), us(s.stepTime.quantile(1)),
		us(s.otherTime.quantile(0.5)), us(s.otherTime.quantile(0.99)))
}

// pageData is what index.html is rendered with.
type pageData struct {
	Catalog []catalogEntry
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
	if err := t.ExecuteTemplate(w, "index.html", pageData{Catalog: s.catalog}); err != nil {
		s.opts.Logf("index: %v", err)
	}
}

func (s *Server) scenarios(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(s.catalog)
}
