package class

import (
	"fmt"
	"github.com/lockstep/lockstep/internal/fact"
	"slices"
	"strings"

	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// The kinds of question: who moves next, what a command replies, who
// holds the lock after the next step, how the run ends, a vote on the
// class's next move in a challenge, and the teacher's own.
const (
	Next    = "next"
	Reply   = "reply"
	Holder  = "holder"
	Verdict = "verdict"
	Move    = "move"
	Free    = "free"
)

// Ask is the question a teacher asks: its kind and, for a free question,
// its text, choices and the right ones, if any.
type Ask struct {
	Kind    string
	Text    string   // free: the question
	Choices []string // free: 2 to MaxChoices choices
	Truth   []int    // free: the right choices, if any
}

// Caps on a question.
const (
	MaxChoices     = 8
	maxChoiceRunes = 80
	maxTextRunes   = 200
)

// choice is one answer a student may give; a vote's choice is a move.
type choice struct {
	label sim.Text
	move  *scenario.Fault
}

// Question is one question and its answers: open while students answer,
// revealed once the teacher shows the tally and the truth.
type Question struct {
	id       int
	kind     string
	text     sim.Text
	about    string // reply: the command asked about
	choices  []choice
	truth    []int // the right choices (none: a vote, or a free question without one)
	at       int   // the teacher's cursor when asked
	open     bool
	revealed bool
	counts   []int
	answered int
	answers  map[string]int // by member token, while the room lives
}

// QuestionView is a question as one page sees it: the tally and the truth
// only once revealed (the teacher sees the tally as it grows), and the
// student's own answer.
type QuestionView struct {
	ID       int
	Kind     string
	Text     sim.Text
	About    string
	Choices  []sim.Text
	At       int
	Open     bool
	Revealed bool
	Answered int
	Counts   []int
	Truth    []int
	Mine     *int
}

// view is the question as the member with token sees it ("": nobody's),
// or the teacher.
func (q *Question) view(token string, teacher bool) *QuestionView {
	v := &QuestionView{ID: q.id, Kind: q.kind, Text: q.text, About: q.about, At: q.at, Open: q.open, Revealed: q.revealed}
	for _, c := range q.choices {
		v.Choices = append(v.Choices, c.label)
	}
	if teacher || q.revealed {
		v.Answered, v.Counts = q.answered, slices.Clone(q.counts)
	}
	if q.revealed {
		v.Truth = q.truth
	}
	if a, ok := q.answers[token]; ok && token != "" {
		v.Mine = &a
	}
	return v
}

// forget drops a leaving member's answer from the tally.
func (q *Question) forget(token string) {
	if a, ok := q.answers[token]; ok {
		delete(q.answers, token)
		if q.open {
			q.counts[a]--
			q.answered--
		}
	}
}

// winner is the move a vote chose: the one with most votes, the first of
// a tie; nil while nobody has voted.
func (q *Question) winner() *scenario.Fault {
	best := -1
	for i, n := range q.counts {
		if n > 0 && (best < 0 || n > q.counts[best]) {
			best = i
		}
	}
	if best < 0 {
		return nil
	}
	return q.choices[best].move
}

// The questions' texts.
var questionTexts = map[string]sim.Text{
	Next:    fact.Say("class.which-client-moves-next"),
	Reply:   fact.Say("class.what-will-this-command-reply"),
	Holder:  fact.Say("class.after-this-step-who-holds-lock"),
	Verdict: fact.Say("class.which-verdict-will-this-run-end"),
	Move:    fact.Say("class.which-move-should-class-play-next"),
}

// freeQuestion is the teacher's own question and choices.
func freeQuestion(a Ask) (*Question, error) {
	bad := func(what string) error {
		return refuse("bad-question", map[string]any{"detail": what}, "class-ask: %s", what)
	}
	text := strings.TrimSpace(a.Text)
	if text == "" || len([]rune(text)) > maxTextRunes {
		return nil, bad(fmt.Sprintf("a free question has a text of 1 to %d characters", maxTextRunes))
	}
	if len(a.Choices) < 2 || len(a.Choices) > MaxChoices {
		return nil, bad(fmt.Sprintf("a free question has 2 to %d choices", MaxChoices))
	}
	q := &Question{kind: Free, text: same(text)}
	for _, c := range a.Choices {
		c = strings.TrimSpace(c)
		if c == "" || len([]rune(c)) > maxChoiceRunes {
			return nil, bad(fmt.Sprintf("a choice is 1 to %d characters", maxChoiceRunes))
		}
		q.choices = append(q.choices, choice{label: same(c)})
	}
	for _, t := range a.Truth {
		if t < 0 || t >= len(q.choices) || slices.Contains(q.truth, t) {
			return nil, bad("truth lists choices by their index, each once")
		}
		q.truth = append(q.truth, t)
	}
	slices.Sort(q.truth)
	return q, nil
}

// same is a word that reads the same in both languages: a client's name,
// a reply, a verdict's id.
func same(s string) sim.Text { return sim.Text{En: s, Zh: s} }
