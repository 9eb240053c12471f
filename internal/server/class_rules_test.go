package server

import (
	"strings"
	"testing"
)

// joinFrom sends class-join as the page does, with its browser's id.
func (p *pupil) joinFrom(code, name, browser string) Message {
	p.t.Helper()
	return p.ask(map[string]any{"op": "class-join", "code": code, "name": name, "browser": browser})
}

// untilCounts waits until the teacher's counts satisfy cond.
func (p *pupil) untilCounts(what string, cond func(c *classCounts) bool) {
	p.t.Helper()
	p.until(what, func() bool { return p.class != nil && p.class.Counts != nil && cond(p.class.Counts) })
}

// A browser holds one membership of a class: a second tab of it cannot
// join under another nickname (and vote twice) while the first is open;
// under the same nickname it is the same student; once the first tab is
// closed, a new nickname takes its place. Other browsers behind the same
// address (a school's NAT) join as usual.
func TestOneMembershipPerBrowser(t *testing.T) {
	_, url := newTestServer(t, Limits{})
	teacher, code, _ := startClass(t, url, "no-lock-oversell")
	tab1 := newPupil(t, url)
	if m := tab1.joinFrom(code, "Ann", "browser-1"); m.Type != "class" || m.Class.Name != "Ann" {
		t.Fatalf("Ann's first tab: got %s %s", m.Type, m.Error)
	}
	teacher.ask(map[string]any{"op": "class-ask", "ask": map[string]any{"kind": "free", "text": "Ready?", "choices": []string{"yes", "no"}}})
	tab1.ask(map[string]any{"op": "class-answer", "question": 1, "choice": 0})

	tab2 := newPupil(t, url)
	m := tab2.joinFrom(code, "Ann again", "browser-1")
	if m.Type != "error" || m.Code != "class-one-seat" || m.Args["name"] != "Ann" {
		t.Fatalf("a second nickname from Ann's browser: got %s %q (code %q, args %v), want class-one-seat naming Ann", m.Type, m.Error, m.Code, m.Args)
	}
	// Another browser on the same address is another student.
	bo := newPupil(t, url)
	if m := bo.joinFrom(code, "Bo", "browser-2"); m.Type != "class" {
		t.Fatalf("Bo: got %s %s", m.Type, m.Error)
	}
	// The same browser and nickname (any case): the same student, her
	// answer kept; her first tab is told it left.
	if m := tab2.joinFrom(code, "ann", "browser-1"); m.Type != "class" || m.Class.Name != "Ann" || m.Class.Question == nil || m.Class.Question.Mine == nil {
		t.Fatalf("Ann's second tab as Ann: got %s %s %+v", m.Type, m.Error, m.Class)
	}
	tab1.until("the first tab out", func() bool { return tab1.class != nil && tab1.class.Ended == "left" })
	teacher.untilCounts("two students, one answer", func(c *classCounts) bool { return c.Members == 2 && c.Answered == 1 })
	tab2.refused("already-answered", map[string]any{"op": "class-answer", "question": 1, "choice": 1})

	// Her tab is closed: a new tab of her browser may join under another
	// nickname, which takes her place (her answer goes with her).
	_ = tab2.ws.Close()
	teacher.untilCounts("Ann offline", func(c *classCounts) bool { return c.Online == 1 })
	tab3 := newPupil(t, url)
	if m := tab3.joinFrom(code, "Cy", "browser-1"); m.Type != "class" || m.Class.Name != "Cy" {
		t.Fatalf("a new tab after the first closed: got %s %s", m.Type, m.Error)
	}
	teacher.untilCounts("Cy instead of Ann", func(c *classCounts) bool { return c.Members == 2 && c.Online == 2 && c.Answered == 0 })
	// Her old nickname is free again.
	dee := newPupil(t, url)
	if m := dee.joinFrom(code, "Ann", "browser-3"); m.Type != "class" {
		t.Fatalf("the freed nickname: got %s %s", m.Type, m.Error)
	}
	// An id longer than a page makes is refused.
	long := newPupil(t, url)
	long.refused("bad-argument", map[string]any{"op": "class-join", "code": code, "name": "Eve", "browser": string(make([]byte, maxBrowserID+1))})
}

// The class's size and the server's classes are capped, with codes that
// name the cap; a seat or a class that ends makes room.
func TestTheClassIsFullAndTheClassesCapped(t *testing.T) {
	_, url := newTestServer(t, Limits{MaxClassSize: 2, MaxRooms: 1})
	teacher, code, _ := startClass(t, url, "no-lock-oversell")
	ann := join(t, url, code, "Ann")
	join(t, url, code, "Bo")
	cy := newPupil(t, url)
	m := cy.joinFrom(code, "Cy", "browser-cy")
	if m.Type != "error" || m.Code != "class-full" || m.Args["max"] != float64(2) {
		t.Fatalf("a third student in a class of 2: got %s %q (code %q, args %v)", m.Type, m.Error, m.Code, m.Args)
	}
	ann.ask(map[string]any{"op": "class-leave"})
	if m := cy.joinFrom(code, "Cy", "browser-cy"); m.Type != "class" {
		t.Fatalf("Cy after Ann left: got %s %s", m.Type, m.Error)
	}

	other := newPupil(t, url)
	other.ask(map[string]any{"op": "load", "scenario": "no-lock-oversell"})
	start := map[string]any{"op": "class-start", "origin": "http://127.0.0.1:8080"}
	m = other.ask(start)
	if m.Type != "error" || m.Code != "rooms-cap" || m.Args["max"] != float64(1) {
		t.Fatalf("a second class with a cap of 1: got %s %q (code %q, args %v)", m.Type, m.Error, m.Code, m.Args)
	}
	teacher.ask(map[string]any{"op": "class-end"})
	if m := other.ask(start); m.Type != "class" || m.Class.Role != "teacher" {
		t.Fatalf("a class after the first ended: got %s %s", m.Type, m.Error)
	}
}

// The teacher switches to another lesson mid-class, then loads a file of
// their own: every student is sent the new run from its start and
// follows it step for step; a student who roamed through the switch (her
// copy of the old lesson) comes back to the new run.
func TestStudentsFollowTheTeacherToAnotherLessonAndAFile(t *testing.T) {
	_, url := newTestServer(t, Limits{})
	teacher, code, _ := startClass(t, url, "no-lock-oversell")
	ann, bo := join(t, url, code, "Ann"), join(t, url, code, "Bo")
	teacher.ask(map[string]any{"op": "step"})
	ann.follows(teacher)
	bo.follows(teacher)
	bo.ask(map[string]any{"op": "class-roam"})

	same := func(p *pupil, what string) {
		t.Helper()
		p.until(what, func() bool {
			return p.snap != nil && p.snap.Scenario == teacher.snap.Scenario && p.snap.Custom == teacher.snap.Custom && p.snap.Seed == teacher.snap.Seed
		})
		p.follows(teacher)
	}
	teacher.ask(map[string]any{"op": "load", "scenario": "redlock-pause-in-flight"})
	same(ann, "Ann in the new lesson")
	for range 3 {
		teacher.ask(map[string]any{"op": "step"})
		ann.follows(teacher)
	}
	bo.ask(map[string]any{"op": "step"}) // his own run goes on
	if bo.snap.Scenario != "no-lock-oversell" {
		t.Fatalf("roaming Bo was moved to %s", bo.snap.Scenario)
	}

	yaml := "scenarios:\n  - id: mine\n    title: {en: Mine, zh: 我的}\n" +
		"    clients:\n" +
		"      - {name: A, algorithm: lua-compare-delete, params: {ttl: 2s, retry: 100ms}, task: none, work: 500ms}\n" +
		"      - {name: B, algorithm: lua-compare-delete, params: {ttl: 2s, retry: 100ms}, task: none, work: 500ms, start: 50ms}\n" +
		"    seed: 7\n    expect: [safe]\n"
	if m := teacher.ask(map[string]any{"op": "load", "yaml": yaml}); m.Type != "state" || !m.Snap.Custom || m.Snap.Scenario != "mine" {
		t.Fatalf("the teacher's file: got %s %s", m.Type, m.Error)
	}
	same(ann, "Ann in the teacher's file")
	bo.ask(map[string]any{"op": "class-follow"})
	same(bo, "Bo back in the teacher's file")
	for range 4 {
		teacher.ask(map[string]any{"op": "step"})
		ann.follows(teacher)
		bo.follows(teacher)
	}
	// A late joiner starts in the file at once.
	cy := join(t, url, code, "Cy")
	same(cy, "Cy in the teacher's file")
}

// While the teacher hides what gives the answer away, students' state
// messages carry neither the lesson's paragraph (it tells how the run
// ends) nor the expected verdict, until the run ends; they come back when
// the teacher stops hiding and when a student leaves. The teacher's own
// messages keep them.
func TestHiddenFromStudentsUntilTheEnd(t *testing.T) {
	_, url := newTestServer(t, Limits{})
	teacher, code, _ := startClass(t, url, "no-lock-oversell")
	teacher.ask(map[string]any{"op": "class-hide", "hide": true})
	ann := join(t, url, code, "Ann")
	hidden := func(p *pupil) bool {
		return p.snap != nil && p.snap.Lesson.En == "" && p.snap.Lesson.Zh == "" && len(p.snap.Expect) == 0
	}
	shown := func(p *pupil) bool { return p.snap != nil && p.snap.Lesson.En != "" && len(p.snap.Expect) > 0 }
	ann.until("Ann's first state", func() bool { return ann.snap != nil })
	if !hidden(ann) {
		t.Fatalf("while hiding, Ann got the lesson %q and the verdict %v", ann.snap.Lesson.En, ann.snap.Expect)
	}
	teacher.ask(map[string]any{"op": "step"})
	ann.follows(teacher)
	bo := join(t, url, code, "Bo")
	bo.follows(teacher)
	for _, p := range []*pupil{ann, bo} {
		if !hidden(p) {
			t.Fatalf("while hiding, a student got the lesson %q and the verdict %v", p.snap.Lesson.En, p.snap.Expect)
		}
	}
	if !shown(teacher) {
		t.Fatalf("the teacher's own state lacks the lesson or the verdict: %+v", teacher.snap)
	}
	// The teacher stops hiding: the students get them at once.
	teacher.ask(map[string]any{"op": "class-hide", "hide": false})
	ann.until("the lesson back", func() bool { return shown(ann) })
	bo.until("the lesson back", func() bool { return shown(bo) })
	teacher.ask(map[string]any{"op": "class-hide", "hide": true})
	ann.until("hidden again", func() bool { return hidden(ann) })
	bo.until("hidden again", func() bool { return hidden(bo) })
	// The run ends: nothing is hidden any more.
	teacher.ask(map[string]any{"op": "seek", "step": 1000})
	for _, p := range []*pupil{ann, bo} {
		p.follows(teacher)
		if !p.snap.Ended || !shown(p) {
			t.Fatalf("at the end (ended %v) a student got the lesson %q and the verdict %v", p.snap.Ended, p.snap.Lesson.En, p.snap.Expect)
		}
	}
	// Back before the end, Bo leaves the class: his run is his own, whole.
	teacher.ask(map[string]any{"op": "seek", "step": 1})
	bo.follows(teacher)
	if !hidden(bo) {
		t.Fatalf("back before the end (step %d, ended %v, teacher at %d), Bo got the lesson %q", bo.snap.Step, bo.snap.Ended, teacher.snap.Step, bo.snap.Lesson.En)
	}
	bo.ask(map[string]any{"op": "class-leave"})
	bo.until("the lesson after leaving", func() bool { return shown(bo) })
}

// In a challenge the class votes on the next move among those the run
// allows, and the teacher plays the winner: the teacher's run takes that
// move, recorded as the teacher's own, and the students follow.
func TestTheClassVotesOnAMove(t *testing.T) {
	_, url := newTestServer(t, Limits{})
	teacher := newPupil(t, url)
	teacher.ask(map[string]any{"op": "load", "scenario": "no-lock-oversell", "challenge": true})
	m := teacher.ask(map[string]any{"op": "class-start", "origin": "http://127.0.0.1:8080"})
	code := m.Class.Code
	kids := []*pupil{join(t, url, code, "Ann"), join(t, url, code, "Bo"), join(t, url, code, "Cy")}
	teacher.ask(map[string]any{"op": "step"})
	m = teacher.ask(map[string]any{"op": "class-ask", "ask": map[string]any{"kind": "move"}})
	q := m.Class.Question
	step := -1
	for i, c := range q.Choices {
		if strings.HasPrefix(c.En, "step ") {
			step = i
		}
	}
	if step < 0 || q.Choices[0].En != "let the engine choose" {
		t.Fatalf("move choices %v: want the engine's step and each client's", q.Choices)
	}
	client := strings.TrimPrefix(q.Choices[step].En, "step ")
	teacher.refused("no-votes", map[string]any{"op": "class-play"})
	for i, k := range kids {
		c := step
		if i == 2 {
			c = 0
		}
		k.until("the vote", func() bool { return k.class.Question != nil && k.class.Question.ID == q.ID })
		k.ask(map[string]any{"op": "class-answer", "question": q.ID, "choice": c})
	}
	teacher.until("three votes", func() bool { return teacher.class.Counts.Answered == 3 })
	teacher.ask(map[string]any{"op": "class-play"})
	teacher.until("the move played", func() bool { return len(teacher.snap.Actions) == 1 })
	if a := teacher.snap.Actions[0]; a.Do != "step" || a.Client != client {
		t.Fatalf("played %+v, want the winner: step %s", a, client)
	}
	for _, k := range kids {
		k.follows(teacher)
	}
	// Outside a challenge there is no vote.
	teacher.ask(map[string]any{"op": "load", "scenario": "no-lock-oversell"})
	teacher.refused("class-no-challenge", map[string]any{"op": "class-ask", "ask": map[string]any{"kind": "move"}})
}
