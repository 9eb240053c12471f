package server

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/etcd"
	"github.com/lockstep/lockstep/internal/live"
	"github.com/lockstep/lockstep/internal/scenario"
)

// liveServer runs the app with the etcd lessons on svc.
func liveServer(t *testing.T, svc *etcd.Service) string {
	_, url := liveApp(t, svc)
	return url
}

// closer is a live service that stops its server (etcd's, ZooKeeper's).
type closer interface {
	live.Service
	Close()
}

// liveApp is liveServer with the app itself, on one service or more.
func liveApp(t *testing.T, svcs ...closer) (*Server, string) {
	t.Helper()
	f, err := scenario.ParseBuiltin("scenarios.yaml", lockstep.Scenarios)
	if err != nil {
		t.Fatal(err)
	}
	services := make([]live.Service, len(svcs))
	for i, svc := range svcs {
		services[i] = svc
	}
	app, err := New(Options{Catalog: f, Live: services,
		Static:    fstest.MapFS{"app.js": {Data: []byte("//")}},
		Templates: fstest.MapFS{"index.html": {Data: []byte(`<p></p>`)}}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(app.Handler())
	t.Cleanup(func() {
		app.Close()
		ts.Close()
		for _, svc := range svcs {
			svc.Close()
		}
	})
	return app, ts.URL
}

// follow reads state messages, keeping the events as the page does (the
// first From, then the ones sent), until done says the state is the one
// awaited; it gives the events and that state's snapshot.
func (c *client) follow(held []wireEvent, within time.Duration, done func(*Snapshot) bool) ([]wireEvent, *Snapshot) {
	c.t.Helper()
	_ = c.ws.SetReadDeadline(time.Now().Add(within))
	for {
		var m Message
		if err := c.ws.ReadJSON(&m); err != nil {
			c.t.Fatalf("waiting for the run: %v", err)
		}
		if m.Type == "error" {
			c.t.Fatalf("error: %s (%s)", m.Code, m.Error)
		}
		if m.Type != "state" {
			continue
		}
		held = append(held[:*m.From], m.Events...)
		if done(m.Snap) {
			return held, m.Snap
		}
	}
}

// An etcd lesson, opened from the page's list, runs on the embedded etcd
// started when its first move asks for it, and streams its log over the
// same protocol as it happens: in real time (A's pause of 3 s takes 3 s
// of the wall clock), with the lock's key carrying its lease's end as the
// client last heard (the TTL bar), and the lesson's verdict at the end.
func TestAnEtcdLessonRunsLiveInTheSession(t *testing.T) {
	svc, err := etcd.NewService("")
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := dial(t, liveServer(t, svc), "")
	if err != nil {
		t.Fatal(err)
	}
	w := c.hello("")
	i := slices.IndexFunc(w.Catalog, func(e catalogEntry) bool { return e.ID == "etcd-guarded-write" })
	if i < 0 || w.Catalog[i].Live != "etcd" || w.Catalog[i].Title.Zh == "" {
		t.Fatalf("the catalog should list etcd-guarded-write as an etcd lesson in both languages, got %+v", w.Catalog)
	}
	c.send(map[string]any{"op": "load", "scenario": "etcd-guarded-write"})
	m := c.next("state")
	if m.Snap.Live == nil || m.Snap.Live.Service != "etcd" || m.Snap.Live.Server != "" || len(m.Events) != 0 || m.Snap.Ended {
		t.Fatalf("a loaded etcd lesson should say it is live and not yet started, got %+v", m.Snap)
	}
	if svc.Startup() != 0 {
		t.Fatal("the embedded etcd started before any run asked for it")
	}
	start := time.Now()
	c.send(map[string]any{"op": "seek", "step": 50000}) // to the end, as the page's End does (the step cap)
	evs, snap := c.follow(nil, 30*time.Second, func(s *Snapshot) bool { return s.Ended })
	took := time.Since(start)
	t.Logf("embedded etcd ready in %s; the run took %s, %d events", svc.Startup(), took.Round(time.Millisecond), len(evs))
	if !strings.HasPrefix(snap.Live.Server, "embedded etcd v3.7.3 at 127.0.0.1:") {
		t.Errorf("the snapshot should say where the run is, got %q", snap.Live.Server)
	}
	if !slices.Equal(snap.Verdicts, []string{"safe"}) || snap.Step != len(evs) || snap.Events != len(evs) {
		t.Errorf("the run should end safe with its cursor at its last event, got %v at %d of %d", snap.Verdicts, snap.Step, len(evs))
	}
	if took < 3*time.Second || time.Duration(evs[len(evs)-1].T) < 3*time.Second {
		t.Errorf("A's pause of 3s should take 3s of the wall clock: the run took %s, its log %s", took, time.Duration(evs[len(evs)-1].T))
	}
	// A's key heads the lock while A is frozen: its lease is no longer
	// renewed (a keep-alive reply may renew it before A freezes), so a
	// later state of the lock shows less of it left, to the same end (the
	// bar tapers).
	var held []wireKey
	refused := false
	for _, e := range evs {
		for _, k := range e.Keys {
			if k.Key == etcd.LockName && k.Owner == "A" {
				held = append(held, k)
			}
		}
		refused = refused || (e.Kind == "mark" && e.Name == "write-rejected" && e.Client == "A")
	}
	tapers := false
	for i, k := range held {
		if k.Expire <= 0 || k.TTL > 1000 {
			t.Errorf("the lock held by A should carry a lease end and at most 1s left, got %+v", k)
		}
		for _, later := range held[i+1:] {
			tapers = tapers || (later.Expire == k.Expire && later.TTL < k.TTL)
		}
	}
	if !tapers {
		t.Errorf("the lock held by frozen A should show its lease running out to one end, got %+v", held)
	}
	if !refused {
		t.Error("A's guarded write should be refused")
	}
	// The log is recorded: a step back shows its prefix, without a replay.
	c.send(map[string]any{"op": "seek", "step": 10})
	if m := c.next("state"); m.Snap.Step != 10 || *m.From != 10 || len(m.Events) != 0 || m.Snap.Ended {
		t.Errorf("seek 10 should show the first 10 events, got step %d from %d (+%d)", m.Snap.Step, *m.From, len(m.Events))
	}
	// What a live run cannot do, it says, in a code the page words.
	c.send(map[string]any{"op": "explore", "strategy": "random"})
	if m := c.next("error"); m.Code != "live-op" || m.Args["service"] != "etcd" {
		t.Errorf("a search on a live run should be refused with live-op, got %s (%s)", m.Code, m.Error)
	}
	// A built-in lesson loaded after it runs on the engine again.
	c.send(map[string]any{"op": "load", "scenario": "no-lock-oversell"})
	if m := c.next("state"); m.Snap.Live != nil || m.Snap.Scenario != "no-lock-oversell" {
		t.Errorf("a catalog lesson after the etcd one should not be live, got %+v", m.Snap.Live)
	}
}

// When the embedded etcd cannot start (here: its temporary directory
// cannot be made), the first move says so, plainly, and the session goes
// on: the next move tries again.
func TestAnEtcdServerThatCannotStartIsSaid(t *testing.T) {
	t.Setenv("TMPDIR", "/nonexistent/lockstep-test")
	svc, err := etcd.NewService("embedded")
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := dial(t, liveServer(t, svc), "")
	if err != nil {
		t.Fatal(err)
	}
	c.hello("")
	c.send(map[string]any{"op": "load", "scenario": "etcd-plain-put"})
	c.next("state")
	c.send(map[string]any{"op": "step"})
	m := c.next("error")
	if m.Code != "live-unavailable" || m.Args["service"] != "etcd" || !strings.Contains(m.Error, "/nonexistent/lockstep-test") {
		t.Fatalf("expected live-unavailable naming the cause, got %s: %s", m.Code, m.Error)
	}
	c.send(map[string]any{"op": "step"})
	if m := c.next("error"); m.Code != "live-unavailable" {
		t.Errorf("the next move should try again and say so again, got %s", m.Code)
	}
}

// An external etcd that does not answer (nothing listens at its port):
// the run says so within seconds, with the address, and has no verdict.
func TestAnEtcdServerThatDoesNotAnswerIsSaid(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close() // a port nothing listens at
	svc, err := etcd.NewService("http://" + addr)
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := dial(t, liveServer(t, svc), "")
	if err != nil {
		t.Fatal(err)
	}
	c.hello("")
	c.send(map[string]any{"op": "load", "scenario": "etcd-two-workers"})
	c.next("state")
	start := time.Now()
	c.send(map[string]any{"op": "step"})
	m := c.next("error")
	if m.Code != "live-failed" || !strings.Contains(m.Error, addr) || !strings.Contains(m.Error, "did not answer") {
		t.Fatalf("expected live-failed naming %s, got %s: %s", addr, m.Code, m.Error)
	}
	if d := time.Since(start); d > 9*time.Second {
		t.Errorf("the page was told after %s", d)
	}
	if s := c.next("state"); len(s.Snap.Verdicts) != 0 || !s.Snap.Ended {
		t.Errorf("a run that could not play should end without a verdict, got %v (ended %v)", s.Snap.Verdicts, s.Snap.Ended)
	}
}

// The server holds a bounded number of live runs at once: one more is
// refused (live-busy) while they run, and taken once one has ended.
func TestLiveRunsAreCapped(t *testing.T) {
	svc, err := etcd.NewService("")
	if err != nil {
		t.Fatal(err)
	}
	app, url := liveApp(t, svc)
	app.liveRuns = make(chan struct{}, 1) // a cap of one
	var cs [2]*client
	for i := range cs {
		if cs[i], _, err = dial(t, url, ""); err != nil {
			t.Fatal(err)
		}
		cs[i].hello("")
		cs[i].send(map[string]any{"op": "load", "scenario": "etcd-two-workers"})
		cs[i].next("state")
	}
	cs[0].send(map[string]any{"op": "seek", "step": 50000})
	cs[0].next("state")
	cs[1].send(map[string]any{"op": "step"})
	if m := cs[1].next("error"); m.Code != "live-busy" {
		t.Fatalf("a second live run over the cap should be refused with live-busy, got %s (%s)", m.Code, m.Error)
	}
	cs[0].follow(nil, 30*time.Second, func(s *Snapshot) bool { return s.Ended })
	cs[1].send(map[string]any{"op": "step"})
	if _, snap := cs[1].follow(nil, 30*time.Second, func(s *Snapshot) bool { return s.Step > 0 }); snap.Live.Server == "" {
		t.Error("once the first run ended, the second should run")
	}
}

// An etcd lesson shows the lock's code: each client's file is the
// Mutex's own (served as compiled in, under /source/etcd/), the header
// names its module, and the Mutex's requests carry their line in it.
func TestAnEtcdLessonShowsTheMutexsCode(t *testing.T) {
	svc, err := etcd.NewService("")
	if err != nil {
		t.Fatal(err)
	}
	url := liveServer(t, svc)
	c, _, err := dial(t, url, "")
	if err != nil {
		t.Fatal(err)
	}
	c.hello("")
	c.send(map[string]any{"op": "load", "scenario": "etcd-two-workers"})
	m := c.next("state")
	if m.Snap.Code["A"] != "etcd/mutex.go" || m.Snap.Code["B"] != "etcd/mutex.go" || m.Snap.Libs["etcd"].Module != "go.etcd.io/etcd/client/v3" {
		t.Fatalf("the snapshot should name the Mutex's file and module, got code %v libs %v", m.Snap.Code, m.Snap.Libs)
	}
	resp, err := http.Get(url + "/source/etcd/mutex.go")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "func (m *Mutex) Lock(ctx context.Context) error {") {
		t.Fatalf("/source/etcd/mutex.go: %d, want the Mutex's source", resp.StatusCode)
	}
	c.send(map[string]any{"op": "seek", "step": 50000})
	evs, _ := c.follow(nil, 30*time.Second, func(s *Snapshot) bool { return s.Ended })
	sited := 0
	for _, e := range evs {
		if e.Kind == "send" && e.Src != nil && e.Src.File == "etcd/mutex.go" && e.Src.Line > 0 {
			sited++
		}
	}
	if sited == 0 {
		t.Error("no request of the Mutex carried its line in etcd/mutex.go")
	}
}
