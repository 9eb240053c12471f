package server

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html/template"
	"io/fs"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"

	"github.com/lockstep/lockstep/internal/class"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/live"
	"github.com/lockstep/lockstep/internal/lock"
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
	// Live are the coordination services whose lessons run in real time
	// on a live server (etcd): the page lists their lessons after the
	// catalog's, and a session runs one through its service (live.go).
	Live []live.Service
	// ReportLocks and ReportColumns limit the report card ("Which
	// lock?") to these locks and columns (nil: all of them): a test's
	// smaller card.
	ReportLocks, ReportColumns []string
	// SetupLocks and SetupColumns limit the card for a setup ("Check my
	// lock") to the user's locks and these catalog locks, and to these
	// columns (nil: all of them); SetupTime shortens its time budget
	// (0: report.SetupLimit): a test's smaller card.
	SetupLocks, SetupColumns []string
	SetupTime                time.Duration
	// Card is the whole report card computed for this build
	// (docs/choosing-a-lock.json, as report.Decode reads it): "Which
	// lock?" answers with it at once. Nil, unreadable, or a card limited
	// by ReportLocks or ReportColumns: the card is computed when a page
	// first asks for it.
	Card []byte
	// TrustedProxies are the addresses of proxies (a load balancer) whose
	// X-Forwarded-For names the client: a request through one counts
	// against the address it forwards (Limits, per address).
	TrustedProxies []netip.Prefix
	// MeasureMemory counts in the server's memory budget (Limits.MaxMemory),
	// beside the sessions' estimate, the process's live memory as the
	// runtime measures it above what it held when the server was made,
	// whichever is more (meter.go). Meant for a server alone in its process
	// (visualizer serve): other work in the process would count too.
	MeasureMemory bool
	// Logf reports connection problems; nil discards them.
	Logf func(format string, args ...any)
}

// Server is the browser app: routes, sockets and sessions.
type Server struct {
	opts     Options
	limits   Limits
	catalog  []catalogEntry
	lives    map[string]liveLesson // the services' lessons by id (live.go)
	liveRuns chan struct{}         // a slot per live run at once (maxLiveRuns)
	upgrader websocket.Upgrader
	inline   string // the hash of the script written into the page (early.js), for its Content-Security-Policy
	tmpl     *template.Template

	mu       sync.Mutex
	sessions map[string]*session
	conns    map[*conn]bool
	addrs    map[string]*addrUse // what each client address holds (clients.go)
	sockets  int                 // WebSockets counted by takeSocket
	closed   bool
	stopJan  chan struct{}

	cpu   chan struct{} // engine slots: a slice of engine work holds one
	bulk  chan struct{} // bulk slots: a slice of long work holds one too (budget.go)
	total atomic.Int64  // the estimated memory of every session's world, bytes
	meter meter         // the measured memory (Options.MeasureMemory)

	chapters chapterBook  // the built-in lessons' chapters (teach.go)
	card     cardJob      // the report card, computed once (report.go)
	classes  *class.Table // the live classes by join code (internal/class)
	misses   limiter      // failed joins and teacher claims, by address (class.Guard)

	static *assets // the page's static files, versioned and gzipped (nil in Dev: read from disk)
	source *assets // the lock code the code view shows
	page   *asset  // index.html, rendered once (nil in Dev)

	slice               time.Duration // the longest a slice of steps runs (sliceTime; a test shortens it)
	stepTime, otherTime latency       // the server's time over steps and over other requests
	admitting           sync.Mutex    // one load admitted at a time (admit)
}

// took records how long the server took over a request.
func (s *Server) took(op string, d time.Duration) {
	if op == "step" {
		s.stepTime.observe(d)
	} else {
		s.otherTime.observe(d)
	}
}

// New makes a server and starts its idle-session janitor; Close stops it.
func New(o Options) (*Server, error) {
	if o.Catalog == nil || o.Static == nil || o.Templates == nil {
		return nil, fmt.Errorf("server: Catalog, Static and Templates are required")
	}
	s := &Server{opts: o, limits: o.Limits.withDefaults(), sessions: map[string]*session{},
		conns: map[*conn]bool{}, addrs: map[string]*addrUse{}, stopJan: make(chan struct{}), cpu: make(chan struct{}, engineSlots()), bulk: make(chan struct{}, bulkSlots()), slice: sliceTime}
	s.classes = class.NewTable(class.Limits{MaxRooms: s.limits.MaxRooms, MaxRoomsPerAddress: s.limits.MaxRoomsPerAddress,
		MaxClassSize: s.limits.MaxClassSize, ClassGrace: s.limits.ClassGrace, EmptyClassGrace: s.limits.EmptyClassGrace},
		classGuard{&s.misses})
	if s.opts.Logf == nil {
		s.opts.Logf = func(string, ...any) {}
	}
	if o.MeasureMemory {
		s.meter.start()
	}
	for _, sc := range o.Catalog.Scenarios {
		s.catalog = append(s.catalog, s.entry(&sc, false))
	}
	s.liveRuns = make(chan struct{}, maxLiveRuns)
	if err := s.liveLessons(o.Live); err != nil {
		return nil, err
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
	if s.source, err = loadAssets(lock.Source()); err != nil {
		return nil, fmt.Errorf("server: the lock code: %w", err)
	}
	for _, svc := range o.Live {
		if err := s.liveCode(svc); err != nil {
			return nil, err
		}
	}
	if b, err := fs.ReadFile(o.Static, "early.js"); err == nil {
		if bytes.Contains(bytes.ToLower(b), []byte("</script")) {
			return nil, fmt.Errorf("server: early.js is written into the page, so it may not hold </script")
		}
		s.inline = scriptHash(b)
	}
	if !o.Dev {
		if s.static, err = loadAssets(o.Static); err != nil {
			return nil, fmt.Errorf("server: static files: %w", err)
		}
		var b bytes.Buffer
		if err := t.ExecuteTemplate(&b, "index.html", s.pageData()); err != nil {
			return nil, fmt.Errorf("server: index.html: %w", err)
		}
		sum := sha256.Sum256(b.Bytes())
		s.page = &asset{body: b.Bytes(), gz: gzipped(b.Bytes()), ctype: "text/html; charset=utf-8", etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
	}
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
