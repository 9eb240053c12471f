package lesson

import (
	"cmp"
	"fmt"
	"github.com/lockstep/lockstep/internal/fact"
	"maps"
	"slices"

	"github.com/lockstep/lockstep/internal/check"
	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/narrate"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// build makes the world of a run as cfg says, its nodes placed by
// cfg.Servers, ready to step (its recorded actions not played yet).
func build(sc *scenario.Scenario, cfg Config) (*Run, error) {
	if cfg.Servers == nil {
		return nil, fmt.Errorf("scenario %s: no servers to place its nodes on (embedded.Servers{} for embedded Redis)", sc.ID)
	}
	nodes := NodeNames(sc)
	backends, pace, err := cfg.Servers.Place(sc, nodes, cfg.Seed)
	if err != nil {
		return nil, err
	}
	if len(backends) != len(nodes) {
		for _, b := range backends {
			b.Close()
		}
		return nil, fmt.Errorf("scenario %s: %d nodes, %d servers placed", sc.ID, len(nodes), len(backends))
	}
	def := scenario.WithDefaults(sc) // the world is given what a file's blank fields stand for
	w := sim.New(sim.Config{
		Seed:    cfg.Seed,
		Horizon: def.Horizon.D(),
		Latency: def.Network.Latency.D(),
		Jitter:  sc.Network.Jitter.D(),
		Timeout: def.Network.Timeout.D(),
		Pace:    pace,

		MaxSteps: cmp.Or(cfg.MaxSteps, scenario.MaxSteps),
		NoLog:    cfg.Quiet,
		Quorum:   holderQuorum(sc),
	})
	for i, name := range nodes {
		w.AddNodeOn(name, backends[i])
	}
	w.NameScripts(lock.ScriptNames())
	for i := range sc.Locks {
		w.NameScripts(sc.Locks[i].Spec().ScriptNames())
	}
	if !cfg.Quiet {
		w.TraceSources(lock.TracedPackages()) // the code view's lit line
	}
	r := &Run{Scenario: sc, Seed: cfg.Seed, World: w, Checker: check.New(CheckOptions(sc))}
	r.story = narrate.New(r.Checker)
	// The checker's model takes each event first; the story is told from
	// the state it leaves (so is a scripted line's claim checked, by the
	// watchers narrate adds later), and a story line comes before the
	// verdict the same event causes.
	w.Watch(func(e *sim.Event) {
		verdicts := r.Checker.Observe(e)
		r.tell(e)
		for _, v := range verdicts {
			w.Emit(v)
		}
	})
	if err := r.build(); err != nil {
		w.Close()
		return nil, err
	}
	return r, nil
}

// NodeNames gives the scenario's nodes (scenario.DefaultNode when it
// lists none).
func NodeNames(sc *scenario.Scenario) []string { return sc.NodeNames() }

func (r *Run) build() error {
	sc, w := r.Scenario, r.World
	for _, n := range sc.Nodes {
		if n.Offset != 0 {
			if err := w.Node(n.Name).SetClockOffset(n.Offset.D()); err != nil {
				w.Emit(sim.Event{Kind: sim.KindFault, Name: "clock-offset", Node: n.Name,
					Fact: &fact.Fact{Key: fact.NotApplied, Reason: &fact.Fact{Key: fact.ClockNotSet, Reason: fact.Error(err)}}})
			}
		}
	}
	keys := slices.Sorted(maps.Keys(sc.Data))
	if len(keys) > 0 {
		for _, n := range NodeNames(sc)[:1] {
			if err := w.Init(n, sc.Data, keys); err != nil {
				return err
			}
		}
	}
	if err := r.extend(); err != nil {
		return err
	}
	if !w.Config().NoLog {
		r.narrate() // narration is for readers of the log
		if sc.Challenge != nil {
			r.watchGoal()
		}
	}
	for _, c := range sc.Clients {
		prog, err := program(sc, c)
		if err != nil {
			return fmt.Errorf("client %s: %w", c.Name, err)
		}
		w.AddClient(c.Name, prog, sim.ClientOptions{Start: c.Start.D(), Skew: c.Skew.D(), Latency: c.Latency.D()})
	}
	for _, f := range sc.Faults {
		sf := SimFault(f)
		switch {
		case f.At != nil:
			w.At(f.At.D(), sf)
		case f.On != nil:
			w.On(matcher(f.On), sf)
		default:
			return fmt.Errorf("fault %s has neither at nor on", f.Do)
		}
	}
	return nil
}

// SimFault converts a scenario fault to the engine's.
func SimFault(f scenario.Fault) sim.Fault {
	return sim.Fault{Kind: sim.FaultKind(f.Do), Client: f.Client, Node: f.Node, For: f.For.D(), By: f.By.D(), KeepData: f.KeepData}
}

// holderQuorum says on how many nodes a client must hold a lock key to
// hold the lock, by its own algorithm's rule (the checker's options): the
// engine's expiry facts tell a lost Redlock vote from a lost lock.
func holderQuorum(sc *scenario.Scenario) func(client, key string) int {
	opt := CheckOptions(sc)
	return func(client, key string) int {
		if q, ok := opt.ClientQuorum[client][key]; ok {
			return q
		}
		return opt.Quorum[key]
	}
}
