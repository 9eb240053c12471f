package class

import (
	"slices"
	"testing"

	"github.com/lockstep/lockstep/internal/scenario"
)

// Each student answers an open question once. Students see neither the
// tally nor the truth until the teacher reveals them (the teacher sees
// the tally grow); a student who leaves takes her answer with her. A
// revealed question takes no more answers.
func TestATallyCountsEachStudentOnceAndWaitsForTheReveal(t *testing.T) {
	_, rm, _, _ := openClass(t, roomy)
	ann, _ := rm.Join(newDesk("school"), "Ann", "", "")
	boDesk := newDesk("school")
	bo, _ := rm.Join(boDesk, "Bo", "", "")
	cy, _ := rm.Join(newDesk("school"), "Cy", "", "")
	q, err := freeQuestion(Ask{Kind: Free, Text: "Does B enter?", Choices: []string{"yes", "no"}, Truth: []int{0}})
	if err != nil {
		t.Fatal(err)
	}
	rm.Ask(q, 7)
	yes, no, four := 0, 1, 4
	for _, a := range []struct {
		m *Member
		c *int
	}{{ann, &yes}, {bo, &no}, {cy, &no}} {
		if err := rm.Answer(a.m, 1, a.c); err != nil {
			t.Fatal(err)
		}
	}
	refused(t, "Ann again", rm.Answer(ann, 1, &no), "already-answered")
	refused(t, "a choice out of range", rm.Answer(ann, 1, &four), "bad-choice")
	refused(t, "an answer to another question", rm.Answer(ann, 2, &yes), "question-closed")

	mine := rm.Look(ann, &Seen{}, true).Question
	if mine.Counts != nil || mine.Truth != nil || mine.Answered != 0 || mine.Mine == nil || *mine.Mine != yes || mine.At != 7 {
		t.Fatalf("Ann before the reveal sees %+v: her answer, no tally, no truth", mine)
	}
	if tq := rm.Look(nil, &Seen{}, true).Question; !slices.Equal(tq.Counts, []int{1, 2}) || tq.Truth != nil {
		t.Fatalf("the teacher before the reveal sees %+v: the tally, no truth", tq)
	}
	rm.Leave(boDesk, bo)
	if err := rm.Reveal(); err != nil {
		t.Fatal(err)
	}
	seen := rm.Look(cy, &Seen{}, true).Question
	if !seen.Revealed || seen.Open || !slices.Equal(seen.Counts, []int{1, 1}) || !slices.Equal(seen.Truth, []int{0}) || seen.Answered != 2 {
		t.Fatalf("Cy after Bo left and the reveal sees %+v: the tally without Bo, the truth", seen)
	}
	refused(t, "an answer after the reveal", rm.Answer(cy, 1, &yes), "question-closed")
}

// A free question has a text, 2 to 8 choices and its right ones each
// once, or none (a vote).
func TestAFreeQuestionIsChecked(t *testing.T) {
	long := string(make([]rune, 201))
	for what, a := range map[string]Ask{
		"no text":          {Text: " ", Choices: []string{"a", "b"}},
		"a long text":      {Text: long, Choices: []string{"a", "b"}},
		"one choice":       {Text: "?", Choices: []string{"a"}},
		"nine choices":     {Text: "?", Choices: []string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}},
		"an empty choice":  {Text: "?", Choices: []string{"a", " "}},
		"a truth twice":    {Text: "?", Choices: []string{"a", "b"}, Truth: []int{1, 1}},
		"a truth too high": {Text: "?", Choices: []string{"a", "b"}, Truth: []int{2}},
	} {
		a.Kind = Free
		_, err := Compute(a, nil)
		refused(t, what, err, "bad-question")
	}
	q, err := Compute(Ask{Kind: Free, Text: " Ready? ", Choices: []string{"yes", "no", "maybe"}, Truth: []int{2, 0}}, nil)
	if err != nil || q.text.En != "Ready?" || !slices.Equal(q.truth, []int{0, 2}) {
		t.Fatalf("a good free question: %+v, %v", q, err)
	}
	_, err = Compute(Ask{Kind: "who"}, nil)
	refused(t, "an unknown kind", err, "bad-argument")
	_, err = Compute(Ask{Kind: Next}, nil)
	refused(t, "a question of the run with no run", err, "no-scenario")
}

// Only a vote on a move is played, and only once somebody voted: then
// the move with the most votes wins (the first of a tie) and the vote is
// revealed.
func TestAVotePlaysTheMoveWithMostVotes(t *testing.T) {
	_, rm, _, _ := openClass(t, roomy)
	_, err := rm.Vote()
	refused(t, "a vote before any question", err, "no-vote")
	free, _ := freeQuestion(Ask{Kind: Free, Text: "?", Choices: []string{"a", "b"}})
	rm.Ask(free, 0)
	_, err = rm.Vote()
	refused(t, "a vote on a free question", err, "no-vote")

	q := &Question{kind: Move, text: questionTexts[Move]}
	for _, c := range []string{"A", "B", "C"} {
		q.choices = append(q.choices, choice{label: same("step " + c), move: stepOf(c)})
	}
	rm.Ask(q, 0)
	_, err = rm.Vote()
	refused(t, "a vote nobody voted in", err, "no-votes")
	one, two := 1, 2
	for i, c := range []*int{&two, &one, &two, &one} {
		m, _ := rm.Join(newDesk("school"), string(rune('a'+i)), "", "")
		if err := rm.Answer(m, 2, c); err != nil {
			t.Fatal(err)
		}
	}
	win, err := rm.Vote()
	if err != nil || win.Client != "B" {
		t.Fatalf("a tie of B and C: got %+v, %v, want B (the first)", win, err)
	}
	if v := rm.Look(nil, &Seen{}, true).Question; !v.Revealed || v.Open {
		t.Fatalf("the vote played is %+v, want revealed", v)
	}
}

func stepOf(c string) *scenario.Fault { return &scenario.Fault{Do: scenario.StepAction, Client: c} }

// A revealed question stays on every screen until the teacher dismisses
// it; its tally stays in the teacher's history. A dismissed open question
// takes no more answers.
func TestADismissedQuestionLeavesEveryScreen(t *testing.T) {
	_, rm, _, _ := openClass(t, roomy)
	refused(t, "dismissing before any question", rm.Dismiss(), "no-question")
	ann, _ := rm.Join(newDesk("school"), "Ann", "", "")
	q, _ := freeQuestion(Ask{Kind: Free, Text: "Ready?", Choices: []string{"yes", "no"}})
	rm.Ask(q, 0)
	if err := rm.Reveal(); err != nil {
		t.Fatal(err)
	}
	if rm.Look(ann, &Seen{}, true).Question == nil {
		t.Fatal("the revealed question is not on Ann's screen")
	}
	if err := rm.Dismiss(); err != nil {
		t.Fatal(err)
	}
	if l := rm.Look(ann, &Seen{}, true); l.Question != nil {
		t.Fatalf("Ann still sees the dismissed question: %+v", l.Question)
	}
	if l := rm.Look(nil, &Seen{}, true); l.Question != nil || len(l.History) != 1 || !l.History[0].Revealed {
		t.Fatalf("the teacher sees %+v and the history %+v: no question, the revealed one kept", l.Question, l.History)
	}
	q, _ = freeQuestion(Ask{Kind: Free, Text: "Again?", Choices: []string{"yes", "no"}})
	rm.Ask(q, 0)
	if err := rm.Dismiss(); err != nil {
		t.Fatal(err)
	}
	refused(t, "an answer to a dismissed question", rm.Answer(ann, 2, new(int)), "question-closed")
}

// A question is about the lesson it was asked in: when the teacher's run
// moves to another lesson, the question leaves every screen; a step of
// the same lesson keeps it.
func TestTheQuestionGoesWithTheLesson(t *testing.T) {
	_, rm, teacher, _ := openClass(t, roomy)
	ann, _ := rm.Join(newDesk("school"), "Ann", "", "")
	first, second := &scenario.Scenario{ID: "first"}, &scenario.Scenario{ID: "second"}
	rm.Publish(teacher, &Position{Scenario: first, Cursor: 3})
	q, _ := freeQuestion(Ask{Kind: Free, Text: "Ready?", Choices: []string{"yes", "no"}})
	rm.Ask(q, 3)
	rm.Publish(teacher, &Position{Scenario: first, Cursor: 4})
	if rm.Look(ann, &Seen{}, true).Question == nil {
		t.Fatal("a step of the same lesson took the question away")
	}
	seen := Seen{}
	rm.Look(ann, &seen, true)
	rm.Publish(teacher, &Position{Scenario: second})
	l := rm.Look(ann, &seen, false)
	if l == nil || l.Question != nil {
		t.Fatalf("after the teacher loaded another lesson Ann sees %+v, want a new look without the question", l)
	}
}
