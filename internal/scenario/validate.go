package scenario

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lockstep/lockstep/internal/check"
	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/sim"
)

// The workloads a client may run inside its critical section (its task).
// "" means deduct. list, buy and buy-item are seed 003's market (see
// internal/lesson/market.go).
const (
	TaskDeduct  = "deduct"
	TaskWrite   = "write"
	TaskNone    = "none"
	TaskList    = "list"
	TaskBuy     = "buy"
	TaskBuyItem = "buy-item"
)

// Tasks lists the task names.
var Tasks = []string{TaskDeduct, TaskWrite, TaskNone, TaskList, TaskBuy, TaskBuyItem}

// StepAction is the Do of a recorded manual step in a schedule.
const StepAction = "step"

// checker validates a decoded file, pointing at the YAML it came from.
type checker struct {
	d    *decoder
	flat bool // no YAML behind the values: name each problem by its path instead of a line
}

// pos finds the line and column of a path's value, or of the nearest
// enclosing value when the path itself is absent (a missing field is
// reported at the map that lacks it).
func (c *checker) pos(path string) (int, int) {
	for {
		if n, ok := c.d.vals[path]; ok {
			return n.Line, n.Column
		}
		if path == "" {
			return 1, 1
		}
		i := strings.LastIndexAny(path, ".[")
		if i < 0 {
			path = ""
		} else {
			path = path[:i]
		}
	}
}

// keyPos finds the line and column of a path's key.
func (c *checker) keyPos(path string) (int, int) {
	if n, ok := c.d.keys[path]; ok {
		return n.Line, n.Column
	}
	return c.pos(path)
}

// unreadable reports whether path, or a value that holds it, could not be
// decoded (and so was already reported).
func (c *checker) unreadable(path string) bool {
	for {
		if c.d.bad[path] {
			return true
		}
		if path == "" {
			return false
		}
		i := strings.LastIndexAny(path, ".[")
		if i < 0 {
			path = ""
		} else {
			path = path[:i]
		}
	}
}

func (c *checker) at(path, format string, args ...any) {
	if c.unreadable(path) {
		return
	}
	if c.flat {
		c.d.r.add(0, 0, "%s: %s", path, fmt.Sprintf(format, args...))
		return
	}
	l, col := c.pos(path)
	c.d.r.add(l, col, format, args...)
}

func (c *checker) atKey(path, format string, args ...any) {
	if c.unreadable(path) {
		return
	}
	l, col := c.keyPos(path)
	c.d.r.add(l, col, format, args...)
}

// has reports whether the file sets a path.
func (c *checker) has(path string) bool {
	if c.flat {
		return true // JSON does not tell an absent field from a zero one
	}
	_, ok := c.d.vals[path]
	return ok
}

// validate checks what the types alone cannot: names, references, times
// and limits.
func validate(f *File, d *decoder) {
	c := &checker{d: d}
	if len(f.Scenarios) == 0 {
		c.at("scenarios", "the file has no scenarios: it needs a scenarios: list")
		return
	}
	if len(f.Scenarios) > MaxScenarios {
		c.at("scenarios", "%d scenarios; the limit is %d per file", len(f.Scenarios), MaxScenarios)
		return
	}
	ids := map[string]int{}
	for i := range f.Scenarios {
		s := &f.Scenarios[i]
		p := fmt.Sprintf("scenarios[%d]", i)
		if s.ID != "" {
			if j, dup := ids[s.ID]; dup {
				l, _ := c.pos(fmt.Sprintf("scenarios[%d].id", j))
				c.at(p+".id", "duplicate scenario id %q (first at line %d)", s.ID, l)
			} else {
				ids[s.ID] = i
			}
		}
		c.scenario(s, p)
	}
}

// scope is what a scenario declares, for checking references to it.
type scope struct {
	clients  []string
	nodes    []string // Redis nodes
	services []string // services beside them (storage, db)
	lanes    []string // nodes, then services: what a match's node may name
	horizon  time.Duration
}

func (c *checker) scenario(s *Scenario, p string) {
	if strings.TrimSpace(s.ID) == "" {
		c.at(p+".id", "a scenario needs an id")
	} else if strings.ContainsAny(s.ID, " \t\n/") {
		c.at(p+".id", "id %q: use letters, digits and dashes (no spaces or slashes)", short(s.ID))
	}
	if strings.TrimSpace(s.Title.En) == "" {
		c.at(p+".title.en", "a scenario needs a title with en text")
	}
	for i, row := range s.Catalog {
		if row < 1 {
			c.at(fmt.Sprintf("%s.catalog[%d]", p, i), "catalog rows start at 1, got %d", row)
		}
	}
	sc := scope{horizon: DefaultHorizon}
	if s.Horizon > 0 {
		sc.horizon = s.Horizon.D()
	}
	if s.Horizon.D() > MaxHorizon {
		c.at(p+".horizon", "horizon %s is longer than the limit of %s", fmtDuration(s.Horizon.D()), fmtDuration(MaxHorizon))
	}
	c.nodes(s, p, &sc)
	c.clients(s, p, &sc)
	c.services(s, p, &sc)
	c.faults(s, p, &sc)
	c.narration(s, p, &sc)
	c.expect(s, p)
	c.schedule(s, p, &sc)
	c.explore(s, p, &sc)
	c.challenge(s, p, &sc)
}

func (c *checker) nodes(s *Scenario, p string, sc *scope) {
	if len(s.Nodes) > MaxNodesPerScenario {
		c.at(p+".nodes", "%d nodes; the limit is %d per scenario", len(s.Nodes), MaxNodesPerScenario)
	}
	seen := map[string]int{}
	for i, n := range s.Nodes {
		np := fmt.Sprintf("%s.nodes[%d]", p, i)
		switch {
		case strings.TrimSpace(n.Name) == "":
			c.at(np+".name", "a node needs a name")
			continue
		case hasKey(seen, n.Name):
			l, _ := c.pos(fmt.Sprintf("%s.nodes[%d].name", p, seen[n.Name]))
			c.at(np+".name", "duplicate node name %q (first at line %d)", n.Name, l)
			continue
		}
		seen[n.Name] = i
		sc.nodes = append(sc.nodes, n.Name)
	}
	if len(s.Nodes) == 0 {
		sc.nodes = []string{"redis"}
	}
	for i, n := range s.Nodes {
		if n.ReplicaOf == "" {
			continue
		}
		rp := fmt.Sprintf("%s.nodes[%d].replica_of", p, i)
		switch {
		case n.ReplicaOf == n.Name:
			c.at(rp, "node %q cannot be a replica of itself", n.Name)
		case !slices.Contains(sc.nodes, n.ReplicaOf):
			c.unknownName(rp, "node", n.ReplicaOf, sc.nodes)
		}
	}
}

// services notes the services the scenario has; a node may not take the
// name of one, since both are lanes of the timeline.
func (c *checker) services(s *Scenario, p string, sc *scope) {
	sc.services = s.Services()
	sc.lanes = append(slices.Clone(sc.nodes), sc.services...)
	for i, n := range s.Nodes {
		if slices.Contains(sc.services, n.Name) {
			c.at(fmt.Sprintf("%s.nodes[%d].name", p, i), "node name %q is taken by the scenario's %s service; choose another", n.Name, n.Name)
		}
	}
}

// masters counts the nodes that are not replicas.
func masters(s *Scenario) int {
	if len(s.Nodes) == 0 {
		return 1
	}
	m := 0
	for _, n := range s.Nodes {
		if n.ReplicaOf == "" {
			m++
		}
	}
	return m
}

func (c *checker) clients(s *Scenario, p string, sc *scope) {
	if len(s.Clients) == 0 {
		c.at(p+".clients", "a scenario needs clients: at least one")
		return
	}
	if len(s.Clients) > MaxClients {
		c.at(p+".clients", "%d clients; the limit is %d per scenario", len(s.Clients), MaxClients)
	}
	seen := map[string]int{}
	for i := range s.Clients {
		cl := &s.Clients[i]
		cp := fmt.Sprintf("%s.clients[%d]", p, i)
		switch {
		case strings.TrimSpace(cl.Name) == "":
			c.at(cp+".name", "a client needs a name")
		case hasKey(seen, cl.Name):
			l, _ := c.pos(fmt.Sprintf("%s.clients[%d].name", p, seen[cl.Name]))
			c.at(cp+".name", "duplicate client name %q (first at line %d)", cl.Name, l)
		default:
			seen[cl.Name] = i
			sc.clients = append(sc.clients, cl.Name)
		}
		c.client(s, cl, cp, sc)
	}
}

func (c *checker) client(s *Scenario, cl *Client, cp string, sc *scope) {
	if cl.Start.D() > sc.horizon {
		c.at(cp+".start", "start %s is after the horizon (%s): the client would never run", fmtDuration(cl.Start.D()), fmtDuration(sc.horizon))
	}
	if cl.Requests < 0 || cl.Requests > MaxRequests {
		c.at(cp+".requests", "requests must be between 0 and %d, got %d", MaxRequests, cl.Requests)
	}
	if cl.Threads < 0 || cl.Threads > MaxThreads {
		c.at(cp+".threads", "threads must be between 0 and %d, got %d", MaxThreads, cl.Threads)
	}
	if cl.Reentry < 0 {
		c.at(cp+".reentry", "reentry cannot be negative, got %d", cl.Reentry)
	}
	if cl.Task != "" && !slices.Contains(Tasks, cl.Task) {
		c.unknownName(cp+".task", "task", cl.Task, Tasks)
	}
	if strings.TrimSpace(cl.Algorithm) == "" {
		c.at(cp+".algorithm", "a client needs an algorithm (one of: %s)", strings.Join(lock.IDs(), ", "))
		return
	}
	algo, ok := lock.Lookup(cl.Algorithm)
	if !ok {
		c.unknownName(cp+".algorithm", "algorithm", cl.Algorithm, lock.IDs())
		return
	}
	if algo.Nodes > masters(s) {
		c.at(cp+".algorithm", "algorithm %s needs %d master nodes; the scenario has %d", algo.ID, algo.Nodes, masters(s))
	}
	for _, k := range sortedKeys(cl.Params) {
		pp := cp + ".params." + k
		prm, ok := algo.Param(k)
		if !ok {
			names := make([]string, len(algo.Params))
			for i, x := range algo.Params {
				names[i] = x.Name
			}
			if len(names) == 0 {
				c.atKey(pp, "algorithm %s takes no parameters, got %q", algo.ID, k)
			} else if sg := suggest(k, names); sg != "" {
				c.atKey(pp, "unknown parameter %q for algorithm %s — did you mean %q?", k, algo.ID, sg)
			} else {
				c.atKey(pp, "unknown parameter %q for algorithm %s (parameters: %s)", k, algo.ID, strings.Join(names, ", "))
			}
			continue
		}
		c.param(algo, prm, cl.Params[k], pp)
	}
}

// param checks one algorithm parameter's value against its kind.
func (c *checker) param(algo *lock.Info, prm lock.Param, v any, pp string) {
	val := c.d.vals[pp]
	got := "nothing"
	if val != nil {
		got = describe(val)
	}
	want := map[lock.ParamKind]string{lock.Dur: "a duration such as 3s", lock.Int: "an integer",
		lock.Float: "a number", lock.Bool: "true or false", lock.Str: "a string"}[prm.Kind]
	if want == "" {
		want = "a " + string(prm.Kind)
	}
	if prm.Kind == lock.Dur {
		str, isStr := v.(string)
		if !isStr {
			c.at(pp, "%s: want %s, got %s", prm.Name, want, got)
			return
		}
		d, err := parseDuration(str)
		switch {
		case err != nil:
			c.at(pp, "%s: %v", prm.Name, err)
		case d < 0:
			c.at(pp, "%s: a duration cannot be negative here, got %s", prm.Name, str)
		case d.D() > MaxDuration:
			c.at(pp, "%s: %s is longer than the limit of %s", prm.Name, str, fmtDuration(MaxDuration))
		}
		return
	}
	if prm.Kind == lock.Str && val != nil && val.ShortTag() != "!!str" {
		c.at(pp, "%s: want %s, got %s", prm.Name, want, got)
		return
	}
	if s, ok := v.(string); ok && prm.OneOf != nil && !slices.Contains(prm.OneOf, s) {
		c.unknownName(pp, prm.Name, s, prm.OneOf)
		return
	}
	if _, err := algo.Decode(map[string]any{prm.Name: v}); err != nil {
		c.at(pp, "%s: want %s, got %s", prm.Name, want, got)
	}
}

// unknownName reports a name that is not among the known ones.
func (c *checker) unknownName(path, what, got string, known []string) {
	if sg := suggest(got, known); sg != "" {
		c.at(path, "unknown %s %q — did you mean %q?", what, short(got), sg)
		return
	}
	c.at(path, "unknown %s %q (known: %s)", what, short(got), strings.Join(known, ", "))
}

// undeclared reports a client or node name the scenario does not declare.
func (c *checker) undeclared(path, what, got string, declared []string) {
	if sg := suggest(got, declared); sg != "" {
		c.at(path, "no %s %q in this scenario — did you mean %q?", what, short(got), sg)
		return
	}
	c.at(path, "no %s %q in this scenario (%ss: %s)", what, short(got), what, strings.Join(declared, ", "))
}

func (c *checker) faults(s *Scenario, p string, sc *scope) {
	if len(s.Faults) > MaxFaults {
		c.at(p+".faults", "%d faults; the limit is %d per scenario", len(s.Faults), MaxFaults)
	}
	for i := range s.Faults {
		fp := fmt.Sprintf("%s.faults[%d]", p, i)
		f := &s.Faults[i]
		c.when(&f.When, fp, sc, true)
		c.fault(f, fp, sc, false)
	}
}

// fault checks a fault's kind, targets and amounts.
func (c *checker) fault(f *Fault, fp string, sc *scope, inSchedule bool) {
	kinds := make([]string, 0, len(sim.FaultKinds)+1)
	for _, k := range sim.FaultKinds {
		kinds = append(kinds, string(k))
	}
	if inSchedule {
		kinds = append(kinds, StepAction)
	}
	if f.Do == "" {
		if inSchedule {
			c.at(fp+".do", "a schedule entry needs do: step, or a fault kind such as crash")
		} else {
			c.at(fp+".do", "a fault needs do: a fault kind such as crash, pause or partition")
		}
		return
	}
	if !slices.Contains(kinds, f.Do) {
		c.unknownName(fp+".do", map[bool]string{true: "action", false: "fault"}[inSchedule], f.Do, kinds)
		return
	}
	needClient, needNode := sim.FaultKind(f.Do).Needs()
	if f.Do == StepAction {
		needClient = true
	}
	if needClient && f.Client == "" {
		c.at(fp, "%s needs a client:", f.Do)
	}
	if needNode && f.Node == "" {
		c.at(fp, "%s needs a node:", f.Do)
	}
	if f.Client != "" && !slices.Contains(sc.clients, f.Client) {
		c.undeclared(fp+".client", "client", f.Client, sc.clients)
	}
	if f.Node != "" && !slices.Contains(sc.nodes, f.Node) {
		c.undeclared(fp+".node", "node", f.Node, sc.nodes)
	}
	switch sim.FaultKind(f.Do) {
	case sim.FaultPause:
		if f.For <= 0 {
			c.at(fp+".for", "pause needs for: how long, e.g. 1s")
		}
	case sim.FaultClockJump:
		if f.By == 0 {
			c.at(fp+".by", "clock-jump needs by: how far, e.g. 5s or -5s")
		}
	case sim.FaultSkew:
		if !c.has(fp + ".by") {
			c.at(fp+".by", "skew needs by: how far ahead the clock runs, e.g. 2s")
		}
	}
}

// when checks at/on. A fault needs exactly one of them; narration at most
// one (with neither it is shown at the start).
func (c *checker) when(w *When, p string, sc *scope, required bool) {
	switch {
	case w.At != nil && w.On != nil:
		c.at(p+".on", "set at: or on:, not both")
	case required && w.At == nil && w.On == nil:
		c.at(p, "a fault needs at: (a time) or on: (an event)")
	}
	if w.At != nil && w.At.D() > sc.horizon {
		c.at(p+".at", "at %s is after the horizon (%s): it would never happen", fmtDuration(w.At.D()), fmtDuration(sc.horizon))
	}
	if w.On != nil {
		c.match(w.On, p+".on", sc)
	}
}

// match checks the names a match uses.
func (c *checker) match(m *Match, p string, sc *scope) {
	if m.Kind != "" && !slices.Contains(sim.Kinds, sim.Kind(m.Kind)) {
		kinds := make([]string, len(sim.Kinds))
		for i, k := range sim.Kinds {
			kinds[i] = string(k)
		}
		c.unknownName(p+".kind", "event kind", m.Kind, kinds)
	}
	if m.Client != "" && !slices.Contains(sc.clients, m.Client) {
		c.undeclared(p+".client", "client", m.Client, sc.clients)
	}
	if m.Node != "" && !slices.Contains(sc.lanes, m.Node) {
		c.undeclared(p+".node", "node", m.Node, sc.lanes)
	}
	if m.Nth < 0 {
		c.at(p+".nth", "nth counts from 1, got %d", m.Nth)
	}
}

func (c *checker) narration(s *Scenario, p string, sc *scope) {
	if len(s.Narration) > MaxNarration {
		c.at(p+".narration", "%d narration entries; the limit is %d per scenario", len(s.Narration), MaxNarration)
	}
	for i := range s.Narration {
		n := &s.Narration[i]
		np := fmt.Sprintf("%s.narration[%d]", p, i)
		c.when(&n.When, np, sc, false)
		if strings.TrimSpace(n.En) == "" {
			c.at(np+".en", "narration needs en text")
		}
		if n.Claim != nil {
			c.claim(n.Claim, np+".claim", sc)
		}
	}
}

// claim checks that a narration's claim names the scenario's own clients,
// nodes and services.
func (c *checker) claim(cl *Claim, p string, sc *scope) {
	for _, part := range []struct {
		name  string
		names []string
	}{{"inside", cl.Inside}, {"outside", cl.Outside}} {
		for i, name := range part.names {
			if !slices.Contains(sc.clients, name) {
				c.undeclared(fmt.Sprintf("%s.%s[%d]", p, part.name, i), "client", name, sc.clients)
			}
		}
	}
	for _, part := range []struct {
		name string
		keys []KeyHold
	}{{"holds", cl.Holds}, {"free", cl.Free}} {
		for i, k := range part.keys {
			kp := fmt.Sprintf("%s.%s[%d]", p, part.name, i)
			switch {
			case part.name == "holds" && k.Client == "":
				c.at(kp+".client", "holds names the client whose lock the key holds")
			case k.Client != "" && !slices.Contains(sc.clients, k.Client):
				c.undeclared(kp+".client", "client", k.Client, sc.clients)
			}
			if k.Node != "" && !slices.Contains(sc.lanes, k.Node) {
				c.undeclared(kp+".node", "node", k.Node, sc.lanes)
			}
		}
	}
}

func (c *checker) expect(s *Scenario, p string) {
	if len(s.Expect) == 0 {
		c.at(p+".expect", "a scenario needs expect: the verdicts it must end with, e.g. [safe] or [oversell]")
		return
	}
	c.verdicts(s.Expect, p+".expect")
	if r := s.RealRedis; r != nil {
		if len(r.Expect) == 0 {
			c.at(p+".real_redis.expect", "real_redis needs expect: the verdicts on a real server")
		}
		c.verdicts(r.Expect, p+".real_redis.expect")
		if strings.TrimSpace(r.Why.En) == "" {
			c.at(p+".real_redis.why", "real_redis needs why, with en text: what a real server cannot do here")
		}
	}
}

// verdicts checks a list of expected verdicts at path p.
func (c *checker) verdicts(list []string, p string) {
	seen := map[string]bool{}
	for i, v := range list {
		ep := fmt.Sprintf("%s[%d]", p, i)
		switch {
		case !slices.Contains(check.Verdicts, v):
			c.unknownName(ep, "verdict", v, check.Verdicts)
		case seen[v]:
			c.at(ep, "verdict %q is listed twice", v)
		case v == "safe" && len(list) > 1:
			c.at(ep, "safe means no violation at all: it cannot be listed with other verdicts")
		}
		seen[v] = true
	}
}

func (c *checker) schedule(s *Scenario, p string, sc *scope) {
	if len(s.Schedule) > MaxSchedule {
		c.at(p+".schedule", "%d schedule entries; the limit is %d per scenario", len(s.Schedule), MaxSchedule)
		return
	}
	for i := range s.Schedule {
		a := &s.Schedule[i]
		ap := fmt.Sprintf("%s.schedule[%d]", p, i)
		if a.Step < 0 {
			c.at(ap+".step", "step cannot be negative, got %d", a.Step)
		}
		if a.At != nil || a.On != nil {
			c.at(ap, "a schedule entry happens at a step: it takes step:, not at: or on:")
		}
		c.fault(&a.Fault, ap, sc, true)
	}
}

func hasKey[V any](m map[string]V, k string) bool {
	_, ok := m[k]
	return ok
}

// explore checks a search's budget and bounds.
func (c *checker) explore(s *Scenario, p string, sc *scope) {
	e := s.Explore
	if e == nil {
		return
	}
	ep := p + ".explore"
	if e.Steps < 0 {
		c.at(ep+".steps", "steps cannot be negative, got %d", e.Steps)
	}
	if e.Horizon.D() > MaxHorizon {
		c.at(ep+".horizon", "horizon %s is longer than the limit of %s", fmtDuration(e.Horizon.D()), fmtDuration(MaxHorizon))
	}
	if len(e.Faults) > MaxFaults {
		c.at(ep+".faults", "%d budget entries; the limit is %d", len(e.Faults), MaxFaults)
		return
	}
	for i, b := range e.Faults {
		bp := fmt.Sprintf("%s.faults[%d]", ep, i)
		if !slices.Contains(ExploreFaults, b.Do) {
			if b.Do == "" {
				c.at(bp+".do", "a budget entry needs do: one of %s", strings.Join(ExploreFaults, ", "))
			} else {
				c.unknownName(bp+".do", "fault a search can place", b.Do, ExploreFaults)
			}
			continue
		}
		if b.Count < 0 || b.Count > MaxFaults {
			c.at(bp+".count", "count must be between 0 and %d, got %d", MaxFaults, b.Count)
		}
		needMax := b.Do == "pause" || b.Do == "node-crash" || b.Do == "clock-jump"
		switch {
		case needMax && b.Max <= 0:
			c.at(bp, "%s needs max: the longest it may be, such as 5s", b.Do)
		case !needMax && b.Max != 0:
			c.at(bp+".max", "%s takes no max", b.Do)
		}
		node := b.Do == "node-crash" || b.Do == "clock-jump"
		if b.Client != "" && node {
			c.at(bp+".client", "%s hits a node, not a client", b.Do)
		} else if b.Client != "" && !slices.Contains(sc.clients, b.Client) {
			c.undeclared(bp+".client", "client", b.Client, sc.clients)
		}
		if b.Node != "" && !slices.Contains(sc.nodes, b.Node) {
			c.undeclared(bp+".node", "node", b.Node, sc.nodes)
		}
	}
}
