package server

import (
	"encoding/json"
	"testing"
)

// A long run's state comes in parts of at most partEvents events, never in
// one message: issue 36, twenty seeks to step 50,000 each built and encoded
// a state of 50,000 events (megabytes of JSON) at once, and the heap went
// past the collector's soft limit. Argued before the run: retryYAML's four
// clients log more than one event a step, so a seek to step 5,000 holds
// more than 4 parts' worth; each part but the last carries more and no
// snapshot, each starts where the one before ended, and joined they are
// every event of the run, in order, with the last part's snapshot. Before,
// the seek's answer was one message of every event.
func TestALongStateComesInParts(t *testing.T) {
	_, url := newTestServer(t, Limits{})
	c, _, _ := dial(t, url, "")
	c.hello("")
	c.send(map[string]any{"op": "load", "yaml": retryYAML})
	c.next("state")
	c.send(map[string]any{"op": "seek", "step": 5000})
	var sizes []int
	var first *Message
	for first == nil {
		_, raw, err := c.ws.ReadMessage()
		if err != nil {
			t.Fatal(err)
		}
		var m Message
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		if m.Type != "state" {
			continue
		}
		sizes = append(sizes, len(raw))
		if !m.More {
			t.Fatalf("the seek's state: one message of %d events (%d bytes), expected parts of at most %d", len(m.Events), len(raw), partEvents)
		}
		if m.Snap != nil || len(m.Events) != partEvents || m.From == nil {
			t.Fatalf("the first part: snapshot %v, %d events, from %v: expected no snapshot and %d events", m.Snap != nil, len(m.Events), m.From, partEvents)
		}
		first = &m
	}
	c.keep(first) // reads and checks the other parts (join)
	m := *first
	if m.Snap == nil || m.Snap.Step != 5000 {
		t.Fatalf("the joined state: snapshot %+v, expected step 5000", m.Snap)
	}
	if c.parts <= 4 {
		t.Errorf("the seek to 5,000: %d parts, expected more than 4 (%d events)", c.parts, len(m.Events))
	}
	if *m.From+len(m.Events) != m.Snap.Events {
		t.Errorf("the joined state: from %d and %d events, expected the run's %d", *m.From, len(m.Events), m.Snap.Events)
	}
	for i, e := range m.Events {
		if e.Seq != m.Events[0].Seq+i {
			t.Fatalf("the joined state: event %d is seq %d after seq %d", i, e.Seq, m.Events[0].Seq)
		}
	}
	t.Logf("%d parts, %d events; the first part %d bytes", c.parts, len(m.Events), sizes[0])
}
