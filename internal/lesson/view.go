package lesson

import (
	"sort"
	"time"

	"github.com/lockstep/lockstep/internal/check"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// NodeView is what a viewer sees of one node at the cursor.
type NodeView struct {
	Name string         `json:"name"`
	Down bool           `json:"down,omitempty"`
	Keys []sim.KeyState `json:"keys"`
	// Clock is how far the node's clock runs ahead of the world's at the
	// cursor (its clock_offset and the clock jumps so far), in ns; 0 for a
	// service and for a real server, whose clock is not set.
	Clock time.Duration `json:"clock,omitempty"`
}

// View is what a viewer sees of a session at its cursor: all a server
// renders its state message from, without reaching into the run.
type View struct {
	Scenario  *scenario.Scenario
	Seed      int64
	Step      int           // the cursor: steps taken
	T         time.Duration // the virtual time at the cursor
	Ended     bool          // the run is over and its verdicts are in
	Verdicts  []string      // the checker's verdicts so far
	Clients   []string
	Nodes     []NodeView
	Skews     map[string]time.Duration // clients whose clocks run off the world's
	Pending   []string                 // clients with a move to make
	Actions   []scenario.Action        // the recorded actions
	Events    int                      // events logged up to the cursor
	OffScript bool                     // a user's action took the run off the lesson's script
	// OffScriptAt is the cursor at which a user's action took the run off
	// its script (0 unless OffScript).
	OffScriptAt int
	// Kept are the breaks the run's system stopped up to the cursor, as
	// the checker's claims have them.
	Kept []check.Kept
}

// View gives the session at its cursor.
func (s *Session) View() View {
	w := s.run.World
	v := View{Scenario: s.sc, Seed: s.cfg.Seed, Step: w.Steps(), T: w.Now(), Ended: s.run.Done(),
		Verdicts: s.run.Verdicts(), Clients: w.ClientNames(), Nodes: s.Nodes(), Skews: s.Skews(),
		Pending: s.Pending(), Actions: s.run.Actions(), Events: len(w.Log()), OffScript: s.run.OffScript(),
		Kept: s.run.Checker.Kept()}
	if at, off := s.run.LeftScriptAt(); off {
		v.OffScriptAt = at
	}
	return v
}

// Clients names the run's clients (what View gives as Clients, without
// the rest of the view).
func (s *Session) Clients() []string { return s.run.World.ClientNames() }

// Verdicts are the checker's verdicts so far (what View gives as
// Verdicts, without the rest of the view).
func (s *Session) Verdicts() []string { return s.run.Verdicts() }

// Lost is the error of a run whose real Redis server stopped answering
// (the run has ended there), nil otherwise.
func (s *Session) Lost() error { return s.run.World.Lost() }

// Sections says which critical sections event seq opens and closes, as
// the checker's model of holders has them (the timeline's bars).
func (s *Session) Sections(seq int) check.SectionChange { return s.run.Checker.Sections(seq) }

// Footprint is what the session's world holds now: its events and its
// live client threads (a server's memory estimate).
func (s *Session) Footprint() (events, threads int) { return s.run.Footprint() }

// Pending lists the clients that have a move to make at the cursor.
func (s *Session) Pending() []string {
	if s.run.Done() {
		return nil // the run is over: nobody moves again
	}
	return s.run.World.Pending()
}

// Nodes gives every node's keys at the cursor, read from the event log
// (never from the nodes themselves: reading a node would touch its expiry
// bookkeeping and could change the run). A key's TTL is what remains of it
// at the cursor's virtual time.
func (s *Session) Nodes() []NodeView {
	names := append(s.run.World.NodeNames(), s.run.World.ServiceNames()...)
	log := s.Log()
	f := s.fold
	if f == nil || f.run != s.run || f.upto > len(log) {
		f = newKeyFold(names)
		f.run = s.run
		s.fold = f
	}
	f.add(log[f.upto:])
	f.upto = len(log)
	views := f.views(names, s.run.World.Now())
	for i := range views {
		// The world is at the cursor (a step back replays it), so its
		// clocks are the cursor's.
		if n := s.run.World.Node(views[i].Name); n != nil {
			views[i].Clock = n.ClockOffset()
		}
	}
	return views
}

// Skews gives, for each client whose clock runs off the world's at the
// cursor, how far ahead it runs (nil when none does).
func (s *Session) Skews() map[string]time.Duration {
	var out map[string]time.Duration
	for _, c := range s.run.World.ClientNames() {
		if d := s.run.World.Skew(c); d != 0 {
			if out == nil {
				out = map[string]time.Duration{}
			}
			out[c] = d
		}
	}
	return out
}

// NodesAt replays the key states that a log records up to now.
func NodesAt(names []string, log []*sim.Event, now time.Duration) []NodeView {
	f := newKeyFold(names)
	f.add(log)
	return f.views(names, now)
}

// keyFold is the key states of a log folded event by event, so that a
// session adds only the events logged since its last view instead of
// replaying its whole log on every step.
type keyFold struct {
	run  *Run // the run whose log is folded
	upto int  // events folded
	keys map[string]map[string]sim.KeyState
	down map[string]bool
}

func newKeyFold(names []string) *keyFold {
	f := &keyFold{keys: map[string]map[string]sim.KeyState{}, down: map[string]bool{}}
	for _, n := range names {
		f.keys[n] = map[string]sim.KeyState{}
	}
	return f
}

// add folds events into the key states.
func (f *keyFold) add(log []*sim.Event) {
	for _, e := range log {
		m := f.keys[e.Node]
		if m == nil {
			continue
		}
		switch {
		case e.Effect() == sim.EffectDown:
			f.down[e.Node] = true
			continue
		case e.Effect() == sim.EffectUp:
			f.down[e.Node] = false
			clear(m)
		case e.Kind != sim.KindInit && e.Kind != sim.KindExec && e.Kind != sim.KindExpire && e.Kind != sim.KindReplicate:
			continue
		}
		for _, k := range e.Keys {
			if k.Exists() {
				m[k.Key] = k
			} else {
				delete(m, k.Key)
			}
		}
	}
}

// views gives each node's keys at virtual time now, with what remains of
// their TTLs.
func (f *keyFold) views(names []string, now time.Duration) []NodeView {
	out := make([]NodeView, 0, len(names))
	nowMS := int64(now / time.Millisecond)
	for _, n := range names {
		v := NodeView{Name: n, Down: f.down[n], Keys: []sim.KeyState{}}
		for _, k := range f.keys[n] {
			if k.Expire > 0 {
				k.TTL = max(k.Expire-nowMS, 0)
			}
			v.Keys = append(v.Keys, k)
		}
		sort.Slice(v.Keys, func(i, j int) bool { return v.Keys[i].Key < v.Keys[j].Key })
		out = append(out, v)
	}
	return out
}
