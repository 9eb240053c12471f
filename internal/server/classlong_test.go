package server

import (
	"testing"
	"time"
)

// A class started on a long run shares the teacher's events encoded once
// (shareRun): 2,000 steps of a run are thousands of events, megabytes of
// JSON for a long seek, and that encoding is long work, on a bulk slot like
// a long state's (TestALongStateWaitsForTheBulkSlot), so that a class
// following a long seek leaves one CPU to other sessions' steps (issue 36).
// The test holds the bulk slot, as another session's seek would, and starts
// a class on a run at step 2,000: the answer waits for the slot. Before,
// the events were encoded on the teacher's goroutine, off the engine's
// slots, and the class was started while the test held the bulk slot.
func TestAClassOfALongRunWaitsForTheBulkSlot(t *testing.T) {
	app, url := newTestServer(t, Limits{})
	app.cpu, app.bulk = make(chan struct{}, 2), make(chan struct{}, 1)
	c, _, _ := dial(t, url, "")
	c.hello("")
	c.send(map[string]any{"op": "load", "yaml": retryYAML})
	c.next("state")
	c.send(map[string]any{"op": "seek", "step": 2000})
	if m := c.next("state"); m.Snap == nil || m.Snap.Step != 2000 || m.Snap.Events <= sliceSteps {
		t.Fatalf("seek 2000: got %+v, want more than %d events", m.Snap, sliceSteps)
	}
	app.bulk <- struct{}{} // the test holds the bulk slot
	held := true
	defer func() {
		if held {
			<-app.bulk
		}
	}()
	c.send(map[string]any{"op": "class-start", "origin": "http://127.0.0.1:8080"})
	answers := make(chan Message, 1)
	go func() {
		defer close(answers)
		for {
			var m Message
			if c.ws.ReadJSON(&m) != nil {
				return
			}
			if m.Type == "class" || m.Type == "error" {
				answers <- m
				return
			}
		}
	}()
	select {
	case m := <-answers:
		t.Fatalf("class-start answered (%s) while the test held the bulk slot: the class's events encoded off the slots", m.Type)
	case <-time.After(300 * time.Millisecond):
	}
	<-app.bulk
	held = false
	select {
	case m, ok := <-answers:
		if !ok || m.Type != "class" || m.Class == nil || m.Class.Code == "" {
			t.Fatalf("class-start after the bulk slot was given back: %+v (socket open: %v)", m, ok)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no answer to class-start 10 s after the bulk slot was given back")
	}
}
