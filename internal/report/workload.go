package report

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"time"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// workload is a user's scenario as the card for their setup places each
// lock in it: their clients and data as written, their lease and retry.
type workload struct {
	sc           *scenario.Scenario
	lease, retry time.Duration
}

// newWorkload reads the lease and retry of the user's scenario: those of
// its first client's lock (its ttl and retry parameters as the client
// sets them, else their defaults), else the catalog card's.
func newWorkload(sc *scenario.Scenario) *workload {
	w := &workload{sc: sc, lease: Lease, retry: Retry}
	if len(sc.Clients) == 0 {
		return w
	}
	c := sc.Clients[0]
	if a, ok := sc.Lookup(c.Algorithm); ok {
		w.lease = paramDuration(a, c.Params, "ttl", Lease)
		w.retry = paramDuration(a, c.Params, "retry", Retry)
	}
	return w
}

// paramDuration is the duration parameter name of a client running a:
// as params set it, else its default, else def.
func paramDuration(a *lock.Info, params map[string]any, name string, def time.Duration) time.Duration {
	p, ok := a.Param(name)
	if !ok || p.Kind != lock.Dur {
		return def
	}
	if v, ok := params[name]; ok {
		if s, ok := v.(string); ok {
			if d, err := time.ParseDuration(s); err == nil {
				return d
			}
		}
	}
	if d, ok := p.Default.(time.Duration); ok && d > 0 {
		return d
	}
	return def
}

// words says the workload: the clients, their requests and work, the
// lease and retry — the bound of every cell of the card.
func (w *workload) words() sim.Text {
	sc := scenario.WithDefaults(w.sc)
	names, works := make([]string, len(sc.Clients)), make([]string, len(sc.Clients))
	requests := 0
	for i, c := range sc.Clients {
		names[i] = c.Name
		works[i] = scenario.FormatDuration(c.Work.D())
		requests += c.Requests
	}
	return fact.Say("report.workload", len(names), noun(len(names), "client", "clients"), list(names), requests, noun(requests, "request", "requests"),
		strings.Join(works, "/"), scenario.FormatDuration(w.lease), scenario.FormatDuration(w.retry), scenario.FormatDuration(sc.Horizon.D()))
}

// row probes lock id (alone, as the catalog's card does, with the user's
// declared lock when it is theirs) and gives its empty row.
func (w *workload) row(id string, cols []Column) (*Row, error) {
	a, ok := w.sc.Lookup(id)
	if !ok {
		return nil, fail(nil, fact.Say("report.no-lock-in-scenario", id))
	}
	yours := false
	for _, c := range w.sc.Clients {
		yours = yours || c.Algorithm == id
	}
	probe := probeScenario(a)
	if own, ok := w.sc.Own(id); ok {
		probe.Locks = []scenario.Lock{*own}
		probe.Clients[0].Params = nil
	}
	p, err := runProbe(a, probe)
	if err != nil {
		return nil, err
	}
	title := a.Title
	for i, l := range w.sc.Locks {
		if l.Name == id { // the user's own: where the file declares it
			title = fmt.Sprintf("%s: locks[%d]", w.sc.ID, i)
			if l.Source != "" {
				title += " (" + l.Source + ")"
			}
		}
	}
	row := &Row{Algorithm: id, Catalog: a.Row, Title: title, Probe: p, Needs: p.Needs(), Storage: p.Tokens, Yours: yours}
	bound := w.bound(a, p)
	row.Bound = &bound
	for _, c := range cols {
		row.Cells = append(row.Cells, &Cell{Column: c.ID})
	}
	return row, nil
}

// bound says, beside a row's ✓ and ~, what its search covered: the
// user's clients, requests and work, and the lease the lock was given.
func (w *workload) bound(a *lock.Info, p *Probe) sim.Text {
	sc := scenario.WithDefaults(w.sc)
	requests, work := 0, time.Duration(0)
	for _, c := range sc.Clients {
		requests += c.Requests
		work = max(work, c.Work.D())
	}
	lease := fact.Say("report.no-lease")
	if _, ok := a.Param("ttl"); ok || a.CompareParams != nil {
		lease = fact.Say("report.lease", scenario.FormatDuration(w.lease))
	}
	t := fact.Say("report.bound", len(sc.Clients), noun(len(sc.Clients), "client", "clients"), requests, noun(requests, "request", "requests"),
		lease, scenario.FormatDuration(work))
	if p.Tokens {
		tokens := fact.Say("report.bound-tokens")
		t = fact.Text{En: t.En + tokens.En, Zh: t.Zh + tokens.Zh}
	}
	return t
}

// cell searches one cell of the card for the setup.
func (w *workload) cell(ctx context.Context, row *Row, col *Column, opt SetupOptions, yield func() error) (*Cell, error) {
	a, _ := w.sc.Lookup(row.Algorithm)
	if why := notApplicable(row.Probe, col); why != nil {
		return &Cell{Column: col.ID, Kind: NA, Why: why}, nil
	}
	if task := w.task(); !row.Probe.Locks && task != "" {
		why := fact.Say("report.na-no-lock-task", task)
		return &Cell{Column: col.ID, Kind: NA, Why: &why}, nil
	}
	sc, err := normalize(w.place(a, row, col))
	if err != nil {
		// The lock cannot run this workload as written (the optimistic
		// transaction and a task it does not run): the fault cannot be
		// put on it here, and the cell says why.
		why := fact.Say("report.na-cannot-run", fact.Error(err).Render())
		return &Cell{Column: col.ID, Kind: NA, Why: &why}, nil
	}
	again := "visualizer report --file " + opt.File + " --scenario " + w.sc.ID + " --only " + row.Algorithm + " --faults " + col.ID
	return searchCell(ctx, search{a: a, sc: sc, steps: opt.Steps, random: opt.Random, again: again}, row, col, yield)
}

// place is the scenario of one cell: the user's scenario with every
// client running row's lock, the user's own faults, schedule, narration
// and expectations left out, and col's fault budget as its explore
// section. A lock that hands out fencing tokens writes to a storage that
// checks them (where it is judged); code without a lock, given no task,
// deducts from the stock, where its harm shows.
func (w *workload) place(a *lock.Info, row *Row, col *Column) *scenario.Scenario {
	u := w.sc
	sc := &scenario.Scenario{
		ID:      "mine-" + u.ID + "-" + row.Algorithm + "-" + col.ID,
		Title:   fact.Say("report.setup-cell-title", row.Algorithm, u.ID, col.Title),
		Lesson:  fact.Say("report.setup-cell-lesson", col.What),
		Seed:    u.Seed,
		Horizon: u.Horizon,
		Network: u.Network,
		Nodes:   w.nodes(a, col),
		Data:    maps.Clone(u.Data),
		Storage: u.Storage,
		SQL:     u.SQL,
		Expect:  []string{sim.VerdictSafe},
	}
	if own, ok := u.Own(row.Algorithm); ok {
		sc.Locks = []scenario.Lock{*own}
	}
	params := w.params(a, row.Algorithm)
	for _, c := range u.Clients {
		mine := c.Algorithm == row.Algorithm
		cl := scenario.Client{Name: c.Name, Algorithm: row.Algorithm, Params: params, Start: c.Start, Requests: c.Requests,
			Work: c.Work, Task: c.Task, Skew: c.Skew, Latency: c.Latency, Threads: c.Threads}
		if mine {
			cl.Params, cl.Reentry, cl.KeepLock = c.Params, c.Reentry, c.KeepLock
		}
		switch {
		case row.Probe.Tokens:
			cl.Task = scenario.TaskWrite
			sc.Storage = &scenario.Storage{Fencing: true}
		case !row.Probe.Locks && cl.Task == scenario.TaskNone:
			// Code without a lock does nothing a checker can see when
			// there is no data to work on: it deducts from the stock.
			// Another task stays the user's; one it cannot run makes
			// the cell n/a.
			cl.Task = scenario.TaskDeduct
		}
		sc.Clients = append(sc.Clients, cl)
	}
	if !row.Probe.Locks && sc.Data["stock"] == "" {
		if sc.Data == nil {
			sc.Data = map[string]string{}
		}
		sc.Data["stock"] = Stock
	}
	if len(col.Budget) > 0 {
		sc.Explore = &scenario.Explore{Faults: append([]scenario.Budget(nil), col.Budget...)}
		if u.Explore != nil {
			sc.Explore.Steps = u.Explore.Steps
		}
	}
	return sc
}

// task is the first task of the user's clients other than deduct (the
// default) and none: one on which code without a lock shows no harm the
// checker can see, or cannot run. "" when there is none.
func (w *workload) task() string {
	for _, c := range w.sc.Clients {
		if c.Task != "" && c.Task != scenario.TaskDeduct && c.Task != scenario.TaskNone {
			return c.Task
		}
	}
	return ""
}

// params are the parameters every client of the cell runs lock a with:
// the user's own, where one of their clients runs it; else the user's
// lease and retry under the lock's own names.
func (w *workload) params(a *lock.Info, id string) map[string]any {
	for _, c := range w.sc.Clients {
		if c.Algorithm == id {
			return c.Params
		}
	}
	if a.CompareParams != nil {
		return a.CompareParams(w.lease, w.retry)
	}
	out := map[string]any{}
	if p, ok := a.Param("ttl"); ok && p.Kind == lock.Dur {
		out["ttl"] = w.lease.String()
	}
	if p, ok := a.Param("retry"); ok && p.Kind == lock.Dur {
		out["retry"] = w.retry.String()
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// nodes are the cell's Redis nodes: the user's, unless the lock needs
// more masters than they have (Redlock: r1..rN) or the column needs a
// replica they lack (failover: one beside their first master).
func (w *workload) nodes(a *lock.Info, col *Column) []scenario.Node {
	u := w.sc.Nodes
	mastersIn := 0
	replica := false
	for _, n := range u {
		if n.ReplicaOf == "" {
			mastersIn++
		} else {
			replica = true
		}
	}
	mastersIn = max(mastersIn, 1)
	if n := max(a.Nodes, a.CompareNodes); n > mastersIn {
		return masters(a)
	}
	if col.Replica && !replica {
		first := "redis"
		if len(u) > 0 {
			first = u[0].Name
		}
		return []scenario.Node{{Name: first}, {Name: "replica", ReplicaOf: first, Lag: scenario.Duration(Lag)}}
	}
	return u
}
