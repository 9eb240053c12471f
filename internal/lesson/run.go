package lesson

import (
	"slices"

	"github.com/lockstep/lockstep/internal/check"
	"github.com/lockstep/lockstep/internal/narrate"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// Run is one scenario running in a world, with its checker.
type Run struct {
	Scenario *scenario.Scenario
	Seed     int64
	World    *sim.World
	Checker  *check.Checker
	done     bool

	story      *narrate.Narrator // the run's story, told from its events
	offScript  bool              // a user action changed the run: scripted lines stop
	byUser     bool              // a user's action is running: its first event leaves the script
	leftAt     int               // the cursor at which a user's action took the run off its script
	actingAt   int               // the cursor at which the running user's action was taken
	unsaid     []Unsaid          // scripted lines not said because their claim was false
	reach      *reach            // when the challenge's goal was reached (challenge.go)
	userFaults int               // faults a user injected so far
}

// Step takes one engine step; when the run ends it adds the final verdicts.
// It returns false once the run is over.
func (r *Run) Step() bool {
	if r.World.Step() {
		return true
	}
	r.finish()
	return false
}

// StepClient lets one client make its next move.
func (r *Run) StepClient(name string) (bool, error) {
	return r.World.StepClient(name)
}

func (r *Run) finish() {
	if r.done {
		return
	}
	r.done = true
	if r.World.Lost() != nil {
		return // a node's server stopped answering: no verdict holds for a run cut there
	}
	if r.World.Capped() {
		r.Checker.StoppedShort()
	}
	for _, v := range r.Checker.Finish() {
		r.World.Emit(v)
	}
}

// RunToEnd steps until the run is over.
func (r *Run) RunToEnd() {
	for r.Step() {
	}
}

// Done reports whether the run is over and its verdicts are in.
func (r *Run) Done() bool { return r.done }

// Verdicts are the checker's verdicts so far.
func (r *Run) Verdicts() []string { return r.Checker.Verdicts() }

// Close releases the world.
func (r *Run) Close() { r.World.Close() }

// Verdicts runs a scenario to its end on embedded Redis, replaying its
// recorded schedule if it has one, and returns its verdicts.
func Verdicts(sc *scenario.Scenario, seed int64) ([]string, error) {
	return VerdictsOn(sc, seed, nil)
}

// SameVerdicts compares two verdict lists as sets.
func SameVerdicts(got, want []string) bool {
	return slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want)))
}
