package server

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/gorilla/websocket"

	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// Options configure a Server. Catalog, Static and Templates are required.
type Options struct {
	Catalog   *scenario.File // the built-in scenarios
	Labs      *scenario.File // the labs (optional): offered beside the lessons, loaded by id
	Static    fs.FS          // served under /static/
	Templates fs.FS          // holds index.html
	// Dev re-reads the templates on every request and turns off caching.
	Dev bool
	// AllowOrigins lists browser origins allowed besides the page's own host
	// ("http://localhost:8080", or "*" for any). Their hosts are also
	// allowed as the Host of a request (see Addr).
	AllowOrigins []string
	// Addr is the address the server listens on. Requests must name, as
	// their Host, an IP address, localhost, Addr's host, or the host of one
	// of AllowOrigins: any other name could be an attacker's rebinding its
	// DNS to this machine.
	Addr string
	// Limits caps what the server and its sessions may use; its zero
	// fields take their defaults.
	Limits Limits
	// Servers places runs on real Redis servers (nil: embedded Redis), and
	// RealRedis describes them for the page (the URLs, without passwords).
	Servers   lesson.Servers
	RealRedis string
	// Logf reports connection problems; nil discards them.
	Logf func(format string, args ...any)
}

// Server is the browser app: routes, sockets and sessions.
type Server struct {
	opts     Options
	limits   Limits
	catalog  []catalogEntry
	upgrader websocket.Upgrader
	tmpl     *template.Template

	mu       sync.Mutex
	sessions map[string]*session
	conns    map[*conn]bool
	closed   bool
	stopJan  chan struct{}

	cpu   chan struct{} // engine slots: a slice of engine work holds one
	bulk  chan struct{} // bulk slots: a slice of long work after its first holds one too
	total atomic.Int64  // the estimated memory of every session's world, bytes
}

// New makes a server and starts its idle-session janitor; Close stops it.
func New(o Options) (*Server, error) {
	if o.Catalog == nil || o.Static == nil || o.Templates == nil {
		return nil, fmt.Errorf("server: Catalog, Static and Templates are required")
	}
	s := &Server{opts: o, limits: o.Limits.withDefaults(), sessions: map[string]*session{},
		conns: map[*conn]bool{}, stopJan: make(chan struct{}), cpu: make(chan struct{}, engineSlots()), bulk: make(chan struct{}, bulkSlots())}
	if s.opts.Logf == nil {
		s.opts.Logf = func(string, ...any) {}
	}
	for _, sc := range o.Catalog.Scenarios {
		s.catalog = append(s.catalog, s.entry(&sc, false))
	}
	if o.Labs != nil {
		for _, sc := range o.Labs.Scenarios {
			s.catalog = append(s.catalog, s.entry(&sc, true))
		}
	}
	t, err := s.loadTemplates()
	if err != nil {
		return nil, err
	}
	s.tmpl = t
	s.upgrader = websocket.Upgrader{
		ReadBufferSize: 4096, WriteBufferSize: 16384,
		EnableCompression: false,
		CheckOrigin:       s.checkOrigin,
		HandshakeTimeout:  10 * time.Second,
	}
	go s.janitor()
	return s, nil
}

// entry describes a scenario for the page's picker.
func (s *Server) entry(sc *scenario.Scenario, lab bool) catalogEntry {
	names := make([]string, len(sc.Clients))
	for i, c := range sc.Clients {
		names[i] = c.Name
	}
	return catalogEntry{ID: sc.ID, Title: sc.Title, Lesson: sc.Lesson, Expect: nonNil(s.expect(sc)), Clients: names, Lab: lab}
}

// find looks a scenario up in the catalog, then in the labs.
func (s *Server) find(id string) (*scenario.Scenario, bool) {
	if sc, ok := s.opts.Catalog.Find(id); ok {
		return sc, true
	}
	if s.opts.Labs != nil {
		return s.opts.Labs.Find(id)
	}
	return nil, false
}

func (s *Server) loadTemplates() (*template.Template, error) {
	t, err := template.ParseFS(s.opts.Templates, "*.html")
	if err != nil {
		return nil, fmt.Errorf("server: templates: %w", err)
	}
	return t, nil
}

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

// checkOrigin allows the page's own host, the listed origins, and clients
// that send no Origin (not browsers).
func (s *Server) checkOrigin(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil {
		return false
	}
	if strings.EqualFold(u.Host, r.Host) {
		return true
	}
	for _, a := range s.opts.AllowOrigins {
		if a == "*" || strings.EqualFold(strings.TrimSuffix(a, "/"), origin) || strings.EqualFold(a, u.Host) {
			return true
		}
	}
	return false
}

func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	ws, err := s.upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // the upgrader has answered
	}
	c := newConn(ws, s.limits.SendQueue)
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		c.close(websocket.CloseGoingAway, "the server is shutting down")
		c.writer()
		return
	}
	s.conns[c] = true
	s.mu.Unlock()
	go c.writer()
	s.read(c)
	s.mu.Lock()
	delete(s.conns, c)
	s.mu.Unlock()
}

// read is the connection's one reading goroutine.
func (s *Server) read(c *conn) {
	var sess *session
	defer func() {
		c.close(websocket.CloseNormalClosure, "")
		if sess != nil {
			sess.open.Add(-1)
			sess.touch()
			sess.do(func() { sess.detach(c) })
		}
	}()
	c.ws.SetReadLimit(readLimit)
	_ = c.ws.SetReadDeadline(time.Now().Add(pongWait))
	c.ws.SetPongHandler(func(string) error { return c.ws.SetReadDeadline(time.Now().Add(pongWait)) })
	for {
		_, data, err := c.ws.ReadMessage()
		if err != nil {
			if websocket.IsCloseError(err, websocket.CloseMessageTooBig) || strings.Contains(err.Error(), "read limit") {
				c.close(websocket.CloseMessageTooBig, fmt.Sprintf("message over %d bytes", readLimit))
			}
			return
		}
		_ = c.ws.SetReadDeadline(time.Now().Add(pongWait))
		var req Request
		if err := json.Unmarshal(data, &req); err != nil {
			c.enqueue(errorMessage(idOf(data), coded("bad-message", map[string]any{"detail": err.Error()}, "bad message: %s", err.Error())))
			continue
		}
		if err := validate(&req, s.limits); err != nil {
			c.enqueue(errorMessage(req.ID, err))
			continue
		}
		if req.Op == "hello" {
			next, err := s.open(req.Session)
			if err != nil {
				c.enqueue(errorMessage(req.ID, err))
				continue
			}
			if sess != nil && sess != next {
				sess.open.Add(-1)
				old := sess
				old.do(func() { old.detach(c) })
			}
			if sess != next {
				next.open.Add(1)
			}
			sess = next
			if !sess.do(func() { sess.attach(c) }) {
				c.enqueue(errorMessage(req.ID, coded("session-busy", nil, "the session is busy or gone: reload the page")))
			}
			continue
		}
		if sess == nil {
			c.enqueue(errorMessage(req.ID, coded("hello-first", nil, "send hello first (see docs/protocol.md)")))
			continue
		}
		sess.touch()
		r := req
		if !sess.do(func() { sess.handle(c, &r) }) {
			c.enqueue(errorMessage(req.ID, coded("busy", nil, "busy: too many requests in flight, try again")))
		}
	}
}

// open finds the session with id, or makes a new one.
func (s *Server) open(id string) (*session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, coded("shutting-down", nil, "the server is shutting down")
	}
	if sess, ok := s.sessions[id]; ok && id != "" {
		sess.touch()
		return sess, nil
	}
	if len(s.sessions) >= s.limits.MaxSessions {
		s.evictLocked(0)
	}
	if len(s.sessions) >= s.limits.MaxSessions {
		return nil, coded("sessions-cap", map[string]any{"max": s.limits.MaxSessions}, "too many sessions (the cap is %d): try again later", s.limits.MaxSessions)
	}
	var b [16]byte
	_, _ = rand.Read(b[:])
	sess := newSession(s, hex.EncodeToString(b[:]))
	s.sessions[sess.id] = sess
	return sess, nil
}

// evictLocked stops the sessions no browser has used for idle.
func (s *Server) evictLocked(idle time.Duration) {
	cut := time.Now().Add(-idle).UnixNano()
	for id, sess := range s.sessions {
		if sess.open.Load() == 0 && sess.used.Load() <= cut {
			delete(s.sessions, id)
			go sess.stop()
		}
	}
}

func (s *Server) janitor() {
	t := time.NewTicker(min(s.limits.Idle/4, time.Minute))
	defer t.Stop()
	for {
		select {
		case <-t.C:
			s.mu.Lock()
			s.evictLocked(s.limits.Idle)
			s.mu.Unlock()
		case <-s.stopJan:
			return
		}
	}
}

// forget removes a session that ended by itself (a recovered panic).
func (s *Server) forget(sess *session) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sessions[sess.id] == sess {
		delete(s.sessions, sess.id)
	}
}

// Sessions counts the live sessions.
func (s *Server) Sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sessions)
}

// Close closes every socket with 1001 (going away), waits until each has
// sent its close frame (at most shutdownWait in all), and stops every
// session. Call it before http.Server.Shutdown, which does not know about
// hijacked connections, and let the process exit only after it returns.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	close(s.stopJan)
	conns := make([]*conn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	sessions := make([]*session, 0, len(s.sessions))
	for _, sess := range s.sessions {
		sessions = append(sessions, sess)
	}
	s.sessions = map[string]*session{}
	s.mu.Unlock()
	for _, c := range conns {
		c.close(websocket.CloseGoingAway, "the server is shutting down")
	}
	deadline := time.NewTimer(shutdownWait)
	defer deadline.Stop()
wait:
	for _, c := range conns {
		select {
		case <-c.finished:
		case <-deadline.C:
			s.opts.Logf("shutdown: %d sockets had not said goodbye after %s", s.unfinished(conns), shutdownWait)
			break wait
		}
	}
	for _, sess := range sessions {
		sess.stop()
	}
}

// shutdownWait bounds how long Close waits for the sockets' close frames:
// a close frame's own deadline, and a little more.
const shutdownWait = closeWait + time.Second

// unfinished counts the connections whose writer is still running.
func (s *Server) unfinished(conns []*conn) int {
	n := 0
	for _, c := range conns {
		select {
		case <-c.finished:
		default:
			n++
		}
	}
	return n
}

// expect is the verdicts a scenario must end with where this server runs
// it: a lesson's real_redis verdicts on real servers.
func (s *Server) expect(sc *scenario.Scenario) []string {
	if s.opts.Servers != nil {
		return sc.ExpectOnRealRedis()
	}
	return sc.Expect
}

// realWhy is a lesson's explanation of how it ends on real servers, when
// runs are placed on them and it says one.
func (s *Server) realWhy(sc *scenario.Scenario) *sim.Text {
	if s.opts.Servers == nil || sc.RealRedis == nil {
		return nil
	}
	return &sc.RealRedis.Why
}
