package class

import (
	"slices"
	"strings"
	"testing"

	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/embedded"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
)

// plainRuns steps copies of a run as the teacher's Step would, without a
// server's budgets.
type plainRuns struct{ ls *lesson.Session }

func (p plainRuns) Run() *lesson.Session { return p.ls }

func (p plainRuns) Fork() (*lesson.Session, error) {
	f, err := lesson.NewSession(p.ls.Scenario(), lesson.Config{Seed: p.ls.Seed(), Servers: embedded.Servers{}})
	if err == nil {
		err = f.Follow(p.ls.Actions())
	}
	if err == nil {
		err = f.Seek(p.ls.Cursor())
	}
	return f, err
}

func (p plainRuns) Step(fork *lesson.Session) error {
	_, err := fork.Step()
	return err
}

func (p plainRuns) StepClient(fork *lesson.Session, c string) (bool, error) {
	return fork.StepClient(c)
}

func (p plainRuns) ToEnd(fork *lesson.Session) error {
	for {
		if ok, err := fork.Step(); err != nil || !ok {
			return err
		}
	}
}

// teacherRun is the built-in lesson id at its seed, as a teacher loads it.
func teacherRun(t *testing.T, id string) *lesson.Session {
	t.Helper()
	f, err := scenario.ParseBuiltin("scenarios.yaml", lockstep.Scenarios)
	if err != nil {
		t.Fatal(err)
	}
	sc, ok := f.Find(id)
	if !ok {
		t.Fatalf("no lesson %s", id)
	}
	ls, err := lesson.NewSession(sc, lesson.Config{Seed: sc.Seed, Servers: embedded.Servers{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ls.Close)
	return ls
}

// The truths of the "who holds" and "what reply" questions are what the
// run then does, read from the teacher's own log, not from the code that
// computed them: after one more step of the teacher, whoever has entered
// and not left (the enter and leave marks) is the holder revealed; the
// next command a node runs (its exec line) gets the reply revealed. Asked
// at every third step of a lesson in which A works 4s inside a 3s lease
// and B takes the lock meanwhile, so the holder is by turns nobody, A,
// and A and B.
func TestTheRevealedTruthIsWhatTheRunThenDoes(t *testing.T) {
	run := teacherRun(t, "lua-cad-long-work")
	l := &Lesson{Runs: plainRuns{run}}
	seen := map[string]bool{}
	for range 40 {
		if err := run.Seek(run.Cursor() + 3); err != nil {
			t.Fatal(err)
		}
		if run.Done() {
			break
		}
		q, err := Compute(Ask{Kind: Holder}, l)
		if err != nil {
			t.Fatal(err)
		}
		holder := q.choices[q.truth[0]].label.En
		reply := ""
		if q, err := Compute(Ask{Kind: Reply}, l); err == nil {
			reply = q.choices[q.truth[0]].label.En
		}
		before := len(run.Log())
		if _, err := run.Step(); err != nil {
			t.Fatal(err)
		}
		if got := insideFromMarks(lines(run, 0)); got != holder && !(holder == "A and B" && got == "A B") && !(holder == "nobody" && got == "") {
			t.Fatalf("step %d: the truth said %q holds after the next step; the log's marks say %q", run.Cursor(), holder, got)
		}
		seen[holder] = true
		if reply != "" {
			checkReply(t, run, before, reply)
		}
	}
	t.Logf("holders revealed: %v", seen)
	if !seen["nobody"] || !seen["A"] {
		t.Errorf("holders revealed: %v; want the lesson's nobody and A at least", seen)
	}
}

// checkReply steps the run until a node runs a command logged after
// event before, and holds its reply to the one revealed.
func checkReply(t *testing.T, run *lesson.Session, before int, reply string) {
	t.Helper()
	for n := 0; ; n++ {
		for _, l := range lines(run, before) {
			if strings.Contains(l, " exec ") || strings.Contains(l, " lost ") {
				if reply == "(lost)" && !strings.Contains(l, " lost ") || reply != "(lost)" && !strings.Contains(l, "-> "+reply) {
					t.Fatalf("the truth said the next command gets %q; the run's next command: %s", reply, l)
				}
				return
			}
		}
		if n > 50 || run.Done() {
			t.Fatalf("no command ran in 50 steps after a reply question")
		}
		if _, err := run.Step(); err != nil {
			t.Fatal(err)
		}
	}
}

// lines are the run's log lines from event from.
func lines(run *lesson.Session, from int) []string {
	var out []string
	for _, e := range run.Log()[from:] {
		out = append(out, e.String())
	}
	return out
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
