package server

import (
	"testing"
	"time"

	"github.com/lockstep/lockstep/internal/class"
)

// Students who flood or switch in a loop: the class goes on.

// A student who floods the server without reading its answers is
// dropped (1008: too slow), as any such browser is, and counted once; the
// class goes on, and her phone, reconnecting to her session, catches up.
func TestAFloodingStudentDoesNotStopTheClass(t *testing.T) {
	_, url := newTestServer(t, Limits{})
	teacher, code, _ := startClass(t, url, "no-lock-oversell")
	ann, bo := join(t, url, code, "Ann"), join(t, url, code, "Bo")
	teacher.ask(map[string]any{"op": "class-ask", "ask": map[string]any{"kind": "free", "text": "Ready?", "choices": []string{"yes", "no"}}})
	ops := []map[string]any{
		{"op": "class-answer", "question": 1, "choice": 0},
		{"op": "class-answer", "question": 1, "choice": 1},
		{"op": "step"},
		{"op": "class-roam"},
		{"op": "class-follow"},
		{"op": "class-join", "code": "ZZZZZZ", "name": "x"},
		{"op": "class-view", "view": map[string]any{}},
	}
	// She asks until the server drops her: her answers fill the socket's
	// buffers, then its queue. How many that takes depends on the
	// machine (a few thousand here); a minute of asking without a drop
	// is a failure.
	for i, start := 0, time.Now(); ; i++ {
		m := ops[i%len(ops)]
		m["id"] = i + 100
		if err := ann.ws.WriteJSON(m); err != nil {
			break
		}
		if time.Since(start) > time.Minute {
			t.Fatalf("%d requests unread in a minute and still connected", i+1)
		}
	}
	teacher.until("Ann's one answer", func() bool { return teacher.class.Counts != nil && teacher.class.Counts.Answered == 1 })
	bo.ask(map[string]any{"op": "class-answer", "question": 1, "choice": 1})
	teacher.until("two answers", func() bool { return teacher.class.Counts.Answered == 2 })
	teacher.ask(map[string]any{"op": "step"})
	bo.follows(teacher)
	// Her phone reconnects to her session: still in the class, caught up.
	c, _, err := dial(t, url, "")
	if err != nil {
		t.Fatal(err)
	}
	c.hello(ann.session)
	phone := &pupil{client: c, session: ann.session}
	// Her flood spent her switches between roaming and following: if it
	// left her roaming, the phone waits the seconds the server says, as
	// the page does, before it follows again (if it left her following,
	// class-follow is no switch and answers at once).
	for tries := 0; ; tries++ {
		m := phone.ask(map[string]any{"op": "class-follow"})
		if m.Type == "class" {
			break
		}
		if m.Code != "switch-slow-down" || tries > class.SwitchBurst {
			t.Fatalf("class-follow on her phone: got %s %s", m.Code, m.Error)
		}
		time.Sleep(time.Duration(m.Args["seconds"].(float64)) * time.Second)
	}
	phone.follows(teacher)
	if phone.class == nil || phone.class.Name != "Ann" || phone.class.Question.Mine == nil {
		t.Fatalf("after reconnecting: %+v", phone.class)
	}
}

// A student who reads her answers but switches between roaming and
// following in a loop is slowed down after class.SwitchBurst switches, and the
// teacher, whose counts each switch changes, is not drowned: the teacher
// stays connected and the class goes on. Her phone, reconnecting to her
// session without asking anything, is back in the class at the teacher's
// step at once.
func TestAStudentSwitchingInALoopIsSlowedDown(t *testing.T) {
	_, url := newTestServer(t, Limits{})
	teacher, code, _ := startClass(t, url, "no-lock-oversell")
	ann, bo := join(t, url, code, "Ann"), join(t, url, code, "Bo")
	switched, slowed := 0, 0
	start := time.Now()
	for i := 0; i < 200; i++ {
		op := "class-follow" // each request a switch: to the other of roaming and following
		if ann.class.Following {
			op = "class-roam"
		}
		got := ann.ask(map[string]any{"op": op})
		switch {
		case got.Type == "class":
			switched++
		case got.Code == "switch-slow-down":
			slowed++
		default:
			t.Fatalf("switch %d: %s %s %s", i, got.Type, got.Code, got.Error)
		}
	}
	// The loop takes well under a second here; a slow machine refills one
	// switch every class.SwitchEvery meanwhile.
	most := class.SwitchBurst + int(time.Since(start)/class.SwitchEvery) + 1
	if switched < class.SwitchBurst || switched > most || slowed == 0 {
		t.Fatalf("%d switches went through and %d were slowed down; the burst is %d, at most %d in %v", switched, slowed, class.SwitchBurst, most, time.Since(start))
	}
	teacher.ask(map[string]any{"op": "step"})
	bo.follows(teacher)
	teacher.ask(map[string]any{"op": "step"})
	bo.follows(teacher)

	// Ann, once her budget allows, follows again, then loses her socket.
	time.Sleep(2 * class.SwitchEvery)
	ann.ask(map[string]any{"op": "class-follow"})
	ann.follows(teacher)
	_ = ann.ws.Close()
	teacher.ask(map[string]any{"op": "step"})
	teacher.ask(map[string]any{"op": "step"})
	c, _, err := dial(t, url, "")
	if err != nil {
		t.Fatal(err)
	}
	c.hello(ann.session)
	phone := &pupil{client: c, session: ann.session}
	phone.follows(teacher)
	phone.until("the class message", func() bool { return phone.class != nil })
	if phone.class.Name != "Ann" || !phone.class.Following {
		t.Fatalf("after reconnecting: %+v", phone.class)
	}
}
