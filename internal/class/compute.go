package class

import (
	"github.com/lockstep/lockstep/internal/fact"
	"slices"
	"strings"

	"github.com/lockstep/lockstep/internal/check"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// A question is computed from the teacher's run: its choices are what the
// run allows (the clients that can move, the replies the command can get,
// the verdict names) and its truth is what a copy of the run does next,
// taken as the teacher's Step takes it (the engine's own choice and the
// recorded actions). A free question has the teacher's choices and, if
// the teacher says so, truth.

// Runs is the teacher's run and the means to step copies of it. The
// server steps them within its budgets (its engine slots, the step cap),
// as it steps every run.
type Runs interface {
	// Run is the teacher's run, which questions read and never step.
	Run() *lesson.Session
	// Fork is a copy of the run at its cursor, with its recorded actions,
	// to step ahead without touching the run.
	Fork() (*lesson.Session, error)
	// Step takes one step of a copy, as the teacher's Step would.
	Step(fork *lesson.Session) error
	// StepClient steps client c of a copy, as a hand step does; false when
	// c cannot move.
	StepClient(fork *lesson.Session, c string) (bool, error)
	// ToEnd plays a copy to its end, or to the step cap.
	ToEnd(fork *lesson.Session) error
}

// Lesson is what computing a question needs: the teacher's run and what
// its lesson says.
type Lesson struct {
	Runs      Runs
	Expect    []string         // the verdicts the lesson expects
	Challenge bool             // the run is the lesson's challenge: the class may vote on moves
	Faults    []scenario.Fault // the faults of the lesson the challenge comes from
}

// EngineMove is the Do of a class's vote for the engine's own step: a
// choice of the move question only, never a schedule action (a recorded
// run says nothing of an engine step; a hand step is scenario.StepAction).
const EngineMove = "engine"

// maxLookAhead is how many steps a copy of the run takes at most to find
// a command's reply.
const maxLookAhead = 2000

// Compute makes the question a asks of the lesson l's run (nil: no run is
// loaded; only a free question needs none).
func Compute(a Ask, l *Lesson) (*Question, error) {
	if a.Kind == Free {
		return freeQuestion(a)
	}
	text, ok := questionTexts[a.Kind]
	if !ok {
		return nil, badArg("class-ask", "kind", fact.Say("class.kind-is-one-of-next-reply"))
	}
	if l == nil {
		return nil, refuse("no-scenario", nil, "no scenario loaded: send load first")
	}
	if l.Runs.Run().Done() {
		return nil, refuse("run-over", nil, "the run is over: step back to inject a fault")
	}
	q := &Question{kind: a.Kind, text: text}
	fork, err := l.Runs.Fork()
	if err != nil {
		return nil, err
	}
	defer fork.Close()
	switch a.Kind {
	case Next:
		err = l.askNext(q, fork)
	case Holder:
		err = l.askHolder(q, fork)
	case Verdict:
		err = l.askVerdict(q, fork)
	case Reply:
		err = l.askReply(q, fork)
	case Move:
		err = l.askMove(q)
	}
	return q, err
}

var (
	labelNone   = fact.Say("class.no-client-key-expires")
	labelNobody = fact.Say("class.nobody")
	labelMany   = fact.Say("class.two-or-more-at-once")
)

// askNext: the clients that can move now, and "no client" when a key with
// a TTL could expire first; the truth is whose event the next step logs.
func (l *Lesson) askNext(q *Question, fork *lesson.Session) error {
	before := len(fork.Log())
	if err := l.Runs.Step(fork); err != nil {
		return err
	}
	who := ""
	for _, e := range fork.Log()[before:] {
		if e.Client != "" {
			who = e.Client
			break
		}
	}
	run := l.Runs.Run()
	for _, c := range run.Pending() {
		if c == who {
			q.truth = []int{len(q.choices)}
		}
		q.choices = append(q.choices, choice{label: same(c)})
	}
	if who != "" && q.truth == nil { // a client the pending list does not name
		q.truth = []int{len(q.choices)}
		q.choices = append(q.choices, choice{label: same(who)})
	}
	ttl := false
	for _, n := range run.Nodes() {
		for _, k := range n.Keys {
			ttl = ttl || k.TTL > 0
		}
	}
	if who == "" || ttl {
		if who == "" {
			q.truth = []int{len(q.choices)}
		}
		q.choices = append(q.choices, choice{label: labelNone})
	}
	return nil
}

// askHolder: each client, nobody, and (for three clients or more) two or
// more at once, or (for two) both; the truth is who is inside a critical
// section after the next step, as the checker counts it.
func (l *Lesson) askHolder(q *Question, fork *lesson.Session) error {
	if err := l.Runs.Step(fork); err != nil {
		return err
	}
	inside := insideAfter(fork)
	clients := l.Runs.Run().Clients()
	for _, c := range clients {
		q.choices = append(q.choices, choice{label: same(c)})
	}
	switch {
	case len(inside) == 0:
		q.truth = []int{len(q.choices)}
	case len(inside) == 1:
		q.truth = []int{slices.Index(clients, inside[0])}
	default:
		q.truth = []int{len(q.choices) + 1}
	}
	q.choices = append(q.choices, choice{label: labelNobody})
	many := labelMany
	if len(clients) == 2 {
		many = fact.Say("class.two-clients", clients[0], clients[1])
	}
	q.choices = append(q.choices, choice{label: many})
	return nil
}

// insideAfter is who is inside a critical section at the end of a run's
// log, from the checker's account of each event.
func insideAfter(ls *lesson.Session) []string {
	var in []string
	for _, e := range ls.Log() {
		c := ls.Sections(e.Seq)
		in = slices.DeleteFunc(in, func(x string) bool { return slices.Contains(c.Leave, x) })
		in = append(in, c.Enter...)
	}
	return in
}

// askVerdict: the verdicts the run ends with (the copy run to its end),
// the lesson's expected ones, safe, and others of the checker's until
// there are four; sorted by name, so the order gives nothing away.
func (l *Lesson) askVerdict(q *Question, fork *lesson.Session) error {
	if err := l.Runs.ToEnd(fork); err != nil {
		return err
	}
	truth := slices.Compact(slices.Sorted(slices.Values(fork.Verdicts())))
	if len(truth) == 0 {
		truth = []string{check.Safe}
	}
	names := append(slices.Clone(truth), l.Expect...)
	names = append(names, check.Safe)
	for _, v := range sim.Verdicts {
		if len(slices.Compact(slices.Sorted(slices.Values(names)))) >= 4 {
			break
		}
		names = append(names, v)
	}
	names = slices.Compact(slices.Sorted(slices.Values(names)))
	for i, n := range names {
		if slices.Contains(truth, n) {
			q.truth = append(q.truth, i)
		}
		q.choices = append(q.choices, choice{label: same(n)})
	}
	return nil
}

// askMove: in a challenge, the moves the class may vote for: the engine's
// own step, each client that can move, and the faults of the lesson the
// challenge comes from (the learner places them), each at the cursor.
func (l *Lesson) askMove(q *Question) error {
	if !l.Challenge {
		return refuse("class-no-challenge", nil, "a vote on moves is for a challenge: take the challenge first")
	}
	run := l.Runs.Run()
	engine := scenario.Fault{Do: EngineMove}
	q.choices = append(q.choices, choice{label: fact.Say("class.let-engine-choose"), move: &engine})
	for _, c := range run.Pending() {
		f := scenario.Fault{Do: scenario.StepAction, Client: c}
		q.choices = append(q.choices, choice{label: fact.Say("class.step-client", c), move: &f})
	}
	sc := run.Scenario()
	for _, f := range l.Faults {
		f.At, f.On = nil, nil
		if len(q.choices) >= MaxChoices || scenario.CheckFault(sc, f) != nil {
			continue
		}
		if slices.ContainsFunc(q.choices, func(c choice) bool { return c.move != nil && *c.move == f }) {
			continue
		}
		q.choices = append(q.choices, choice{label: faultLabel(f), move: &f})
	}
	return nil
}

// faultLabel names a fault in both languages: "pause A 1s", and its
// name in Chinese (sim.ZhName) with the same tail.
func faultLabel(f scenario.Fault) sim.Text {
	parts := []string{f.Client, f.Node}
	if f.For != 0 {
		parts = append(parts, sim.FormatTime(f.For.D()))
	}
	if f.By > 0 {
		parts = append(parts, "+"+sim.FormatTime(f.By.D()))
	} else if f.By < 0 {
		parts = append(parts, sim.FormatTime(f.By.D())) // already "-2s"
	}
	tail := strings.Join(slices.DeleteFunc(parts, func(p string) bool { return p == "" }), " ")
	return sim.Text{En: strings.TrimSpace(f.Do + " " + tail), Zh: strings.TrimSpace(sim.ZhName(f.Do) + " " + tail)}
}
