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
			for _, e := range log {
				if e.Step == a.Step+1 && e.Client == a.Client && e.Kind != sim.KindSay && e.Kind != sim.KindVerdict {
					out = append(out, e.Seq)
				}
			}
		case a.On != nil:
			seen := 0
			for _, e := range log {
				if seen < max(a.On.Nth, 1) {
					if lesson.Matches(a.On, e) {
						seen++
					}
					continue
				}
				if isFault(e, a.Fault) {
					out = append(out, e.Seq)
					break
				}
			}
		default:
			for _, e := range log {
				if e.Step == a.Step && isFault(e, a.Fault) {
					out = append(out, e.Seq)
					break
				}
			}
		}
	}
	return out
}

// isFault reports whether e is the event of fault f being applied.
func isFault(e *sim.Event, f scenario.Fault) bool {
	return e.Kind == sim.KindFault && e.Name == f.Do && e.Client == f.Client && e.Node == f.Node
}
