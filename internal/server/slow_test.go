package server

import (
	"errors"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gorilla/websocket"

	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/scenario"
)

// flooded opens a session on a server whose sockets queue 8 messages, then
// stops reading and asks for welcomes (each with the catalog) until the
// server drops the socket as too slow. It returns the browser and the
// server's side of its socket, dropped, and the time it was dropped.
func flooded(t *testing.T) (*client, *conn, time.Time) {
	t.Helper()
	app, url := newTestServer(t, Limits{SendQueue: 8})
	c, _, err := dial(t, url, "")
	if err != nil {
		t.Fatal(err)
	}
	session := c.hello("").Session
	app.mu.Lock()
	var sc *conn
	for k := range app.conns {
		sc = k
	}
	app.mu.Unlock()
	if sc == nil {
		t.Fatal("expected the server to hold the socket")
	}
	// The browser stops reading here; it goes on asking. Its socket's
	// buffers fill, the server's writer blocks, its queue fills.
	start := time.Now()
	for {
		select {
		case <-sc.done:
			dropped := time.Now()
			sc.mu.Lock()
			code := sc.closeCode
			sc.mu.Unlock()
			if code != websocket.ClosePolicyViolation {
				t.Fatalf("expected the socket dropped as too slow (1008), got close %d", code)
			}
			t.Logf("dropped after %v of asking", dropped.Sub(start).Round(time.Millisecond))
			return c, sc, dropped
		default:
		}
		if time.Since(start) > time.Minute {
			t.Fatal("the server never dropped a browser that stopped reading")
		}
		if err := c.ws.WriteJSON(map[string]any{"op": "hello", "session": session}); err != nil {
			t.Fatalf("asking: %v", err)
		}
		time.Sleep(time.Millisecond)
	}
}

// readToTheEnd reads every message left and returns how many and the error
// that ended the socket.
func readToTheEnd(t *testing.T, c *client) (int, error) {
	_ = c.ws.SetReadDeadline(time.Now().Add(30 * time.Second))
	for n := 0; ; n++ {
		if _, _, err := c.ws.ReadMessage(); err != nil {
			return n, err
		}
	}
}

// A browser that reads, but too slowly for what it asks, is dropped rather
// than waited for, and told why: the close frame (1008, "too slow") comes
// after everything already on its way. Here it starts reading again a
// tenth of a second after the drop, well within the close's 2 s.
func TestASlowBrowserGetsCloseFrame1008AfterWhatItHadNotRead(t *testing.T) {
	c, _, _ := flooded(t)
	time.Sleep(100 * time.Millisecond)
	n, err := readToTheEnd(t, c)
	var ce *websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != websocket.ClosePolicyViolation || ce.Text != "too slow: the send queue is full" {
		t.Fatalf("after %d messages: expected close 1008 (too slow), got %v", n, err)
	}
	t.Logf("read %d messages, then %v", n, err)
}

// A browser that has stopped reading cannot receive a close frame: the
// frame would wait behind the bytes it has not read, in buffers that are
// full. The server does not wait for it: its writer is done within the
// close's 2 s (closeWait; it used to stay blocked in its write for the
// write timeout, 10 s), having closed the connection under the blocked
// write. Reading afterwards, the browser finds what was in the buffers and
// then the end of the connection, 1006 (abnormal closure) when the frame
// never went out; a frame that did fit (the queue overflowed before the
// buffers filled) says 1008, and both are a drop it reconnects from. The
// bound below is closeWait and 3 s of slack for a loaded machine: it
// fails with the writer left to its write timeout, and a test that
// measured closeWait itself would be a flaky timing test.
func TestABrowserThatStopsReadingIsDroppedWithinTheCloseWait(t *testing.T) {
	c, sc, dropped := flooded(t)
	select {
	case <-sc.finished:
	case <-time.After(closeWait + 3*time.Second):
		t.Fatalf("the writer of a dropped socket still runs %v after the drop", time.Since(dropped).Round(time.Millisecond))
	}
	took := time.Since(dropped)
	n, err := readToTheEnd(t, c)
	// A reset (the server closed with requests of the browser unread) is
	// a 1006 to a browser too.
	var ce *websocket.CloseError
	if !errors.As(err, &ce) && !errors.Is(err, syscall.ECONNRESET) || ce != nil && ce.Code != websocket.CloseAbnormalClosure && ce.Code != websocket.ClosePolicyViolation {
		t.Fatalf("after %d messages: expected the connection's end (1006, or a reset) or close 1008, got %v", n, err)
	}
	t.Logf("writer done %v after the drop; the browser read %d messages, then %v", took.Round(time.Millisecond), n, err)
}

// Shutdown closes every socket with 1001 and waits for each writer, at
// most ShutdownWait (3 s, docs/protocol.md). A browser that has stopped
// reading leaves its writer blocked in a write; that writer used to stay
// there for the write timeout (10 s), so that Close gave up on it at its
// deadline ("had not said goodbye") and the process exited under it. Now
// the close ends it within closeWait (2 s): Close returns with every writer
// done, and the browser that reads gets its 1001. The assertion is on what
// Close logs, not on a time; the time is logged.
func TestShutdownDoesNotWaitForABrowserThatStoppedReading(t *testing.T) {
	f, err := scenario.ParseBuiltin("scenarios.yaml", lockstep.Scenarios)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var logged []string
	app, err := New(Options{Catalog: f, Limits: Limits{SendQueue: 64},
		Static:    fstest.MapFS{"app.js": {Data: []byte("//")}},
		Templates: fstest.MapFS{"index.html": {Data: []byte(`<p></p>`)}},
		Logf: func(format string, a ...any) {
			mu.Lock()
			defer mu.Unlock()
			logged = append(logged, fmt.Sprintf(format, a...))
		}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(app.Handler())
	t.Cleanup(func() { app.Close(); ts.Close() })
	reading, _, err := dial(t, ts.URL, "")
	if err != nil {
		t.Fatal(err)
	}
	reading.hello("")
	reading.send(map[string]any{"op": "load", "scenario": "no-lock-oversell"})
	reading.next("state")
	app.mu.Lock()
	first := map[*conn]bool{}
	for k := range app.conns {
		first[k] = true
	}
	app.mu.Unlock()
	stopped, _, err := dial(t, ts.URL, "")
	if err != nil {
		t.Fatal(err)
	}
	session := stopped.hello("").Session
	var sc *conn
	app.mu.Lock()
	for k := range app.conns {
		if !first[k] {
			sc = k
		}
	}
	app.mu.Unlock()
	// Ask until the writer is blocked: its queue grows only then.
	for start := time.Now(); len(sc.send) < 16; {
		select {
		case <-sc.done:
			t.Fatal("dropped as too slow before the shutdown: expected a blocked writer with room in its queue")
		default:
		}
		if time.Since(start) > time.Minute {
			t.Fatal("the writer never blocked")
		}
		if err := stopped.ws.WriteJSON(map[string]any{"op": "hello", "session": session}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Millisecond)
	}
	start := time.Now()
	app.Close()
	took := time.Since(start)
	mu.Lock()
	for _, l := range logged {
		if strings.Contains(l, "shutdown:") {
			t.Errorf("Close gave up at its deadline: %s", l)
		}
	}
	mu.Unlock()
	select {
	case <-sc.finished:
	default:
		t.Error("Close returned with the blocked writer still running")
	}
	_ = reading.ws.SetReadDeadline(time.Now().Add(5 * time.Second))
	for {
		if _, _, err := reading.ws.ReadMessage(); err != nil {
			if !websocket.IsCloseError(err, websocket.CloseGoingAway) {
				t.Errorf("the browser that reads: expected close 1001, got %v", err)
			}
			break
		}
	}
	t.Logf("Close took %v with a browser that stopped reading (ShutdownWait %v)", took.Round(time.Millisecond), ShutdownWait)
}

// A hello is not refused because its session's queue is full for a moment
// (a browser dropped for flooding left it full and reconnects): it waits
// for room, and is refused only when the session ends or the wait passes.
func TestAHelloWaitsForRoomInItsSessionsQueue(t *testing.T) {
	s := &session{ops: make(chan func(), 1), quit: make(chan struct{})}
	s.ops <- func() {} // full
	got := make(chan bool, 1)
	go func() { got <- s.doWithin(func() {}, time.Minute) }()
	select {
	case <-got:
		t.Fatal("doWithin returned while the queue was full")
	case <-time.After(50 * time.Millisecond):
	}
	<-s.ops // the session takes its next request: room
	if !<-got {
		t.Error("doWithin: expected the hello queued once there was room")
	}
	if s.doWithin(func() {}, 10*time.Millisecond) {
		t.Error("doWithin: expected a refusal when the queue stays full past the wait")
	}
	close(s.quit)
	if s.doWithin(func() {}, time.Minute) {
		t.Error("doWithin: expected a refusal from an ended session")
	}
}
