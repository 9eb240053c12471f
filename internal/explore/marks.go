package explore

import (
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// Marks lists the sequence numbers of the events in log (a replay of a
// search's recording) that the search's choices produced, so that a
// timeline can mark them: the events of each manual step (the step taken
// at the entry's cursor), the fault event of each fault placed at a step,
// and of each fault placed on a mark, the first fault event of its kind
// and target after that mark.
func Marks(log []*sim.Event, choices []scenario.Action) []int {
	var out []int
	for _, a := range choices {
		switch {
		case a.Do == scenario.StepAction:
			out = append(out, stepEvents(log, a)...)
		case a.On != nil:
			out = append(out, faultAfterMark(log, a)...)
		default:
			out = append(out, faultAtStep(log, a)...)
		}
	}
	return out
}

// stepEvents are the events of a manual step: the client's, at the step
// after the entry's cursor, but for narration and verdicts.
func stepEvents(log []*sim.Event, a scenario.Action) []int {
	var out []int
	for _, e := range log {
		if e.Step == a.Step+1 && e.Client == a.Client && e.Kind != sim.KindSay && e.Kind != sim.KindVerdict {
			out = append(out, e.Seq)
		}
	}
	return out
}

// faultAfterMark is the first event of a's fault after its mark (the
// mark's Nth occurrence); none when there is none.
func faultAfterMark(log []*sim.Event, a scenario.Action) []int {
	seen := 0
	for _, e := range log {
		if seen < max(a.On.Nth, 1) {
			if lesson.Matches(a.On, e) {
				seen++
			}
			continue
		}
		if isFault(e, a.Fault) {
			return []int{e.Seq}
		}
	}
	return nil
}

// faultAtStep is the event of a's fault at its step; none when there is
// none.
func faultAtStep(log []*sim.Event, a scenario.Action) []int {
	for _, e := range log {
		if e.Step == a.Step && isFault(e, a.Fault) {
			return []int{e.Seq}
		}
	}
	return nil
}

// isFault reports whether e is the event of fault f being applied.
func isFault(e *sim.Event, f scenario.Fault) bool {
	return e.Kind == sim.KindFault && e.Name == f.Do && e.Client == f.Client && e.Node == f.Node
}
