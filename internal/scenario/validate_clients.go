package scenario

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/sim"
)

func (c *validator) clients(s *Scenario, p string, sc *scope) {
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
			if sc.marks == nil {
				sc.marks, sc.algos = map[string][]string{}, map[string]string{}
			}
			if _, known := s.Lookup(cl.Algorithm); known {
				sc.marks[cl.Name], sc.algos[cl.Name] = MarksOf(s, cl), cl.Algorithm
			}
		}
		c.client(s, cl, cp, sc)
	}
}

func (c *validator) client(s *Scenario, cl *Client, cp string, sc *scope) {
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
		c.at(cp+".algorithm", "a client needs an algorithm (one of: %s)", strings.Join(s.AlgorithmIDs(), ", "))
		return
	}
	algo, ok := s.Lookup(cl.Algorithm)
	if !ok {
		c.unknownName(cp+".algorithm", "algorithm", cl.Algorithm, s.AlgorithmIDs())
		return
	}
	c.uses(cl, algo, cp)
	// Redlock and redsync (a quorum over the nodes) lock on every node.
	if (algo.Nodes > 1 || algo.Quorum != nil) && masters(s) < len(s.Nodes) {
		c.at(cp+".algorithm", "algorithm %s locks on every node, and this scenario's replicas would count as masters: its masters must be independent nodes (remove replica_of, or run the replica in a scenario of its own)", algo.ID)
	}
	if algo.Nodes > masters(s) {
		c.at(cp+".algorithm", "algorithm %s needs %d master nodes; the scenario has %d", algo.ID, algo.Nodes, masters(s))
	}
	for _, k := range slices.Sorted(maps.Keys(cl.Params)) {
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
func (c *validator) param(algo *lock.Info, prm lock.Param, v any, pp string) {
	val := c.d.vals[pp]
	got := describeText("nothing")
	if val != nil {
		got = describe(val)
	}
	want := describeText(map[lock.ParamKind]string{lock.Dur: "a duration such as 3s", lock.Int: "an integer",
		lock.Float: "a number", lock.Bool: "true or false", lock.Str: "a string"}[prm.Kind])
	if want.En == "" {
		want = aThing(string(prm.Kind))
	}
	if prm.Kind == lock.Dur {
		str, isStr := v.(string)
		if !isStr && val != nil && val.Value == "0" {
			return // 0 needs no unit, as work: 0
		}
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

// uses refuses the fields of a client its algorithm would ignore: nested
// or kept locks where there is no lock (no-lock, the optimistic WATCH
// transaction, the buy-item task's own locking), and a task the optimistic
// transaction cannot run.
func (c *validator) uses(cl *Client, algo *lock.Info, cp string) {
	var nolock sim.Text
	switch {
	case algo.Unguarded:
		nolock = say("algorithm %s takes none", algo.ID)
	case algo.NewOptimistic != nil:
		nolock = say("algorithm %s retries a WATCH transaction instead", algo.ID)
	case cl.Task == TaskBuyItem:
		nolock = say("task buy-item takes and releases its own lock")
	}
	if nolock.En != "" && cl.Reentry > 1 {
		c.at(cp+".reentry", "reentry %d is ignored: there is no lock to take again (%s)", cl.Reentry, nolock)
	}
	if nolock.En != "" && cl.KeepLock {
		c.at(cp+".keep_lock", "keep_lock is ignored: there is no lock to keep (%s)", nolock)
	}
	if algo.NewOptimistic != nil && !slices.Contains([]string{"", TaskDeduct, TaskBuy, TaskBuyItem}, cl.Task) && slices.Contains(Tasks, cl.Task) {
		c.at(cp+".task", "algorithm %s runs only the deduct, buy and buy-item tasks inside its WATCH transaction, not %s", algo.ID, cl.Task)
	}
}
