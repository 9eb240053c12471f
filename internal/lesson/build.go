package lesson

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/lockstep/lockstep/internal/check"
	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/narrate"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// StockKey is the key of the stock counter that the deduct task works on.
const StockKey = "stock"

// Run is one scenario running in a world, with its checker.
type Run struct {
	Scenario *scenario.Scenario
	Seed     int64
	World    *sim.World
	Checker  *check.Checker
	done     bool

	story     *narrate.Narrator // the run's story, told from its events
	offScript bool              // a user action changed the run: scripted lines stop
	byUser    bool              // a user's action is running: its first event leaves the script
	unsaid    []Unsaid          // scripted lines not said because their claim was false

	reach      *reach // when the challenge's goal was reached (challenge.go)
	userFaults int    // faults a user injected so far
}

// Build makes the world for a scenario and seed, ready to step.
func Build(sc *scenario.Scenario, seed int64) (*Run, error) {
	return build(sc, seed, sim.Config{}, nil)
}

// build makes the world with cfg's pacer and epoch, on backends (one per
// node; none: embedded Redis).
func build(sc *scenario.Scenario, seed int64, cfg sim.Config, backends []sim.Backend) (*Run, error) {
	w := sim.New(sim.Config{
		Seed:    seed,
		Horizon: sc.Horizon.D(),
		Latency: sc.Network.Latency.D(),
		Jitter:  sc.Network.Jitter.D(),
		Timeout: sc.Network.Timeout.D(),
		Pace:    cfg.Pace,
		Epoch:   cfg.Epoch,

		MaxSteps: cmp.Or(cfg.MaxSteps, scenario.MaxSteps),
		NoLog:    cfg.NoLog,
	})
	for i, name := range NodeNames(sc) {
		if i < len(backends) {
			w.AddNodeOn(name, backends[i])
		}
	}
	w.NameScripts(lock.ScriptNames())
	if !cfg.NoLog {
		w.TraceSource(lock.PkgPath) // the code view's lit line
	}
	r := &Run{Scenario: sc, Seed: seed, World: w, Checker: check.New(CheckOptions(sc)), story: narrate.New()}
	// The story observes each event first, so that a scripted line's
	// claim is checked against the state the event leaves, and a story
	// line comes before the verdict the same event causes.
	w.Watch(r.tell)
	w.Watch(func(e *sim.Event) {
		for _, v := range r.Checker.Observe(e) {
			w.Emit(v)
		}
	})
	if err := r.build(); err != nil {
		w.Close()
		return nil, err
	}
	return r, nil
}

// CheckOptions tells the checker what the scenario's log does not: the
// stock key, the keys of its clients' locks, Redlock's quorum and which
// nodes are replicas.
func CheckOptions(sc *scenario.Scenario) check.Options {
	opt := check.Options{StockKey: StockKey, Quorum: map[string]int{}, ReplicaOf: map[string]string{},
		FencedStorage: sc.Storage != nil && sc.Storage.Fencing}
	masters := 0
	for _, n := range sc.Nodes {
		if n.ReplicaOf != "" {
			opt.ReplicaOf[n.Name] = n.ReplicaOf
		} else {
			masters++
		}
	}
	if len(sc.Nodes) == 0 {
		masters = 1
	}
	for _, c := range sc.Clients {
		algo, ok := lock.Lookup(c.Algorithm)
		if !ok || algo.Unguarded {
			continue
		}
		opts, err := algo.Decode(c.Params)
		if err != nil {
			continue
		}
		res := Resource(opts)
		if !slices.Contains(opt.Locks, res) {
			opt.Locks = append(opt.Locks, res)
		}
		repairs := false
		if o, ok := opts.(*lock.SetNXThenExpireOptions); ok {
			repairs = o.Repair
		}
		recovers := c.Algorithm == "setnx-getset-timestamp" || repairs ||
			c.Algorithm == "mysql-unique-key" && sc.SQL != nil && sc.SQL.SweepEvery > 0
		if recovers && !slices.Contains(opt.Recovers, res) {
			opt.Recovers = append(opt.Recovers, res)
		}
		if o, ok := opts.(*lock.RedlockOptions); ok {
			q := masters/2 + 1
			if o.Quorum > 0 {
				q = min(o.Quorum, masters)
			}
			opt.Quorum[res] = max(opt.Quorum[res], q)
		}
	}
	return opt
}

// NodeNames gives the scenario's nodes (one "redis" node by default).
func NodeNames(sc *scenario.Scenario) []string {
	if len(sc.Nodes) == 0 {
		return []string{"redis"}
	}
	out := make([]string, len(sc.Nodes))
	for i, n := range sc.Nodes {
		out[i] = n.Name
	}
	return out
}

func (r *Run) build() error {
	sc, w := r.Scenario, r.World
	for _, name := range NodeNames(sc) {
		if w.Node(name) == nil {
			w.AddNode(name)
		}
	}
	for _, n := range sc.Nodes {
		if n.Offset != 0 {
			if err := w.Node(n.Name).SetClockOffset(n.Offset.D()); err != nil {
				w.Emit(sim.Event{Kind: sim.KindFault, Name: "clock-offset", Node: n.Name,
					Note: sim.NotApplied + ": " + err.Error() + " (its clock cannot be set)"})
			}
		}
	}
	keys := make([]string, 0, len(sc.Data))
	for k := range sc.Data {
		keys = append(keys, k)
	}
	sort.Strings(keys)
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

// matcher turns a Match into an event predicate that fires on the Nth match.
func matcher(m *scenario.Match) func(*sim.Event) bool {
	nth := m.Nth
	if nth <= 0 {
		nth = 1
	}
	seen := 0
	return func(e *sim.Event) bool {
		if !Matches(m, e) {
			return false
		}
		seen++
		return seen == nth
	}
}

// Matches reports whether an event has every property the match sets.
func Matches(m *scenario.Match, e *sim.Event) bool {
	if m.Kind != "" && m.Kind != string(e.Kind) || m.Name != "" && m.Name != e.Name ||
		m.Client != "" && m.Client != e.Client || m.Node != "" && m.Node != e.Node {
		return false
	}
	if m.Cmd != "" && (len(e.Cmd) == 0 || !strings.EqualFold(m.Cmd, e.Cmd[0])) {
		return false
	}
	if m.Key != "" {
		found := e.Lock == m.Key
		for _, k := range e.Keys {
			found = found || k.Key == m.Key
		}
		if !found {
			return false
		}
	}
	return e.Kind != sim.KindSay && e.Kind != sim.KindVerdict || m.Kind == string(e.Kind)
}

// narrate attaches the scenario's narration to the moments it names. A
// line is said only while the run is on its script, and only if its claim
// holds.
func (r *Run) narrate() {
	w := r.World
	for i := range r.Scenario.Narration {
		n := r.Scenario.Narration[i]
		text := n.Text
		fired := false
		var match func(*sim.Event) bool
		switch {
		case n.On != nil:
			match = matcher(n.On)
		case n.At != nil:
			at := n.At.D()
			match = func(e *sim.Event) bool { return e.T >= at && e.Kind != sim.KindSay }
		default:
			match = func(e *sim.Event) bool { return e.Kind != sim.KindSay }
		}
		w.Watch(func(e *sim.Event) {
			if fired || r.offScript || !match(e) {
				return
			}
			fired = true
			if why := r.falseClaim(n.Claim, e); why != "" {
				r.unsaid = append(r.unsaid, Unsaid{Line: i, At: e.Seq, Why: why})
				return
			}
			w.Emit(sim.Event{Kind: sim.KindSay, Say: &sim.Text{En: text.En, Zh: text.Zh}, Refs: []int{e.Seq}})
		})
	}
}

// program builds a client's code: its algorithm around its workload.
func program(sc *scenario.Scenario, c scenario.Client) (sim.Program, error) {
	algo, ok := lock.Lookup(c.Algorithm)
	if !ok {
		return nil, fmt.Errorf("unknown algorithm %q", c.Algorithm)
	}
	opts, err := algo.Decode(c.Params)
	if err != nil {
		return nil, err
	}
	requests := c.Requests
	if requests <= 0 {
		requests = 1
	}
	cl := &client{sc: sc, c: c, algo: algo, opts: opts, resource: Resource(opts), node: NodeNames(sc)[0], requests: requests}
	return cl.run, nil
}

// lockConfig is what a client's algorithm is built from, for one request:
// its typed options; its marks are about the lock res.
func lockConfig(p *sim.Proc, node string, opts lock.Options, res, owner string) lock.Config {
	return lock.Config{
		Redis:   p.Redis(node),
		Clock:   p,
		Jitter:  func(max time.Duration) time.Duration { return time.Duration(p.Rand().Int64N(int64(max))) },
		Owner:   owner,
		Options: opts,
		Nodes:   redisNodes(p),
		Spawn:   p.Go,
		Mark:    func(name, note string) { p.MarkLock(name, res, note) },
		Own:     p.Own,
		Fence:   p.SetFence,
		SQL:     p.SQL(scenario.DBService),
	}
}

// Resource is the lock a client's marks are about: its algorithm's key
// ("lock" for the in-process mutex, which has none: it stands for the
// same resource in every process).
func Resource(opts lock.Options) string {
	if k := lock.KeyOf(opts); k != "" {
		return k
	}
	return "lock"
}

// task is the work inside the critical section.
func task(ctx context.Context, p *sim.Proc, c scenario.Client, node string) error {
	switch c.Task {
	case "", scenario.TaskDeduct:
		r := p.Redis(node)
		v, err := r.Get(ctx, StockKey).Result()
		if err != nil {
			return err
		}
		n, _ := strconv.Atoi(v)
		if n <= 0 {
			p.Mark("sold-out", "no stock left")
			return p.Sleep(ctx, c.Work.D())
		}
		if err := p.Sleep(ctx, c.Work.D()); err != nil {
			return err
		}
		if err := r.Set(ctx, StockKey, n-1, 0).Err(); err != nil {
			return err
		}
		p.Mark("deduct", fmt.Sprintf("stock %d -> %d", n, n-1))
		return nil
	case scenario.TaskNone:
		return p.Sleep(ctx, c.Work.D())
	case scenario.TaskWrite:
		return writeTask(ctx, p, c)
	}
	return fmt.Errorf("unknown task %q", c.Task)
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
	a := append([]string(nil), got...)
	b := append([]string(nil), want...)
	sort.Strings(a)
	sort.Strings(b)
	return strings.Join(a, ",") == strings.Join(b, ",")
}
