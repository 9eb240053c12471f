package server

import (
	"encoding/json"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"runtime"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"

	"github.com/lockstep/lockstep/internal/fact"
)

// Handler is the app's HTTP handler.
func (s *Server) Handler() http.Handler {
	r := chi.NewRouter()
	r.Use(s.guard, middleware.GetHead)
	r.Get("/", s.index)
	r.Get("/ws", s.serveWS)
	r.Get("/remote", s.remotePage)
	r.Get("/api/scenarios", s.scenarios)
	r.Get("/favicon.ico", favicon)
	r.Get("/healthz", s.health)
	r.Get("/source/*", s.lockSource)
	files := http.StripPrefix("/static/", http.FileServer(http.FS(filesOnly{s.opts.Static})))
	r.Get("/static/*", func(w http.ResponseWriter, req *http.Request) {
		if s.opts.Dev {
			w.Header().Set("Cache-Control", "no-cache")
			files.ServeHTTP(w, req)
			return
		}
		s.staticFile(w, req, chi.URLParam(req, "*"))
	})
	return r
}

// staticFile serves a static file: under the current version
// (/static/v-…/app.js) for a year, as immutable; by its bare name
// (/static/app.js) revalidated on each use. Another version is not found:
// its files are gone.
func (s *Server) staticFile(w http.ResponseWriter, r *http.Request, name string) {
	cache := "no-cache"
	if v, rest, ok := strings.Cut(name, "/"); ok && strings.HasPrefix(v, "v-") {
		if v != s.static.version {
			http.NotFound(w, r)
			return
		}
		name, cache = rest, immutable
	}
	f := s.static.files[name]
	if f == nil {
		http.NotFound(w, r)
		return
	}
	f.serve(w, r, cache)
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
	// Beside the estimate, what the process measures (meter.go): what the
	// budget counts, the live heap and stacks, what the runtime holds, RSS.
	m := readMem()
	_, _ = fmt.Fprintf(w, "memory_used %d\nmemory_live %d\nmemory_held %d\nrss %d\nmemory_budget %d\n", s.usedNow(), m.live, m.held, rss(), s.limits.MaxMemory)
	_, _ = fmt.Fprintf(w, "steps %d\nstep_p50_us %d\nstep_p99_us %d\nstep_max_us %d\nother_p50_us %d\nother_p99_us %d\n",
		s.stepTime.n.Load(), us(s.stepTime.quantile(0.5)), us(s.stepTime.quantile(0.99)), us(s.stepTime.quantile(1)),
		us(s.otherTime.quantile(0.5)), us(s.otherTime.quantile(0.99)))
}

// pageData is what index.html is rendered with: the catalog, where the
// static files are (/static/v-… : their version), the page's script and
// the first lesson.
type pageData struct {
	Catalog []catalogEntry
	Static  string
	Script  string        // page.js, the page's modules joined (app.js in Dev, read from disk as it is)
	Styles  []string      // page.css, the page's style sheets joined (in Dev each, from disk)
	First   *catalogEntry // the lesson a first visit opens, written into the page so that nothing moves when it arrives
	Live    bool          // the catalog has lessons of a live service (the picker's group for them)
	// The words the page says before its scripts run, from the catalogue:
	// the language switch's first label (the second language's name, in
	// its words) and what a browser without JavaScript shows (every
	// language's sentence).
	LangSwitch, NoScript string
	// Early is web/static/early.js, written into the page's head: it opens
	// the socket as the page starts, before any file is fetched (the
	// page's Content-Security-Policy names its hash: Server.inline).
	Early template.JS
}

func (s *Server) pageData() pageData {
	d := pageData{Catalog: s.catalog, Static: "/static", Script: "app.js", Styles: pageStyles, Live: len(s.lives) > 0}
	d.LangSwitch, _ = fact.Said(fact.Languages[1], "page.langName")
	var no []string
	for _, lang := range fact.Languages {
		said, _ := fact.Said(lang, "page.noScript")
		no = append(no, said)
	}
	d.NoScript = strings.Join(no, " ")
	if len(s.catalog) > 0 {
		d.First = &s.catalog[0]
	}
	if b, err := fs.ReadFile(s.opts.Static, "early.js"); err == nil {
		d.Early = template.JS(b) // the program's own file, as it is
	}
	if s.static != nil {
		d.Static += "/" + s.static.version
		if s.static.files[pageScript] != nil {
			d.Script = pageScript
		}
		if s.static.files[pageStyle] != nil {
			d.Styles = []string{pageStyle}
		}
	}
	return d
}

// index serves the page, rendered once and revalidated on every load (in
// Dev, rendered again each time from the templates on disk).
func (s *Server) index(w http.ResponseWriter, r *http.Request) {
	if !s.opts.Dev {
		s.page.serve(w, r, "no-cache")
		return
	}
	t, err := s.loadTemplates()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	d := s.pageData()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("Content-Security-Policy", cspFor(r.Host, scriptHash([]byte(d.Early)))) // early.js as on disk now
	if err := t.ExecuteTemplate(w, "index.html", d); err != nil {
		s.opts.Logf("index: %v", err)
	}
}

// remotePage serves the teacher's remote, web/static/remote.html
// (classremote.go), revalidated on every load.
func (s *Server) remotePage(w http.ResponseWriter, r *http.Request) {
	if s.opts.Dev || s.static == nil {
		b, err := fs.ReadFile(s.opts.Static, "remote.html")
		if err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		_, _ = w.Write(b)
		return
	}
	s.staticFile(w, r, "remote.html")
}

func (s *Server) scenarios(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(s.catalog)
}
