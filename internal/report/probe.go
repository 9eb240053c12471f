package report

import (
	"slices"
	"strings"

	"github.com/lockstep/lockstep/internal/embedded"
	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// Probe is what one run of a lock alone shows about it: what an acquire
// and a release cost, and what the lock uses. Nothing of it is typed in:
// it is read from the run's events.
type Probe struct {
	// Acquire and Release count the round trips of one acquire (from the
	// request's start to its acquired mark) and one release (from leave to
	// released), on the client's second request (the first may load a
	// script); commands sent together before any reply comes back (Redlock
	// asking every master) are one round trip. Commands counts them all.
	Acquire, Release                 int
	AcquireCommands, ReleaseCommands int
	Locks                            bool // the run shows an acquired mark: a lock (not a bare read-modify-write)
	Lua                              bool // the lock runs scripts (EVAL, EVALSHA)
	Masters                          int  // Redis nodes its commands reach
	SQL                              bool // it keeps its lock in the SQL database
	Tokens                           bool // it hands out fencing tokens (token marks): the storage must check them
	Network                          bool // it sends commands (a lock in the process sends none)
	Expires                          bool // its key on a node has a TTL (a lease)
	Watch                            bool // it runs WATCH / MULTI / EXEC on the data itself
	// AcquireSent and ReleaseSent name the commands of that acquire and
	// that release, in order (SET, EVALSHA, …): what the card for a
	// user's setup compares with the user's own code. Not stored with the
	// catalog's card.
	AcquireSent, ReleaseSent []string `json:"-"`
	// AcquireSrc and ReleaseSrc are where in the lock's code each of
	// those commands was sent from (Event.Src), for the test that holds
	// the code the card shows (lock.Steps) to the code that ran.
	AcquireSrc, ReleaseSrc []*sim.Source `json:"-"`
}

// Needs are what the lock needs beyond one Redis node, read from its
// probe.
func (p *Probe) Needs() []sim.Text {
	var out []sim.Text
	switch {
	case !p.Locks && !p.Network:
		return []sim.Text{fact.Say("report.needs-nothing")}
	case !p.Network:
		return []sim.Text{fact.Say("report.needs-one-process")}
	}
	if p.Watch && !p.Locks {
		out = append(out, fact.Say("report.needs-watch"))
	}
	if p.Lua {
		out = append(out, fact.Say("report.needs-lua"))
	}
	if p.Masters > 1 {
		out = append(out, fact.Say("report.needs-masters", p.Masters))
	}
	if p.SQL {
		out = append(out, fact.Say("report.needs-sql"))
	}
	if p.Tokens {
		out = append(out, fact.Say("report.needs-fencing"))
	}
	if len(out) == 0 {
		out = append(out, fact.Say("report.needs-one-node"))
	}
	return out
}

// probeScenario runs a alone: one client, two requests in turn, no fault.
func probeScenario(a *lock.Info) *scenario.Scenario {
	return &scenario.Scenario{
		ID:      "probe-" + a.ID,
		Title:   fact.Say("report.probe-title", a.ID),
		Lesson:  fact.Say("report.probe-lesson"),
		Seed:    1,
		Horizon: scenario.Duration(4 * Horizon),
		Network: scenario.Network{Timeout: scenario.Duration(Timeout)},
		Nodes:   masters(a),
		Data:    map[string]string{"stock": Stock},
		Clients: []scenario.Client{{Name: "A", Algorithm: a.ID, Params: params(a), Requests: 2, Work: scenario.Duration(Work)}},
		Expect:  []string{sim.VerdictSafe},
	}
}

// RunProbe runs a alone and reads its probe from the log.
func RunProbe(a *lock.Info) (*Probe, error) { return runProbe(a, probeScenario(a)) }

// runProbe runs a probe's scenario (one client A running a, twice) and
// reads the probe from its log.
func runProbe(a *lock.Info, sc *scenario.Scenario) (*Probe, error) {
	sc, err := normalize(sc)
	if err != nil {
		return nil, err
	}
	r, err := lesson.New(sc, lesson.Config{Seed: sc.Seed, Servers: embedded.Servers{}})
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if err := r.RunToEnd(); err != nil {
		return nil, err
	}
	if v := r.Verdicts(); !slices.Equal(v, []string{sim.VerdictSafe}) {
		return nil, fail(nil, fact.Say("report.probe-not-safe", a.ID, strings.Join(v, ", ")))
	}
	return readProbe(r.World.Log()), nil
}

// readProbe reads a probe from the log of a lock's run alone.
func readProbe(log []*sim.Event) *Probe {
	p := &Probe{}
	nodes := map[string]bool{}
	// windows: the second acquire (from the first released mark to the
	// second acquired mark) and the second release (the second leave to
	// the second released).
	acquired, leaves, released := 0, 0, 0
	var acq, rel roundTrips
	for _, e := range log {
		if e.Client != "A" {
			continue
		}
		switch e.Kind {
		case sim.KindExec:
			for _, k := range e.Keys {
				if k.TTL >= 0 && k.Key != lesson.StockKey {
					p.Expires = true
				}
			}
		case sim.KindMark:
			switch e.Name {
			case sim.MarkAcquired:
				acquired++
				p.Locks = true
			case sim.MarkLeave:
				leaves++
			case sim.MarkReleased:
				released++
			case sim.MarkToken:
				p.Tokens = true
			}
		case sim.KindSend:
			if len(e.Cmd) > 0 && isStock(e.Cmd) {
				continue
			}
			p.Network = true
			if e.Node == scenario.DBService {
				p.SQL = true
			} else if e.Node != scenario.StorageService {
				nodes[e.Node] = true
			}
			switch strings.ToUpper(e.Cmd[0]) {
			case "EVAL", "EVALSHA":
				p.Lua = true
			case "WATCH", "MULTI", "EXEC":
				p.Watch = true
			}
			switch {
			case released == 1 && acquired == 1:
				acq.send(e.Req, e.Seq)
				p.AcquireSent = append(p.AcquireSent, strings.ToUpper(e.Cmd[0]))
				p.AcquireSrc = append(p.AcquireSrc, e.Src)
			case leaves == 2 && released == 1:
				rel.send(e.Req, e.Seq)
				p.ReleaseSent = append(p.ReleaseSent, strings.ToUpper(e.Cmd[0]))
				p.ReleaseSrc = append(p.ReleaseSrc, e.Src)
			}
		case sim.KindReply, sim.KindLost, sim.KindTimeout:
			acq.done(e.Req)
			rel.done(e.Req)
		}
	}
	p.Masters = len(nodes)
	p.Acquire, p.AcquireCommands = acq.trips, acq.commands
	p.Release, p.ReleaseCommands = rel.trips, rel.commands
	return p
}

// isStock tells a command of the deduct task (GET or SET of the stock).
func isStock(cmd []string) bool { return len(cmd) > 1 && cmd[1] == lesson.StockKey }

// roundTrips counts the round trips of a window: a command sent while
// none of the window's is waiting for its reply opens one.
type roundTrips struct {
	waiting         map[int]bool
	trips, commands int
}

func (t *roundTrips) send(req, seq int) {
	if t.waiting == nil {
		t.waiting = map[int]bool{}
	}
	if len(t.waiting) == 0 {
		t.trips++
	}
	t.commands++
	t.waiting[seq] = true
}

func (t *roundTrips) done(req int) { delete(t.waiting, req) }

// normalize checks a scenario the card built by the rules a file is held
// to (scenario.Validate); the engine reads its blank fields as a file's
// (scenario.WithDefaults), so it needs no round trip through YAML.
func normalize(sc *scenario.Scenario) (*scenario.Scenario, error) {
	if err := scenario.Validate(sc); err != nil {
		return nil, err
	}
	return sc, nil
}
