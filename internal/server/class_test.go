package server

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lockstep/lockstep/internal/class"
)

// pupil is a test browser that keeps the log its state messages build, as
// the page does: it keeps the first `from` events and appends the rest.
type pupil struct {
	*client
	session string
	log     []string
	snap    *Snapshot
	class   *classView
	errs    []Message
	queue   []queuedView // the queue the page was last sent (a teacher's queue message, a remote's class message)
}

func newPupil(t *testing.T, url string) *pupil {
	t.Helper()
	c, _, err := dial(t, url, "")
	if err != nil {
		t.Fatal(err)
	}
	w := c.hello("")
	return &pupil{client: c, session: w.Session}
}

// take folds one message into what the pupil holds.
func (p *pupil) take(m Message) {
	p.keep(&m)
	switch m.Type {
	case "state":
		p.log = p.log[:min(*m.From, len(p.log))]
		for _, e := range m.Events {
			p.log = append(p.log, e.Text)
		}
		p.snap = m.Snap
	case "class":
		p.class = m.Class
		if m.Class != nil && m.Class.Role == "remote" {
			p.queue = m.Queue
		}
	case "queue":
		p.queue = m.Queue
	case "error":
		p.errs = append(p.errs, m)
	}
}

// until reads messages until cond holds of the pupil.
func (p *pupil) until(what string, cond func() bool) {
	p.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		_ = p.ws.SetReadDeadline(deadline)
		var m Message
		if err := p.ws.ReadJSON(&m); err != nil {
			p.t.Fatalf("waiting for %s: %v (errors: %+v)", what, err, p.errs)
		}
		p.take(m)
	}
}

// ask sends a request and reads until its answer (a message with its id).
func (p *pupil) ask(m map[string]any) Message {
	p.t.Helper()
	p.send(m)
	id := p.id
	deadline := time.Now().Add(10 * time.Second)
	for {
		_ = p.ws.SetReadDeadline(deadline)
		var got Message
		if err := p.ws.ReadJSON(&got); err != nil {
			p.t.Fatalf("waiting for the answer to %v: %v", m, err)
		}
		p.take(got)
		if got.Re == id {
			return got
		}
	}
}

// refused sends a request and expects an error with code.
func (p *pupil) refused(code string, m map[string]any) {
	p.t.Helper()
	got := p.ask(m)
	if got.Type != "error" || got.Code != code {
		p.t.Fatalf("%v: got %s %q (code %q), want an error with code %q", m, got.Type, got.Error, got.Code, code)
	}
}

// atStep waits until the pupil's world is at the teacher's step with the
// teacher's log, event for event.
func (p *pupil) follows(teacher *pupil) {
	p.t.Helper()
	p.until(fmt.Sprintf("step %d with %d events (at %v with %d)", teacher.snap.Step, len(teacher.log), p.snap != nil && p.snap.Step == teacher.snap.Step, len(p.log)), func() bool {
		return p.snap != nil && p.snap.Step == teacher.snap.Step && len(p.log) == len(teacher.log)
	})
	for i := range p.log {
		if p.log[i] != teacher.log[i] {
			p.t.Fatalf("event %d differs from the teacher's:\n got %s\nwant %s", i, p.log[i], teacher.log[i])
		}
	}
}

// startClass opens a teacher's session on a lesson and starts a class.
func startClass(t *testing.T, url, lesson string) (*pupil, string, string) {
	t.Helper()
	teacher := newPupil(t, url)
	teacher.ask(map[string]any{"op": "load", "scenario": lesson})
	m := teacher.ask(map[string]any{"op": "class-start", "origin": "http://127.0.0.1:8080"})
	if m.Type != "class" || m.Class.Role != "teacher" || m.Class.Key == "" || len(m.Class.Code) != class.CodeLen {
		t.Fatalf("class-start: got %+v", m)
	}
	if !strings.HasSuffix(m.Class.Link, "/#join="+m.Class.Code) || len(m.Class.QR) < 21 {
		t.Fatalf("class-start: link %q, %d QR rows", m.Class.Link, len(m.Class.QR))
	}
	return teacher, m.Class.Code, m.Class.Key
}

func join(t *testing.T, url, code, name string) *pupil {
	t.Helper()
	p := newPupil(t, url)
	m := p.ask(map[string]any{"op": "class-join", "code": strings.ToLower(code[:3]) + " " + code[3:], "name": name})
	if m.Type != "class" || m.Class.Role != "student" || m.Class.Name != name || !m.Class.Following {
		t.Fatalf("join as %s: got %s %s %+v", name, m.Type, m.Error, m.Class)
	}
	return p
}

// A class: students join by code and follow the teacher's steps on their
// own worlds, byte for byte; one roams and comes back; a late joiner
// catches up at once; the teacher goes back and injects a fault, and
// everyone follows the new branch.
func TestStudentsFollowTheTeacher(t *testing.T) {
	_, url := newTestServer(t, Limits{})
	teacher, code, _ := startClass(t, url, "no-lock-oversell")
	ann, bo := join(t, url, code, "Ann"), join(t, url, code, "薄")
	ann.follows(teacher)
	for range 3 {
		teacher.ask(map[string]any{"op": "step"})
		ann.follows(teacher)
		bo.follows(teacher)
	}
	// Ann roams: her steps are her own; the teacher's go on without her.
	ann.refused("class-following", map[string]any{"op": "step"})
	ann.ask(map[string]any{"op": "class-roam"})
	ann.ask(map[string]any{"op": "step"})
	ann.ask(map[string]any{"op": "inject", "fault": map[string]any{"do": "pause", "client": "A", "for": "1s"}})
	teacher.ask(map[string]any{"op": "step"})
	teacher.ask(map[string]any{"op": "step"})
	bo.follows(teacher)
	if ann.snap.Step != 4 || len(ann.snap.Actions) != 1 {
		t.Fatalf("roaming Ann: step %d, actions %v; want her own step 4 with her fault", ann.snap.Step, ann.snap.Actions)
	}
	// The teacher sees who follows and who roams.
	teacher.until("the counts", func() bool {
		c := teacher.class.Counts
		return c != nil && c.Members == 2 && c.Roaming == 1 && c.Following == 1
	})
	ann.ask(map[string]any{"op": "class-follow"})
	ann.follows(teacher)
	// A late joiner is at the teacher's step at once.
	cy := join(t, url, code, "Cy")
	cy.follows(teacher)
	// The teacher steps back twice and injects a fault: a new branch.
	teacher.ask(map[string]any{"op": "back"})
	teacher.ask(map[string]any{"op": "back"})
	teacher.ask(map[string]any{"op": "inject", "fault": map[string]any{"do": "crash", "client": "B"}})
	teacher.ask(map[string]any{"op": "step"})
	for _, p := range []*pupil{ann, bo, cy} {
		p.follows(teacher)
	}
	// Play to the end: everyone ends with the teacher's verdicts.
	teacher.ask(map[string]any{"op": "seek", "step": 1000})
	for _, p := range []*pupil{ann, bo, cy} {
		p.follows(teacher)
		if fmt.Sprint(p.snap.Verdicts) != fmt.Sprint(teacher.snap.Verdicts) {
			t.Fatalf("verdicts %v, the teacher's %v", p.snap.Verdicts, teacher.snap.Verdicts)
		}
	}
	// The teacher ends the class: everyone is told, the code is gone.
	teacher.ask(map[string]any{"op": "class-end"})
	for _, p := range []*pupil{ann, bo, cy} {
		p.until("the end", func() bool { return p.class.Ended == "teacher-ended" })
	}
	late := newPupil(t, url)
	late.refused("no-class", map[string]any{"op": "class-join", "code": code, "name": "Dee"})
	// After the class, a former student's session is their own again.
	ann.ask(map[string]any{"op": "back"})
}

// firstMover is the first client named in the log lines after before.
func firstMover(p *pupil, before int) string {
	for _, line := range p.log[before:] {
		for _, c := range p.snap.Clients {
			if strings.Contains(line, " "+c+" ") || strings.Contains(line, " "+c+":") || strings.Contains(line, "<- "+c) {
				return c
			}
		}
	}
	return ""
}

// A question computed from the run: the students answer, the teacher sees
// how many did, and the reveal gives the tally and the truth, which is what
// the teacher's next step then does.
func TestAQuestionIsAnsweredAndRevealed(t *testing.T) {
	_, url := newTestServer(t, Limits{})
	teacher, code, _ := startClass(t, url, "no-lock-oversell")
	kids := []*pupil{join(t, url, code, "Ann"), join(t, url, code, "Bo"), join(t, url, code, "Cy")}
	teacher.ask(map[string]any{"op": "step"})
	m := teacher.ask(map[string]any{"op": "class-ask", "ask": map[string]any{"kind": "next"}})
	q := m.Class.Question
	if q == nil || !q.Open || len(q.Choices) < 2 {
		t.Fatalf("class-ask next: %+v", m.Class)
	}
	for _, k := range kids {
		k.until("the question", func() bool { return k.class.Question != nil && k.class.Question.ID == q.ID })
		if k.class.Question.Truth != nil || k.class.Question.Counts != nil {
			t.Fatalf("a student sees the truth or tally before the reveal: %+v", k.class.Question)
		}
	}
	for i, k := range kids {
		k.ask(map[string]any{"op": "class-answer", "question": q.ID, "choice": i % len(q.Choices)})
	}
	kids[0].refused("already-answered", map[string]any{"op": "class-answer", "question": q.ID, "choice": 0})
	kids[1].refused("bad-choice", map[string]any{"op": "class-answer", "question": q.ID, "choice": 99})
	kids[1].refused("question-closed", map[string]any{"op": "class-answer", "question": q.ID + 1, "choice": 0})
	teacher.until("three answers", func() bool { return teacher.class.Counts != nil && teacher.class.Counts.Answered == 3 })
	teacher.ask(map[string]any{"op": "class-reveal"})
	for _, k := range kids {
		k.until("the reveal", func() bool { return k.class.Question != nil && k.class.Question.Revealed })
		got := k.class.Question
		sum := 0
		for _, n := range got.Counts {
			sum += n
		}
		if sum != 3 || len(got.Truth) != 1 {
			t.Fatalf("revealed: counts %v, truth %v", got.Counts, got.Truth)
		}
	}
	kids[2].refused("question-closed", map[string]any{"op": "class-answer", "question": q.ID, "choice": 0})
	// The truth is the client whose event the teacher's next step logs.
	truth := q.Choices[kids[0].class.Question.Truth[0]].En
	before := len(teacher.log)
	teacher.ask(map[string]any{"op": "step"})
	if mover := firstMover(teacher, before); mover != truth {
		t.Fatalf("the truth said %s moves next; the teacher's step logged %q", truth, teacher.log[before:])
	}
	// Each kind of question is computed, with its truth among its choices.
	for _, kind := range []string{"reply", "holder", "verdict"} {
		m := teacher.ask(map[string]any{"op": "class-ask", "ask": map[string]any{"kind": kind}})
		if m.Type != "class" {
			t.Fatalf("class-ask %s: %s %s", kind, m.Code, m.Error)
		}
		q := m.Class.Question
		teacher.ask(map[string]any{"op": "class-reveal"})
		r := teacher.class.Question
		if len(q.Choices) < 2 || len(r.Truth) == 0 || r.Truth[0] >= len(q.Choices) {
			t.Fatalf("%s: choices %v, truth %v", kind, q.Choices, r.Truth)
		}
	}
	// The verdict question's truth is the verdict the run ends with.
	teacher.ask(map[string]any{"op": "class-ask", "ask": map[string]any{"kind": "verdict"}})
	teacher.ask(map[string]any{"op": "class-reveal"})
	r := teacher.class.Question
	teacher.ask(map[string]any{"op": "seek", "step": 1000})
	if got := r.Choices[r.Truth[0]].En; got != "oversell" || fmt.Sprint(teacher.snap.Verdicts) != "[oversell]" {
		t.Fatalf("verdict truth %s, the run ends with %v", got, teacher.snap.Verdicts)
	}
	if n := len(teacher.class.History); n != 5 {
		t.Fatalf("history holds %d questions, want 5", n)
	}
	// A free question with the teacher's choices.
	teacher.refused("bad-question", map[string]any{"op": "class-ask", "ask": map[string]any{"kind": "free", "text": "Why?", "choices": []string{"one"}}})
	m = teacher.ask(map[string]any{"op": "class-ask", "ask": map[string]any{"kind": "free", "text": "Is this safe?", "choices": []string{"yes", "no"}, "truth": []int{1}}})
	if q := m.Class.Question; q.Kind != "free" || len(q.Choices) != 2 {
		t.Fatalf("free question: %+v", q)
	}
}

// What a student may not do: drive the room, ask, reveal, end it, claim
// it without the key, answer twice, take a nickname in use, flood the
// server with guesses of codes.
func TestStudentsCannotDriveTheClass(t *testing.T) {
	_, url := newTestServer(t, Limits{})
	teacher, code, key := startClass(t, url, "no-lock-oversell")
	ann := join(t, url, code, "Ann")
	for _, op := range []string{"step", "back", "play", "load", "reset", "inject", "seek", "step-client", "explore"} {
		ann.refused("class-following", map[string]any{"op": op, "scenario": "no-lock-oversell", "step": 3, "client": "A",
			"fault": map[string]any{"do": "crash", "client": "A"}})
	}
	for _, op := range []string{"class-ask", "class-reveal", "class-end", "class-view", "class-hide", "class-play"} {
		ann.refused("not-teacher", map[string]any{"op": op, "ask": map[string]any{"kind": "next"}, "view": map[string]any{}, "hide": true})
	}
	teacher.refused("class-student-only", map[string]any{"op": "class-answer", "question": 1, "choice": 0})
	// Nicknames: taken (in any case), empty, too long, with control characters.
	p := newPupil(t, url)
	p.refused("name-taken", map[string]any{"op": "class-join", "code": code, "name": "ANN"})
	for _, n := range []string{"", "   ", strings.Repeat("x", 25), "a\x00b", "a\u202eb", "a\u2028b", "a\u2029b", "a\u0085b"} {
		p.refused("bad-name", map[string]any{"op": "class-join", "code": code, "name": n})
	}
	// The teacher's key: a wrong one is refused, the right one moves the
	// class to this session and the old teacher's session is told.
	p.refused("bad-key", map[string]any{"op": "class-teach", "code": code, "key": key + "x"})
	p.refused("bad-key", map[string]any{"op": "class-teach", "code": code, "key": ""})
	// Oversized or malformed view choices.
	teacher.refused("bad-argument", map[string]any{"op": "class-view", "view": map[string]any{"x": strings.Repeat("y", 2000)}})
	teacher.refused("bad-argument", map[string]any{"op": "class-view", "view": []int{1}})
	teacher.refused("bad-argument", map[string]any{"op": "class-start", "origin": "javascript:alert(1)"})
	// A student's answer counts once, even after rejoining with the token.
	teacher.ask(map[string]any{"op": "class-ask", "ask": map[string]any{"kind": "free", "text": "Ready?", "choices": []string{"yes", "no"}}})
	ann.until("the question", func() bool { return ann.class.Question != nil })
	ann.ask(map[string]any{"op": "class-answer", "question": 1, "choice": 0})
	phone := newPupil(t, url)
	m := phone.ask(map[string]any{"op": "class-join", "code": code, "token": ann.class.Token})
	if m.Class == nil || m.Class.Name != "Ann" || m.Class.Question.Mine == nil || *m.Class.Question.Mine != 0 {
		t.Fatalf("rejoined with the token: %+v", m.Class)
	}
	phone.refused("already-answered", map[string]any{"op": "class-answer", "question": 1, "choice": 1})
	ann.until("the member moved", func() bool { return ann.class.Ended == "left" })
	// Guessing codes: each miss costs one of the address's attempts; after
	// missBurst misses it must wait. The right code is looked up first and
	// gets in (school_test.go: a guesser behind a school's address locks
	// nobody out).
	g := newPupil(t, url)
	misses := 0
	for i := 0; ; i++ {
		got := g.ask(map[string]any{"op": "class-join", "code": fmt.Sprintf("ZZZ%03d", i%1000)[:6], "name": "g"})
		if got.Code == "class-slow-down" {
			break
		}
		if got.Code != "no-class" {
			t.Fatalf("guess %d: %s %s", i, got.Code, got.Error)
		}
		if misses++; misses > missBurst+5 {
			t.Fatalf("%d wrong codes and no slow-down", misses)
		}
	}
	if misses < missBurst-2 {
		t.Fatalf("slowed down after %d misses; the burst is %d", misses, missBurst)
	}
	g.refused("class-slow-down", map[string]any{"op": "class-join", "code": "ZZZ999", "name": "g"})
	if m := g.ask(map[string]any{"op": "class-join", "code": code, "name": "g"}); m.Type != "class" {
		t.Fatalf("the right code after the guesses: got %s %s", m.Code, m.Error)
	}
	// The room is still the teacher's and works.
	teacher.ask(map[string]any{"op": "step"})
	phone.follows(teacher)
}

// The teacher's link opened elsewhere takes the class over; the teacher
// who leaves and does not come back within the grace ends it.
func TestTheTeacherMovesAndLeaves(t *testing.T) {
	_, url := newTestServer(t, Limits{ClassGrace: 300 * time.Millisecond})
	teacher, code, key := startClass(t, url, "no-lock-oversell")
	ann := join(t, url, code, "Ann")
	teacher.ask(map[string]any{"op": "step"})
	laptop := newPupil(t, url)
	m := laptop.ask(map[string]any{"op": "class-teach", "code": code, "key": key})
	if m.Class == nil || m.Class.Role != "teacher" {
		t.Fatalf("class-teach: %+v %s", m.Class, m.Error)
	}
	laptop.until("the room's run", func() bool { return laptop.snap != nil && laptop.snap.Step == 1 })
	teacher.until("told it moved", func() bool { return teacher.class.Ended == "teacher-moved" })
	teacher.ask(map[string]any{"op": "step"}) // the old teacher's session is its own again
	laptop.ask(map[string]any{"op": "step"})
	ann.follows(laptop)
	// The teacher's socket goes: the students see the teacher away, then
	// the class end when the grace runs out.
	laptop.ws.Close()
	ann.until("the teacher away", func() bool { return ann.class.Away || ann.class.Ended != "" })
	ann.until("the class over", func() bool { return ann.class.Ended == "teacher-gone" })
}
