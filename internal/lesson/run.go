package lesson

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/lockstep/lockstep/internal/check"
	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/narrate"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// Config says how a run of a scenario is built.
type Config struct {
	Seed int64
	// Servers places the run's nodes: embedded.Servers{} for embedded
	// Redis, realredis' for real servers. Required.
	Servers Servers
	// Quiet leaves out the event log and the narration, for a search that
	// runs many schedules and reads only their verdicts. The checker still
	// sees every event, with the key states it needs.
	Quiet bool
	// MaxSteps caps the run (0: scenario.MaxSteps).
	MaxSteps int
	// Setup, if set, is given the run before it plays anything (before the
	// faults its schedule records at step 0): to watch its world from its
	// first event.
	Setup func(*Run)
	// OnAction, if set, is told of each recorded action of the schedule
	// once it is played: a fault once applied, a manual step once taken.
	OnAction func(scenario.Action)
	// Choose, if set, names the client to move when the run takes the
	// engine's own step (no manual step is recorded there): "" leaves the
	// choice to the engine, as does a client with no move to make.
	Choose func(*sim.World) string
	// Yield, if set, is called with the run before RunToEnd's first step
	// and every yieldSteps steps after it, and every yieldSteps faults
	// recorded at one step (a share link may record thousands at step 0):
	// the caller may hand the CPU to other work there, hold the run to a
	// memory budget (Footprint), or stop it by returning an error, which
	// RunToEnd, Step or the run's making returns. It must not change the
	// run: the run's log is the same with it as without.
	Yield func(*Run) error
}

// yieldSteps is how many engine steps RunToEnd takes, or recorded faults
// a step applies, between two calls of Config.Yield.
const yieldSteps = 16

// Run is one scenario running in a world, with its checker. A run plays
// its scenario's recorded schedule (schedule:, the actions a viewer took)
// as it steps: the one interpreter of recorded actions, which the session,
// the search and the comparison all step through. At each step, the faults
// recorded there are applied once the run reaches it, then a manual step
// recorded there is taken instead of the engine's own choice.
type Run struct {
	Scenario *scenario.Scenario
	Seed     int64
	World    *sim.World
	Checker  *check.Checker
	done     bool

	actions  []scenario.Action // the recorded actions: the schedule, then the user's
	next     int               // index of the next action to play
	script   []scenario.Action // the scenario's own schedule, when it is its script (no narration): not a user's change
	scripted int               // how many leading actions are the script's, action for action
	onAction func(scenario.Action)
	choose   func(*sim.World) string
	yield    func(*Run) error

	story      *narrate.Narrator // the run's story, told from its events
	offScript  bool              // a user action changed the run: scripted lines stop
	byUser     bool              // a user's action is running: its first event leaves the script
	leftAt     int               // the cursor at which a user's action took the run off its script
	actingAt   int               // the cursor at which the running user's action was taken
	unsaid     []Unsaid          // scripted lines not said because their claim was false
	reach      *reach            // when the challenge's goal was reached (challenge.go)
	userFaults int               // faults a user injected so far
}

// New builds the run of a scenario, ready to step, with the faults its
// schedule records at step 0 applied. The caller closes it.
// A scenario without scripted narration (a schedule found by a search:
// its narration went with its author's schedule) has its own schedule as
// its script: playing it does not take the run off its script. With
// narration, the narration is the script, and any recorded action leaves
// it, as the user's action it records did (a user's recording of a lesson
// replays the same log).
func New(sc *scenario.Scenario, cfg Config) (*Run, error) {
	return newRun(sc, sc.Schedule, cfg)
}

// newRun builds the run of sc that plays sc.Schedule, where script is
// the scenario's own schedule: when sc has no scripted narration, the
// recorded actions that are the script's, from the first, are the
// scenario's doing; from the first that differs they are a user's, and
// take the run off its script.
func newRun(sc *scenario.Scenario, script []scenario.Action, cfg Config) (*Run, error) {
	r, err := build(sc, cfg)
	if err != nil {
		return nil, err
	}
	r.actions, r.onAction, r.choose, r.yield = slices.Clone(sc.Schedule), cfg.OnAction, cfg.Choose, cfg.Yield
	if len(sc.Narration) == 0 {
		r.script = slices.Clone(script)
	}
	r.countScripted()
	if cfg.Setup != nil {
		cfg.Setup(r)
	}
	if err := r.playFaults(); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// MisfitError is a recorded action that does not fit the run (an edited
// file, a recording of another run): a fault that does not apply there, a
// manual step of a client with no move to make, or an action the run never
// reaches.
type MisfitError struct {
	Action scenario.Action
	Err    error // why, when the engine said
	msg    string
}

func (e *MisfitError) Error() string { return e.msg }

func (e *MisfitError) Unwrap() error { return e.Err }

func misfit(a scenario.Action, err error, format string, args ...any) *MisfitError {
	return &MisfitError{Action: a, Err: err, msg: fmt.Sprintf(format, args...)}
}

// playFaults applies the recorded faults of the current step.
func (r *Run) playFaults() error {
	for n := 1; r.next < len(r.actions) && r.actions[r.next].Step == r.World.Steps() && r.actions[r.next].Do != scenario.StepAction; n++ {
		if r.yield != nil && n%yieldSteps == 0 {
			if err := r.yield(r); err != nil {
				return err
			}
		}
		a, i := r.actions[r.next], r.next
		r.next++
		f := SimFault(a.Fault)
		err := r.recorded(i, func() error { return r.World.Apply(f) })
		if errors.Is(err, sim.ErrUnavailable) {
			// What a real server cannot suffer on request (a clock jump) is
			// shown as not applied and the run goes on, as a scripted
			// fault's (World.At): a recording made on embedded Redis
			// replays there, to its real_redis verdicts.
			r.World.Emit(sim.Event{Kind: sim.KindFault, Name: string(f.Kind), Client: f.Client, Node: f.Node,
				Fact: &fact.Fact{Key: fact.NotApplied, Reason: fact.Error(err)}})
			err = nil
		}
		if err != nil {
			return misfit(a, err, "recorded %s at step %d: %v", a.Do, a.Step, err)
		}
		r.userFaults++
		r.played(a)
	}
	return nil
}

// recorded plays the recorded action at index i: as the scenario's own
// when it is one of the script's, else as a user's.
func (r *Run) recorded(i int, act func() error) error {
	if i < r.scripted {
		return act()
	}
	return r.ByUser(act)
}

// countScripted counts the leading recorded actions that are the
// script's, action for action.
func (r *Run) countScripted() {
	n := 0
	for n < len(r.actions) && n < len(r.script) && sameAction(r.actions[n], r.script[n]) {
		n++
	}
	r.scripted = n
}

// played tells OnAction of a recorded action played.
func (r *Run) played(a scenario.Action) {
	if r.onAction != nil {
		r.onAction(a)
	}
}

// Step takes the next step as recorded: a manual step of a client if one
// is recorded here, else the engine's own choice; then the faults recorded
// at the new step. When the run ends it adds the final verdicts. It
// returns false once the run is over.
func (r *Run) Step() (bool, error) {
	if r.next < len(r.actions) && r.actions[r.next].Step == r.World.Steps() && r.actions[r.next].Do == scenario.StepAction {
		a, i := r.actions[r.next], r.next
		r.next++
		var ok bool
		err := r.recorded(i, func() (err error) { ok, err = r.World.StepClient(a.Client); return err })
		if err != nil {
			return false, misfit(a, err, "recorded step of %s at step %d: %v", a.Client, a.Step, err)
		}
		if !ok {
			// The recording no longer fits the run: say so rather than
			// end the run quietly without its verdicts.
			return false, misfit(a, nil, "recorded step of %s at step %d: %s has no move to make there", a.Client, a.Step, a.Client)
		}
		r.played(a)
	} else if !r.engineStep() {
		r.finish()
		return false, nil
	}
	return true, r.playFaults()
}

// engineStep is the engine's own step, or the move of the client Choose
// names. It returns false once the world is over.
func (r *Run) engineStep() bool {
	if r.choose != nil {
		if c := r.choose(r.World); c != "" {
			if ok, err := r.World.StepClient(c); ok && err == nil {
				return true
			}
		}
	}
	return r.World.Step()
}

// RunToEnd steps, playing the recorded actions, until the run is over and
// its final verdicts are in. A recorded action the run never reaches (its
// step is past the run's end) does not fit it.
func (r *Run) RunToEnd() error {
	for n := 0; ; n++ {
		if r.yield != nil && n%yieldSteps == 0 {
			if err := r.yield(r); err != nil {
				return err
			}
		}
		ok, err := r.Step()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
	}
	if err := r.World.Lost(); err != nil {
		// A node's server stopped answering: no verdict holds for a run
		// cut there.
		return fmt.Errorf("the run stopped at step %d: %w", r.World.Steps(), err)
	}
	if r.next < len(r.actions) {
		a := r.actions[r.next]
		return misfit(a, nil, "recorded %s at step %d is never reached: the run ends at step %d", a.Do, a.Step, r.World.Steps())
	}
	return nil
}

// ErrStepCap is the error of a run that reached the step cap before it
// ended (Cut): its verdicts cover the steps it ran only.
var ErrStepCap = errors.New("the run reached the step cap before it ended")

// Cut is nil for a run that ended on its own, and ErrStepCap, saying how
// far it got, for one the step cap stopped.
func (r *Run) Cut() error {
	if w := r.World; w.Capped() {
		return fmt.Errorf("%w: %d steps at %s; its verdicts (%s) cover those steps only",
			ErrStepCap, w.Steps(), w.Now(), strings.Join(r.Verdicts(), ", "))
	}
	return nil
}

// Actions are the run's recorded actions: its schedule's, then the ones a
// user took (Move, Inject).
func (r *Run) Actions() []scenario.Action { return r.actions }

// fork drops the recorded actions not played yet, before a user's new one.
func (r *Run) fork() { r.actions, r.scripted = r.actions[:r.next], min(r.scripted, r.next) }

// Move lets a client make its next move now, as a user's action, and
// records it. It returns false if the client had nothing to do. The last
// move made by hand ends the run at once: the verdict follows it, as it
// follows the engine's own last step.
func (r *Run) Move(client string) (bool, error) {
	if r.World.Ended() {
		return false, nil
	}
	r.fork()
	at := r.World.Steps()
	var ok bool
	err := r.ByUser(func() (err error) { ok, err = r.World.StepClient(client); return err })
	if err != nil || !ok {
		return ok, err
	}
	r.actions = append(r.actions, scenario.Action{Step: at, Fault: scenario.Fault{Do: scenario.StepAction, Client: client}})
	r.next = len(r.actions)
	if r.World.Idle() {
		if _, err := r.Step(); err != nil {
			return true, err
		}
	}
	return true, nil
}

// Inject applies a fault now, as a user's action, and records it.
func (r *Run) Inject(f scenario.Fault) error {
	if r.World.Ended() {
		return fmt.Errorf("the run is over: step back to inject a fault")
	}
	f.At, f.On = nil, nil
	// A pause that would end before the client's current one changes
	// nothing (the engine lets a script's pause pass): a user's is refused,
	// and says why, rather than recorded and silently lost.
	if sf := SimFault(f); sf.Kind == sim.FaultPause && sf.For > 0 {
		if until, ok := r.World.PausedUntil(sf.Client); ok && r.World.Now()+sf.For <= until {
			return sim.Refuse(&fact.Fact{Key: fact.AlreadyPaused, Client: sf.Client, Until: until, For: sf.For})
		}
	}
	r.fork()
	if err := r.ByUser(func() error { return r.World.Apply(SimFault(f)) }); err != nil {
		return err
	}
	r.userFaults++
	r.actions = append(r.actions, scenario.Action{Step: r.World.Steps(), Fault: f})
	r.next = len(r.actions)
	return nil
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

// Footprint is what the run's world holds now: its events and its live
// client threads (a server's memory estimate).
func (r *Run) Footprint() (events, threads int) {
	return len(r.World.Log()), r.World.Threads()
}

// Done reports whether the run is over and its verdicts are in.
func (r *Run) Done() bool { return r.done }

// Verdicts are the checker's verdicts so far.
func (r *Run) Verdicts() []string { return r.Checker.Verdicts() }

// Close releases the world.
func (r *Run) Close() { r.World.Close() }

// SameVerdicts compares two verdict lists as sets.
func SameVerdicts(got, want []string) bool {
	return slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want)))
}
