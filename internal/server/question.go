package server

import (
	"github.com/lockstep/lockstep/internal/class"
	"github.com/lockstep/lockstep/internal/embedded"
	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// The edge of the questions a teacher asks (internal/class computes them):
// class-ask's arguments, and the copies of the teacher's run that a
// question steps, within the session's budgets.

// askRequest is class-ask's question (class.Ask).
type askRequest struct {
	Kind    string   `json:"kind"`              // next, reply, holder, verdict, move, free
	Text    string   `json:"text,omitempty"`    // free: the question
	Choices []string `json:"choices,omitempty"` // free: 2 to class.MaxChoices choices
	Truth   []int    `json:"truth,omitempty"`   // free: the right choices, if any
}

// questionView is a question as a page sees it (class.QuestionView).
type questionView struct {
	ID       int        `json:"id"`
	Kind     string     `json:"kind"`
	Text     sim.Text   `json:"text"`
	About    string     `json:"about,omitempty"`
	Choices  []sim.Text `json:"choices"`
	At       int        `json:"at"`
	Open     bool       `json:"open"`
	Revealed bool       `json:"revealed"`
	Answered int        `json:"answered"`
	Counts   []int      `json:"counts,omitempty"`
	Truth    []int      `json:"truth,omitempty"`
	Mine     *int       `json:"mine,omitempty"` // this student's answer
}

// classAsk computes a question from the teacher's run and opens it; the
// question open before is closed (its tally stays in the history).
func (s *session) classAsk(a *askRequest) error {
	if a == nil {
		return badArg("class-ask", "ask", fact.Say("server.ask-is-missing"))
	}
	if s.ls == nil && s.live != nil && a.Kind != class.Free {
		return classLiveError("class-ask", s.live.svc.Name())
	}
	var l *class.Lesson
	if s.ls != nil {
		l = &class.Lesson{Runs: teacherRuns{s}, Expect: s.srv.expect(s.ls.Scenario()), Challenge: s.challenge}
		if orig, ok := s.srv.find(s.ls.Scenario().ID); ok {
			l.Faults = orig.Faults
		}
	}
	q, err := class.Compute(class.Ask(*a), l)
	if err != nil {
		return err
	}
	at := 0
	if s.ls != nil {
		at = s.ls.Cursor()
	} else if s.live != nil {
		at = s.live.cursor
	}
	s.seat.room.Ask(q, at)
	return nil
}

// teacherRuns steps copies of a session's run for class.Compute, in the
// engine's slices and within the session's budgets.
type teacherRuns struct{ s *session }

func (t teacherRuns) Run() *lesson.Session { return t.s.ls }

// Fork is a copy of the session's run at its cursor, with its recorded
// actions, on embedded Redis: a question's copies are stepped ahead at
// once, which real servers' time would not allow.
func (t teacherRuns) Fork() (*lesson.Session, error) {
	s := t.s
	if s.srv.opts.Servers != nil {
		return nil, coded("class-embedded", nil, "questions computed from the run need embedded Redis (a copy of the run is stepped ahead)")
	}
	var ls *lesson.Session
	var err error
	s.bulkTurn(func() {
		ls, err = lesson.NewSession(s.ls.Scenario(), lesson.Config{Seed: s.ls.Seed(), Servers: embedded.Servers{}})
	})
	if err != nil {
		return nil, err
	}
	s.bulkTurn(func() { err = ls.Follow(s.ls.Actions()) })
	if err == nil {
		err = seekIn(s, ls, s.ls.Cursor())
	}
	if err != nil {
		ls.Close()
		return nil, err
	}
	return ls, nil
}

func (t teacherRuns) Step(fork *lesson.Session) error {
	var err error
	t.s.turn(func() { _, err = fork.Step() })
	return err
}

func (t teacherRuns) StepClient(fork *lesson.Session, c string) (moved bool, err error) {
	t.s.turn(func() { moved, err = fork.StepClient(c) })
	return moved, err
}

func (t teacherRuns) ToEnd(fork *lesson.Session) error {
	return t.s.stepsOf(fork, true, func() (bool, error) {
		if fork.Cursor() >= t.s.srv.limits.MaxSteps {
			return false, nil
		}
		return fork.Step()
	})
}

// classPlay plays the move the class voted for most (the first of a tie)
// on the teacher's run.
func (s *session) classPlay() error {
	win, err := s.seat.room.Vote()
	if err != nil {
		return err
	}
	switch win.Do {
	case class.EngineMove:
		err = s.stepN(1)
	case scenario.StepAction:
		err = s.stepClient(win.Client)
	default:
		err = s.inject(*win)
	}
	s.push(0)
	return err
}
