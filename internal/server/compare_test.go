package server

import (
	"strings"
	"testing"
)

func compareExtra(t *testing.T, m Message) compareAnswer {
	t.Helper()
	if m.Compare == nil {
		t.Fatalf("%s: no compare answer", m.Type)
	}
	return *m.Compare
}

// The page's side by side: with no with, a lesson of a canonical pair is
// compared with the pair's other side; the answer holds both sides' rows,
// the divergence and each side's verdicts. A manual step of the session
// is part of the left's schedule when the page compares again.
func TestCompareOp(t *testing.T) {
	c := openSession(t, Limits{})
	c.send(map[string]any{"op": "load", "scenario": "thread-id-two-instances"})
	c.next("state")
	c.send(map[string]any{"op": "compare"})
	a := compareExtra(t, c.next("compare"))
	if a.With != "thread-id-uuid-fix" || a.Partner != "thread-id-uuid-fix" || a.Left == nil || a.Right == nil {
		t.Fatalf("want the canonical pair compared, got with %q, partner %q", a.With, a.Partner)
	}
	d := a.Diverge
	if d < 0 || !strings.Contains(a.Left.Rows[d].Text, " exec-1") || !strings.Contains(a.Right.Rows[d].Text, ":exec-1") {
		t.Fatalf("row %d: left %q, right %q: want the owners to differ", d+1, a.Left.Rows[d].Text, a.Right.Rows[d].Text)
	}
	if len(a.Right.Verdicts) != 1 || a.Right.Verdicts[0].Name != "safe" || a.Right.Verdicts[0].Say == nil || a.Right.Verdicts[0].Say.Zh == "" {
		t.Errorf("right verdicts %+v: want safe, said in both languages", a.Right.Verdicts)
	}
	if len(a.Left.Verdicts) < 2 {
		t.Errorf("left verdicts %+v: want mutual-exclusion and lost-update", a.Left.Verdicts)
	}
	// Each row is the timeline's event, numbered by row: a reply names its
	// send's row, and the rows that let a client in or out of its critical
	// section carry the checker's change (the page draws both from these).
	for _, sd := range []*compareSide{a.Left, a.Right} {
		enters := 0
		for i, r := range sd.Rows {
			if r.Seq != i+1 {
				t.Fatalf("%s row %d numbered %d", sd.ID, i+1, r.Seq)
			}
			if r.Kind == "reply" && (r.Req < 1 || r.Req >= r.Seq || sd.Rows[r.Req-1].Kind != "send" || sd.Rows[r.Req-1].Client != r.Client) {
				t.Errorf("%s row %d: a reply to row %d, not its client's send", sd.ID, r.Seq, r.Req)
			}
			if r.Sections != nil {
				enters += len(r.Sections.Enter)
			}
		}
		if enters < 2 {
			t.Errorf("%s: %d entries into a critical section sent, want both clients'", sd.ID, enters)
		}
	}

	// B moves first by hand: its start, due at 100ms, comes before A's.
	c.send(map[string]any{"op": "step-client", "client": "B"})
	c.next("state")
	c.send(map[string]any{"op": "compare", "with": "thread-id-uuid-fix"})
	b := compareExtra(t, c.next("compare"))
	if b.Actions != 1 || b.Left.Rows[1].Text != "0.1s start B" {
		t.Errorf("want the manual step of B replayed first, got %d actions, row 2 %q", b.Actions, b.Left.Rows[1].Text)
	}
}

// A lesson with no canonical pair answers with what may be compared; a bad
// name or other clients are errors the page can say in its language.
func TestCompareOpRefusals(t *testing.T) {
	c := openSession(t, Limits{})
	c.send(map[string]any{"op": "compare"})
	if e := c.next("error"); e.Code != "no-scenario" {
		t.Errorf("before load: got %q %q", e.Code, e.Error)
	}
	c.send(map[string]any{"op": "load", "scenario": "no-lock-oversell"})
	c.next("state")
	c.send(map[string]any{"op": "compare"})
	if a := compareExtra(t, c.next("compare")); a.Left != nil || a.Partner != "" || len(a.Algorithms) < 10 {
		t.Errorf("want only the choices, got %+v", a)
	}
	for with, want := range map[string][2]string{"nope": {"compare-unknown", "unknown algorithm or scenario"}, "blind-del-slow-release": {"compare-clients", "the clients do not match"}} {
		c.send(map[string]any{"op": "compare", "with": with})
		if e := c.next("error"); e.Code != want[0] || e.Args["with"] != with || !strings.Contains(e.Error, want[1]) {
			t.Errorf("with %q: got %q %v %q, want %q", with, e.Code, e.Args, e.Error, want)
		}
	}
	c.send(map[string]any{"op": "compare", "with": strings.Repeat("x", 201)})
	if e := c.next("error"); !strings.Contains(e.Error, "at most 200") {
		t.Errorf("a long name: got %q", e.Error)
	}
}

// Both sides run to their end, which the session itself could not reach
// past its step cap: a comparison that would take a run further is
// refused, as a seek there is, and the session goes on.
func TestCompareStaysWithinTheStepCap(t *testing.T) {
	c := openSession(t, Limits{MaxSteps: 20})
	c.send(map[string]any{"op": "load", "scenario": "blind-del-slow-release"}) // about 90 steps
	c.next("state")
	c.send(map[string]any{"op": "compare"})
	if e := c.next("error"); e.Code != "step-cap" || !strings.Contains(e.Error, "cap of 20 steps") {
		t.Errorf("got %q %q, want the step cap of 20", e.Code, e.Error)
	}
	c.send(map[string]any{"op": "step"})
	if s := c.next("state"); s.Snap == nil || s.Snap.Step != 1 {
		t.Errorf("the session did not go on after the refusal: %+v", s.Snap)
	}
}
