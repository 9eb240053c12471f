package scenario

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/sim"
)

func (c *validator) clients(s *Scenario, p string, sc *scope) {
	if len(s.Clients) == 0 {
		c.at(p+".clients", fact.Say("scenario.scenario-needs-clients-at-least"))
		return
	}
	if len(s.Clients) > MaxClients {
		c.at(p+".clients", fact.Say("scenario.too-many-clients", len(s.Clients), MaxClients))
	}
	seen := map[string]int{}
	for i := range s.Clients {
		cl := &s.Clients[i]
		cp := fmt.Sprintf("%s.clients[%d]", p, i)
		switch {
		case strings.TrimSpace(cl.Name) == "":
			c.at(cp+".name", fact.Say("scenario.client-needs-a-name"))
		case hasKey(seen, cl.Name):
			l, _ := c.pos(fmt.Sprintf("%s.clients[%d].name", p, seen[cl.Name]))
			c.at(cp+".name", fact.Say("scenario.duplicate-client-name-first-at", cl.Name, l))
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
		c.at(cp+".start", fact.Say("scenario.start-is-after-the-horizon", fmtDuration(cl.Start.D()), fmtDuration(sc.horizon)))
	}
	if cl.Requests < 0 || cl.Requests > MaxRequests {
		c.at(cp+".requests", fact.Say("scenario.requests-must-be-between-0", MaxRequests, cl.Requests))
	}
	if cl.Threads < 0 || cl.Threads > MaxThreads {
		c.at(cp+".threads", fact.Say("scenario.threads-must-be-between-0", MaxThreads, cl.Threads))
	}
	if cl.Reentry < 0 {
		c.at(cp+".reentry", fact.Say("scenario.reentry-cannot-be-negative-got", cl.Reentry))
	}
	if cl.Task != "" && !slices.Contains(Tasks, cl.Task) {
		c.unknownName(cp+".task", "task", cl.Task, Tasks)
	}
	if strings.TrimSpace(cl.Algorithm) == "" {
		c.at(cp+".algorithm", fact.Say("scenario.client-needs-an-algorithm-one", strings.Join(s.AlgorithmIDs(), ", ")))
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
		c.at(cp+".algorithm", fact.Say("scenario.replicas-as-masters", algo.ID))
	}
	if algo.Nodes > masters(s) {
		c.at(cp+".algorithm", fact.Say("scenario.algorithm-needs-master-nodes-the", algo.ID, algo.Nodes, masters(s)))
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
				c.atKey(pp, fact.Say("scenario.algorithm-takes-no-parameters-got", algo.ID, k))
			} else if sg := suggest(k, names); sg != "" {
				c.atKey(pp, fact.Say("scenario.unknown-parameter-meant", k, algo.ID, sg))
			} else {
				c.atKey(pp, fact.Say("scenario.unknown-parameter", k, algo.ID, strings.Join(names, ", ")))
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
			c.at(pp, fact.Say("scenario.param-want-got", prm.Name, want, got))
			return
		}
		d, err := parseDuration(str)
		switch {
		case err != nil:
			c.at(pp, fact.Say("scenario.labelled", prm.Name, words(err)))
		case d < 0:
			c.at(pp, fact.Say("scenario.param-negative-duration", prm.Name, str))
		case d.D() > MaxDuration:
			c.at(pp, fact.Say("scenario.param-over-limit", prm.Name, str, fmtDuration(MaxDuration)))
		}
		return
	}
	if prm.Kind == lock.Str && val != nil && val.ShortTag() != "!!str" {
		c.at(pp, fact.Say("scenario.param-want-got", prm.Name, want, got))
		return
	}
	if s, ok := v.(string); ok && prm.OneOf != nil && !slices.Contains(prm.OneOf, s) {
		c.unknownName(pp, prm.Name, s, prm.OneOf)
		return
	}
	if _, err := algo.Decode(map[string]any{prm.Name: v}); err != nil {
		c.at(pp, fact.Say("scenario.param-want-got", prm.Name, want, got))
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
		nolock = fact.Say("scenario.algorithm-takes-none", algo.ID)
	case algo.NewOptimistic != nil:
		nolock = fact.Say("scenario.algorithm-retries-a-watch-transaction", algo.ID)
	case cl.Task == TaskBuyItem:
		nolock = fact.Say("scenario.task-buy-item-takes-and")
	}
	if nolock.En != "" && cl.Reentry > 1 {
		c.at(cp+".reentry", fact.Say("scenario.reentry-is-ignored-there-is", cl.Reentry, nolock))
	}
	if nolock.En != "" && cl.KeepLock {
		c.at(cp+".keep_lock", fact.Say("scenario.keep-lock-is-ignored-there", nolock))
	}
	if algo.NewOptimistic != nil && !slices.Contains([]string{"", TaskDeduct, TaskBuy, TaskBuyItem}, cl.Task) && slices.Contains(Tasks, cl.Task) {
		c.at(cp+".task", fact.Say("scenario.algorithm-runs-only-the-deduct", algo.ID, cl.Task))
	}
}
