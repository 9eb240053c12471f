package server

import (
	"strings"
	"testing"
)

// Over the server's budget, the sessions holding the most stop first: a
// session holding little goes on stepping. Argued before the run: the
// lesson to its end holds about 2.2 MiB (TestTheServerBudgetEvictsIdleSessionsFirst),
// a loaded lesson about 0.45 MiB (a world and its threads' reserve; the
// three at their ends measured 4.7 MiB). Under a budget of 4 MiB, the
// small session loads, the first big one runs its lesson to the end
// (about 2.6 MiB in all), and the second big one seeks to its end too: it
// crosses the budget at about 1.4 MiB of its own, over half its fair
// share (4 MiB over 3 sessions, 1.33 MiB; half, 0.67 MiB), and is stopped with memory-server naming what it holds and
// its share. The server stays over its budget (the stopped run keeps its
// events); the small session, at 0.45 MiB, under half its share,
// still steps. Before, every session's next step over the budget was
// refused alike: the small one's too.
func TestOverTheBudgetTheSessionsHoldingTheMostStopFirst(t *testing.T) {
	_, url := newTestServer(t, Limits{MaxMemory: 4 << 20})
	open := func() *client {
		c, _, _ := dial(t, url, "")
		c.hello("")
		c.send(map[string]any{"op": "load", "scenario": "redlock-pause-in-flight"})
		c.next("state")
		return c
	}
	small, big1, big2 := open(), open(), open()
	big1.send(map[string]any{"op": "seek", "step": 5000})
	if s := big1.next("state"); !s.Snap.Ended {
		t.Fatalf("the first big session: expected its run to its end under the budget, got step %d", s.Snap.Step)
	}
	big2.send(map[string]any{"op": "seek", "step": 5000})
	e := big2.next("error")
	if e.Code != "memory-server" || e.Args["held"] == nil || e.Args["share"] == nil || !strings.Contains(e.Error, "fair share") {
		t.Fatalf("the second big session: expected memory-server naming what it holds and its fair share, got %s %v %q", e.Code, e.Args, e.Error)
	}
	for i := 1; i <= 3; i++ {
		small.send(map[string]any{"op": "step"})
		m := small.read()
		for m.Type != "state" && m.Type != "error" {
			m = small.read()
		}
		if m.Type == "error" {
			t.Fatalf("the small session's step %d over the budget: refused (%s: %s), while the sessions holding the most are the ones to stop", i, m.Code, m.Error)
		}
		if m.Snap.Step != i {
			t.Errorf("the small session's step %d: got step %d", i, m.Snap.Step)
		}
	}
}
