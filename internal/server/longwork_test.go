package server

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// retryYAML is a run of many steps (issue 36's seeks): four clients that
// never release, retrying every millisecond. internal/loadtest's seekers
// load the same file.
var retryYAML = testdata("retry.yaml")

// testdata is a file of testdata/, read once for the package's tests.
func testdata(name string) string {
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		panic(err) // the tests' own files: missing is a broken checkout
	}
	return string(b)
}

// A state message of more than sliceSteps events (a seek's, a new tab's)
// is long work: built and encoded on a bulk slot, never off the engine's
// slots beside other sessions' steps. Issue 36: twenty sessions seeking
// 50,000 steps each built their state messages (50,000 events, megabytes
// of JSON) at once off the slots, and another session's step waited for
// the CPU behind them (p50 217 ms, max 1.26 s). The test holds the bulk
// slot, as another session's seek would, and opens a second tab on a
// session at step 2,000: before, its state (2,000 events) came at once
// while the slot was held; now it waits for the slot and comes whole
// once it is given back. A step's few events (TestAStepNeverWaitsForTheBulkSlot)
// still come on an engine slot alone.
func TestALongStateWaitsForTheBulkSlot(t *testing.T) {
	app, url := newTestServer(t, Limits{})
	app.cpu, app.bulk = make(chan struct{}, 2), make(chan struct{}, 1)
	c, _, _ := dial(t, url, "")
	id := c.hello("").Session
	c.send(map[string]any{"op": "load", "yaml": retryYAML})
	c.next("state")
	c.send(map[string]any{"op": "seek", "step": 2000})
	if m := c.next("state"); m.Snap == nil || m.Snap.Step != 2000 {
		t.Fatalf("seek 2000: got %+v", m.Snap)
	}
	app.bulk <- struct{}{} // the test holds the bulk slot
	held := true
	defer func() {
		if held {
			<-app.bulk
		}
	}()
	tab, _, _ := dial(t, url, "")
	tab.hello(id)
	states := make(chan Message, 1)
	go func() {
		defer close(states)
		for {
			var m Message
			if tab.ws.ReadJSON(&m) != nil {
				return
			}
			if m.Type == "state" {
				states <- m
				return
			}
		}
	}()
	select {
	case m := <-states:
		t.Fatalf("a state of %d events was built and sent while the test held the bulk slot: long work off the slots", len(m.Events))
	case <-time.After(300 * time.Millisecond):
	}
	<-app.bulk
	held = false
	select {
	case m, ok := <-states:
		if !ok {
			t.Fatal("the second tab's socket closed before its state")
		}
		tab.keep(&m) // its other parts (TestALongStateComesInParts)
		if m.From == nil || *m.From != 0 || len(m.Events) != m.Snap.Events || len(m.Events) <= sliceSteps {
			t.Fatalf("the second tab's state: from %v, %d events, want every one of the %d at step %d (more than %d)",
				m.From, len(m.Events), m.Snap.Events, m.Snap.Step, sliceSteps)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no state 10 s after the bulk slot was given back")
	}
}

// Close ends long work queued for the bulk slot at once (issue 36: a
// shutdown under load took 4.33 s, "sessions still releasing their worlds
// after 3s"): every session waiting for a slot to run a slice of a seek,
// or to build a long state message, saw its end only once it got the slot
// and had run one more slice, so that the queue drained a slice at a time
// after Close. The test holds the bulk slot through Close, as another
// session's long work would: before, the queued sessions waited for it,
// and Close gave up on them after ShutdownWait; now each has released its
// world when Close returns, with no slice run after it.
func TestCloseEndsLongWorkQueuedForTheBulkSlot(t *testing.T) {
	app, url := newTestServer(t, Limits{})
	app.cpu, app.bulk = make(chan struct{}, 2), make(chan struct{}, 1)
	var socks []*client
	for range 6 {
		c, _, _ := dial(t, url, "")
		c.hello("")
		c.send(map[string]any{"op": "load", "yaml": retryYAML})
		c.next("state")
		socks = append(socks, c)
	}
	// One more at step 2,000, whose new tab waits to be sent its state.
	c, _, _ := dial(t, url, "")
	id := c.hello("").Session
	c.send(map[string]any{"op": "load", "yaml": retryYAML})
	c.next("state")
	c.send(map[string]any{"op": "seek", "step": 2000})
	c.next("state")
	app.bulk <- struct{}{} // the test holds the bulk slot through Close
	defer func() { <-app.bulk }()
	for _, c := range socks {
		c.send(map[string]any{"op": "seek", "step": 40000}) // under the step cap of 50,000
	}
	tab, _, _ := dial(t, url, "")
	tab.hello(id)
	time.Sleep(200 * time.Millisecond) // the seeks and the state queued for the slot
	app.mu.Lock()
	var sessions []*session
	for _, s := range app.sessions {
		sessions = append(sessions, s)
	}
	app.mu.Unlock()
	app.Close()
	running := 0
	for _, s := range sessions {
		select {
		case <-s.gone:
		default:
			running++
		}
	}
	if running > 0 {
		t.Fatalf("after Close: %d of %d sessions still waiting for the bulk slot to run one more slice", running, len(sessions))
	}
}

// A file's parse (check, load, setup; like a follow's replay and a comparison's encoding) is
// long work on the bulk slot, not begun once the session has ended (issue
// 36): it waits for the slot or the session's end, whichever comes first.
// The test holds the bulk slot through Close, as another session's seek
// would, while a session's check waits for it: before, the check waited
// for the slot in one piece whatever happened to its session, and Close
// gave up on it after ShutdownWait; now the session has ended when Close
// returns.
func TestCloseEndsACheckQueuedForTheBulkSlot(t *testing.T) {
	for _, op := range []string{"check", "load", "setup"} { // each parses its file on a bulk slot
		t.Run(op, func(t *testing.T) {
			app, url := newTestServer(t, Limits{})
			app.cpu, app.bulk = make(chan struct{}, 2), make(chan struct{}, 1)
			c, _, _ := dial(t, url, "")
			c.hello("")
			app.bulk <- struct{}{} // the test holds the bulk slot through Close
			defer func() { <-app.bulk }()
			c.send(map[string]any{"op": op, "yaml": retryYAML})
			time.Sleep(200 * time.Millisecond) // the parse queued for the slot
			app.mu.Lock()
			var sessions []*session
			for _, s := range app.sessions {
				sessions = append(sessions, s)
			}
			app.mu.Unlock()
			if len(sessions) != 1 {
				t.Fatalf("expected the one session, got %d", len(sessions))
			}
			app.Close()
			select {
			case <-sessions[0].gone:
			default:
				t.Fatalf("after Close: the session still waiting for the bulk slot to parse its %s", op)
			}
		})
	}
}
