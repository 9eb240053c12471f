package server

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// raw reads messages until one of type typ, and returns it with its size
// on the wire.
func (c *client) raw(typ string) (Message, int) {
	c.t.Helper()
	_ = c.ws.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		_, b, err := c.ws.ReadMessage()
		if err != nil {
			c.t.Fatalf("waiting for a %s message: %v", typ, err)
		}
		var m Message
		if err := json.Unmarshal(b, &m); err != nil {
			c.t.Fatal(err)
		}
		if m.Type == typ {
			return m, len(b)
		}
	}
}

// manyScenarios is a file of n scenarios, each with two clients.
func manyScenarios(n int) string {
	var b strings.Builder
	b.WriteString("scenarios:\n")
	for i := range n {
		fmt.Fprintf(&b, `  - id: s%d
    title: {en: "scenario number %d of a long file", zh: "长文件里的第 %d 个场景"}
    clients:
      - {name: A, algorithm: lua-compare-delete, task: none}
      - {name: B, algorithm: lua-compare-delete, task: none}
    expect: [safe]
`, i, i, i)
	}
	return b.String()
}

// A state message carries what changed: a file of 200 scenarios sends its
// list once, with the load, not with every step (20 players of such a file
// pulled 86 MB/s); the recorded actions travel as the ones added after
// those the page holds, and after stepping back and taking another branch,
// as the new tail.
func TestStateMessagesCarryWhatChanged(t *testing.T) {
	c := openSession(t, Limits{})
	yml := manyScenarios(200)
	c.send(map[string]any{"op": "load", "yaml": yml})
	loaded, first := c.raw("state")
	if len(loaded.Snap.File) != 200 {
		t.Fatalf("the load's state lists %d scenarios of the file, want 200", len(loaded.Snap.File))
	}
	// The run starts with an empty log: the first step's state still has
	// from 0, so the page starts over and gets everything again.
	c.send(map[string]any{"op": "step-client", "client": "A"})
	c.raw("state")
	most := 0
	for i := 1; i <= 5; i++ {
		c.send(map[string]any{"op": "step-client", "client": "A"})
		m, n := c.raw("state")
		if m.Snap.File != nil {
			t.Fatalf("a step's state resends the file's %d scenarios", len(m.Snap.File))
		}
		if m.Snap.ActionsFrom == nil || len(m.Snap.Actions) != 1 || *m.Snap.ActionsFrom != i {
			t.Fatalf("a hand step's state: actionsFrom %v, %d actions; want the one new action", m.Snap.ActionsFrom, len(m.Snap.Actions))
		}
		most = max(most, n)
	}
	t.Logf("the load's state: %d bytes; a hand step's: at most %d", first, most)
	if most*10 > first {
		t.Errorf("a step's state is %d bytes, the load's %d: the step should carry a small part of it", most, first)
	}
	// Back three steps, then another hand step: the branch keeps the first
	// three actions and its new tail is one.
	c.send(map[string]any{"op": "seek", "step": 3})
	c.raw("state")
	c.send(map[string]any{"op": "step-client", "client": "B"})
	m, _ := c.raw("state")
	if m.Snap.ActionsFrom == nil || *m.Snap.ActionsFrom != 3 || len(m.Snap.Actions) != 1 || m.Snap.Actions[0].Client != "B" {
		t.Fatalf("a new branch: actionsFrom %v, actions %v; want to keep 3 and add B's step", m.Snap.ActionsFrom, m.Snap.Actions)
	}
	// A sync starts over: everything again.
	c.send(map[string]any{"op": "sync"})
	m, _ = c.raw("state")
	if len(m.Snap.File) != 200 || m.Snap.ActionsFrom != nil || len(m.Snap.Actions) != 4 {
		t.Fatalf("after sync: %d scenarios, actionsFrom %v, %d actions; want 200, none, 4", len(m.Snap.File), m.Snap.ActionsFrom, len(m.Snap.Actions))
	}
}
