package server

import (
	"slices"
	"strings"
	"testing"
)

// The truths of the "who holds" and "what reply" questions are what the
// run then does, read from the teacher's own log, not from the code that
// computed them: after one more step of the teacher, whoever has entered
// and not left (the enter and leave marks) is the holder revealed; the
// next command a node runs (its exec line) gets the reply revealed. Asked
// at every third step of a lesson in which A works 4s inside a 3s lease
// and B takes the lock meanwhile, so the holder is by turns nobody, A,
// and A and B.
func TestTheRevealedTruthIsWhatTheRunThenDoes(t *testing.T) {
	_, url := newTestServer(t, Limits{})
	teacher, code, _ := startClass(t, url, "lua-cad-long-work")
	join(t, url, code, "Ann")
	seen := map[string]bool{}
	for i := 0; i < 40; i++ {
		teacher.ask(map[string]any{"op": "step", "n": 3})
		if teacher.snap.Ended {
			break
		}
		// Who is inside after the next step.
		m := teacher.ask(map[string]any{"op": "class-ask", "ask": map[string]any{"kind": "holder"}})
		q := m.Class.Question
		teacher.ask(map[string]any{"op": "class-reveal"})
		holder := q.Choices[teacher.class.Question.Truth[0]].En
		// The reply the next command gets.
		m = teacher.ask(map[string]any{"op": "class-ask", "ask": map[string]any{"kind": "reply"}})
		if m.Type == "error" {
			continue // no command from here
		}
		q = m.Class.Question
		teacher.ask(map[string]any{"op": "class-reveal"})
		reply := q.Choices[teacher.class.Question.Truth[0]].En

		before := len(teacher.log)
		teacher.ask(map[string]any{"op": "step"})
		if got := insideFromMarks(teacher.log); got != holder && !(holder == "A and B" && got == "A B") && !(holder == "nobody" && got == "") {
			t.Fatalf("step %d: the truth said %q holds after the next step; the log's marks say %q", teacher.snap.Step, holder, got)
		}
		seen[holder] = true
		for n := 0; ; n++ {
			line := ""
			for _, l := range teacher.log[before:] {
				if strings.Contains(l, " exec ") || strings.Contains(l, " lost ") {
					line = l
					break
				}
			}
			if line != "" {
				if reply == "(lost)" && !strings.Contains(line, " lost ") || reply != "(lost)" && !strings.Contains(line, "-> "+reply) {
					t.Fatalf("the truth said the next command gets %q; the run's next command: %s", reply, line)
				}
				break
			}
			if n > 50 || teacher.snap.Ended {
				t.Fatalf("no command ran in 50 steps after a reply question")
			}
			teacher.ask(map[string]any{"op": "step"})
		}
	}
	t.Logf("holders revealed: %v", seen)
	if !seen["nobody"] || !seen["A"] {
		t.Errorf("holders revealed: %v; want the lesson's nobody and A at least", seen)
	}
}

// insideFromMarks is who has entered a critical section and not left it,
// by the enter and leave marks of a log's lines, in order of entry.
func insideFromMarks(log []string) string {
	var in []string
	for _, l := range log {
		f := strings.Fields(l)
		if len(f) < 5 || f[2] != "mark" {
			continue
		}
		switch f[4] {
		case "enter":
			in = append(in, f[3])
		case "leave":
			in = slices.DeleteFunc(in, func(c string) bool { return c == f[3] })
		}
	}
	return strings.Join(in, " ")
}
