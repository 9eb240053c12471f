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
	return sim.Text{
		En: fmt.Sprintf("%s (%s), %s in all, work %s, lease %s, retry every %s, %s of virtual time",
			plural(len(names), "client", "clients"), strings.Join(names, ", "), plural(requests, "request", "requests"),
			strings.Join(works, "/"), scenario.FormatDuration(w.lease), scenario.FormatDuration(w.retry), scenario.FormatDuration(sc.Horizon.D())),
		Zh: fmt.Sprintf("%d 个客户端（%s），共 %d 个请求，工作 %s，租约 %s，每 %s 重试一次，虚拟时间 %s",
			len(names), strings.Join(names, "、"), requests, strings.Join(works, "/"),
			scenario.FormatDuration(w.lease), scenario.FormatDuration(w.retry), scenario.FormatDuration(sc.Horizon.D())),
	}
}

// row probes lock id (alone, as the catalog's card does, with the user's
// declared lock when it is theirs) and gives its empty row.
func (w *workload) row(id string, cols []Column) (*Row, error) {
	a, ok := w.sc.Lookup(id)
	if !ok {
		return nil, errorf(nil, "report: no lock %q in the scenario or the catalog", "报告卡：场景和目录中都没有锁 %q", id)
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
	lease := sim.Text{En: "no lease", Zh: "无租约"}
	if _, ok := a.Param("ttl"); ok || a.CompareParams != nil {
		lease = sim.Text{En: "lease " + scenario.FormatDuration(w.lease), Zh: "租约 " + scenario.FormatDuration(w.lease)}
	}
	t := sim.Text{
		En: fmt.Sprintf("%s, %s, %s, work up to %s", plural(len(sc.Clients), "client", "clients"), plural(requests, "request", "requests"),
			lease.En, scenario.FormatDuration(work)),
		Zh: fmt.Sprintf("%d 个客户端、%d 个请求、%s、工作至多 %s", len(sc.Clients), requests, lease.Zh, scenario.FormatDuration(work)),
	}
	if p.Tokens {
		t.En += ", writing to a storage that checks tokens"
		t.Zh += "，写入会检查令牌的存储"
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
		return &Cell{Column: col.ID, Kind: NA, Why: &sim.Text{
			En: "code without a lock is judged by the data it reads and writes (the deduct task); your clients' task is " + task,
			Zh: "没有锁的代码要看它读写的数据（扣减任务）才能评判；你的客户端的任务是 " + task}}, nil
	}
	sc, err := normalize(w.place(a, row, col))
	if err != nil {
		// The lock cannot run this workload as written (the optimistic
		// transaction and a task it does not run): the fault cannot be
		// put on it here, and the cell says why.
		why := fact.Error(err).Render()
		return &Cell{Column: col.ID, Kind: NA, Why: &sim.Text{
			En: "it cannot run this workload as written: " + why.En,
			Zh: "它无法按原样运行这个工作负载：" + why.Zh}}, nil
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
		Title:   sim.Text{En: row.Algorithm + " in " + u.ID + " under " + col.Title.En, Zh: row.Algorithm + "（" + u.ID + "）：" + col.Title.Zh},
		Lesson:  sim.Text{En: "A cell of the card for this setup (visualizer report --file): " + col.What.En + ".", Zh: "本设置的报告卡（visualizer report --file）的一格：" + col.What.Zh + "。"},
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
