package server

import (
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gorilla/websocket"

	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/scenario"
)

// newListeningServer is newTestServer with the server's own listener
// (Listen), as serve runs it.
func newListeningServer(t *testing.T, l Limits) (*Server, string) {
	t.Helper()
	f, err := scenario.ParseBuiltin("scenarios.yaml", lockstep.Scenarios)
	if err != nil {
		t.Fatal(err)
	}
	app, err := New(Options{Catalog: f, Limits: l,
		Static:    fstest.MapFS{"app.js": {Data: []byte("//")}},
		Templates: fstest.MapFS{"index.html": {Data: []byte(`<p>{{len .Catalog}} scenarios</p>`)}}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(app.Handler())
	ts.Listener = app.Listen(ts.Listener)
	ts.Start()
	t.Cleanup(func() { app.Close(); ts.Close() })
	return app, ts.URL
}

// from dials the server from a loopback address of its own (127.0.0.N),
// as another machine would.
func from(ip string) *net.Dialer {
	return &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
}

// dialFrom opens a socket from ip; a refused socket still answers with
// its error before it closes.
func dialFrom(t *testing.T, url, ip string) *client {
	t.Helper()
	d := websocket.Dialer{NetDial: from(ip).Dial, HandshakeTimeout: 5 * time.Second}
	ws, _, err := d.Dial("ws"+strings.TrimPrefix(url, "http")+"/ws", nil)
	if err != nil {
		t.Fatalf("dial from %s: %v", ip, err)
	}
	t.Cleanup(func() { ws.Close() })
	return &client{t: t, ws: ws}
}

// refused reads a refused socket's answer: its error, then its close code.
func refused(t *testing.T, c *client) (Message, int) {
	t.Helper()
	m := c.next("error")
	_, _, err := c.ws.ReadMessage()
	var ce *websocket.CloseError
	if !asClose(err, &ce) {
		t.Fatalf("after the refusal: %v, want a close frame", err)
	}
	return m, ce.Code
}

func asClose(err error, ce **websocket.CloseError) bool {
	return errors.As(err, ce)
}

// One address may hold MaxSocketsPerAddress sockets: the next is answered
// with an error with its code and closed with 1013 (try again later);
// another address still gets in, and a closed socket makes room.
func TestSocketsPerAddress(t *testing.T) {
	_, url := newListeningServer(t, Limits{MaxSocketsPerAddress: 3})
	var mine []*client
	for i := 0; i < 3; i++ {
		c := dialFrom(t, url, "127.0.0.2")
		c.hello("")
		mine = append(mine, c)
	}
	m, code := refused(t, dialFrom(t, url, "127.0.0.2"))
	if m.Code != "address-sockets" || m.Args["max"] != float64(3) || code != websocket.CloseTryAgainLater {
		t.Fatalf("the 4th socket of one address: got %s %v, close %d; want address-sockets {max 3}, close 1013", m.Code, m.Args, code)
	}
	dialFrom(t, url, "127.0.0.3").hello("") // another address is not held back
	mine[0].ws.Close()
	waitFor(t, func() bool {
		c := dialFrom(t, url, "127.0.0.2")
		c.send(map[string]any{"op": "hello"})
		_ = c.ws.SetReadDeadline(time.Now().Add(5 * time.Second))
		var got Message
		return c.ws.ReadJSON(&got) == nil && got.Type == "welcome"
	}, "a closed socket to make room for its address")
}

// One address may make MaxSessionsPerAddress sessions: at its cap its own
// longest idle session without a socket makes room (never another
// address's, never one with a tab open); with none, a clear error.
func TestSessionsPerAddress(t *testing.T) {
	app, url := newListeningServer(t, Limits{MaxSessionsPerAddress: 2})
	other := dialFrom(t, url, "127.0.0.3")
	otherID := other.hello("").Session
	other.ws.Close() // idle, and older than any below: not this address's to evict

	a := dialFrom(t, url, "127.0.0.2")
	aID := a.hello("").Session
	b := dialFrom(t, url, "127.0.0.2")
	b.hello("")
	if m := dialFrom(t, url, "127.0.0.2"); true {
		m.send(map[string]any{"op": "hello"})
		if e := m.next("error"); e.Code != "address-sessions" || e.Args["max"] != float64(2) {
			t.Fatalf("a 3rd session with both tabs open: got %s %v, want address-sessions {max 2}", e.Code, e.Args)
		}
	}
	a.ws.Close()
	waitFor(t, func() bool { return app.idleSessions() == 2 }, "the closed tab's session to be idle")
	c := dialFrom(t, url, "127.0.0.2")
	if w := c.hello(""); w.Session == aID {
		t.Fatalf("a new session got the evicted one's id")
	}
	if n := app.Sessions(); n != 3 {
		t.Errorf("%d sessions, want 3: the other address's, b's and the new one", n)
	}
	if w := dialFrom(t, url, "127.0.0.3").hello(otherID); w.Session != otherID {
		t.Errorf("the other address's idle session was evicted for this address's new one")
	}
}

// At the server's cap of sessions, a new hello evicts the one session
// without a socket that has been idle longest, not all of them.
func TestTheCapEvictsTheLongestIdleOnly(t *testing.T) {
	app, url := newListeningServer(t, Limits{MaxSessions: 5})
	var ids []string
	for i := 0; i < 5; i++ {
		c := dialFrom(t, url, "127.0.0.2")
		ids = append(ids, c.hello("").Session)
		c.ws.Close()
		waitFor(t, func() bool { return app.idleSessions() == i+1 }, "the session to be idle")
		time.Sleep(2 * time.Millisecond) // distinct last-used times
	}
	dialFrom(t, url, "127.0.0.4").hello("")
	if n := app.Sessions(); n != 5 {
		t.Fatalf("%d sessions after a hello at the cap, want 5 (one evicted)", n)
	}
	for _, id := range ids[1:] { // resumed, not made: no eviction
		if w := dialFrom(t, url, "127.0.0.2").hello(id); w.Session != id {
			t.Errorf("session %s was evicted; only the longest idle one should go", id)
		}
	}
	// The longest idle one is gone: asking for it makes a new session,
	// and with every other session's tab open now, none can make room.
	c := dialFrom(t, url, "127.0.0.2")
	c.send(map[string]any{"op": "hello", "session": ids[0]})
	if m := c.read(); m.Type != "error" || m.Code != "sessions-cap" {
		t.Errorf("the longest idle session %s: got %s %s, want it gone (a new session, refused at the cap)", ids[0], m.Type, m.Code)
	}
}

// idleSessions counts the sessions with no socket.
func (s *Server) idleSessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, sess := range s.sessions {
		if sess.open.Load() == 0 {
			n++
		}
	}
	return n
}

// One address may run MaxSearchesPerAddress searches at once, whatever
// its sessions: the next is refused with its code.
func TestSearchesPerAddress(t *testing.T) {
	_, url := newListeningServer(t, Limits{})
	slow := `scenarios:
  - id: slow
    title: {en: two clients retrying every nanosecond}
    horizon: 10m
    clients:
      - {name: A, algorithm: lua-compare-delete, params: {ttl: 3s, retry: 1ns}, work: 1s}
      - {name: B, algorithm: lua-compare-delete, params: {ttl: 3s, retry: 1ns}, work: 1s}
    expect: [safe]
`
	var cs []*client
	for i := 0; i < 2; i++ {
		c := dialFrom(t, url, "127.0.0.2")
		c.hello("")
		c.send(map[string]any{"op": "load", "yaml": slow})
		c.next("state")
		cs = append(cs, c)
	}
	cs[0].send(map[string]any{"op": "explore", "budget": "pause:1s"})
	cs[0].next("explore-started")
	cs[1].send(map[string]any{"op": "explore", "budget": "pause:1s"})
	if e := cs[1].next("error"); e.Code != "address-searches" || e.Args["max"] != float64(1) {
		t.Fatalf("a second search from one address: got %s %v, want address-searches {max 1}", e.Code, e.Args)
	}
	cs[0].send(map[string]any{"op": "explore-cancel"})
	cs[0].next("explore-done")
	waitFor(t, func() bool {
		cs[1].send(map[string]any{"op": "explore", "budget": "pause:1s"})
		for {
			var m Message
			_ = cs[1].ws.SetReadDeadline(time.Now().Add(5 * time.Second))
			if cs[1].ws.ReadJSON(&m) != nil {
				return false
			}
			switch m.Type {
			case "explore-started":
				return true
			case "error":
				return false
			}
		}
	}, "the cancelled search to give its place back")
	cs[1].send(map[string]any{"op": "explore-cancel"})
	cs[1].next("explore-done")
}

// With 64 files allowed, the server keeps a reserve: WebSockets stop at
// 48 with a clear error, leaving the rest to plain HTTP; one address
// holds at most its sockets and 16 more connections (the rest are closed
// as they are accepted); /healthz answers throughout.
func TestAFileReserveKeepsHealthzReachable(t *testing.T) {
	_, url := newListeningServer(t, Limits{MaxFiles: 64, MaxSocketsPerAddress: 8})
	host := strings.TrimPrefix(url, "http://")
	healthy := func(when string) {
		t.Helper()
		res, err := http.Get(url + "/healthz")
		if err != nil {
			t.Fatalf("%s: /healthz: %v", when, err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if !strings.HasPrefix(string(b), "ok\n") {
			t.Fatalf("%s: /healthz = %q", when, b)
		}
	}
	// One address opens 40 bare connections: 24 are held (its 8 sockets
	// and 16), the rest are closed as they are accepted.
	var raw []net.Conn
	for i := 0; i < 40; i++ {
		c, err := from("127.0.0.2").Dial("tcp", host)
		if err != nil {
			t.Fatal(err)
		}
		raw = append(raw, c)
	}
	closed := 0
	for _, c := range raw {
		_ = c.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
		if _, err := c.Read(make([]byte, 1)); errors.Is(err, io.EOF) {
			closed++
		}
	}
	if closed != 16 {
		t.Errorf("%d of 40 bare connections from one address closed at accept, want 16 (24 held)", closed)
	}
	healthy("one address holding all it may")
	for _, c := range raw {
		c.Close()
	}
	// Sockets from many addresses: 48 are held, then a clear error.
	sockets := 0
	for i := 0; sockets < 60; i++ {
		c := dialFrom(t, url, "127.0.1."+strconv.Itoa(i/4+1))
		c.send(map[string]any{"op": "hello"})
		m := c.read()
		if m.Type == "error" {
			if m.Code != "server-sockets" || m.Args["max"] != float64(48) {
				t.Fatalf("socket %d: got %s %v, want server-sockets {max 48}", sockets+1, m.Code, m.Args)
			}
			break
		}
		sockets++
	}
	if sockets != 48 {
		t.Errorf("%d sockets held, want 48 (64 files less a reserve of 16)", sockets)
	}
	healthy("48 sockets held")
}

// read is the next message, whatever its type.
func (c *client) read() Message {
	c.t.Helper()
	_ = c.ws.SetReadDeadline(time.Now().Add(10 * time.Second))
	var m Message
	if err := c.ws.ReadJSON(&m); err != nil {
		c.t.Fatalf("reading: %v", err)
	}
	c.keep(&m)
	return m
}

// waitFor polls cond for up to 5 seconds.
func waitFor(t *testing.T, cond func() bool, what string) {
	t.Helper()
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}
