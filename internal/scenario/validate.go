package scenario

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/sim"
)

// validator checks a decoded file for what its types alone cannot say
// (names, references, times and limits), reporting each problem at the
// line and column of the YAML it came from.
type validator struct {
	d    *decoder
	flat bool // no YAML behind the values: name each problem by its path instead of a line
}

// pos finds the line and column of a path's value, or of the nearest
// enclosing value when the path itself is absent (a missing field is
// reported at the map that lacks it).
func (c *validator) pos(path string) (int, int) {
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
func (c *validator) keyPos(path string) (int, int) {
	if n, ok := c.d.keys[path]; ok {
		return n.Line, n.Column
	}
	return c.pos(path)
}

// unreadable reports whether path, or a value that holds it, could not be
// decoded (and so was already reported).
func (c *validator) unreadable(path string) bool {
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

// at reports a problem at the value at path; a scenario built in code
// (flat) names the path instead of a line.
func (c *validator) at(path string, problem sim.Text) {
	if c.unreadable(path) {
		return
	}
	if c.flat {
		c.d.r.add(0, 0, fact.Say("scenario.labelled", path, problem))
		return
	}
	l, col := c.pos(path)
	c.d.r.add(l, col, problem)
}

// atKey reports a problem at the key of path.
func (c *validator) atKey(path string, problem sim.Text) {
	if c.unreadable(path) {
		return
	}
	if c.flat {
		c.at(path, problem)
		return
	}
	l, col := c.keyPos(path)
	c.d.r.add(l, col, problem)
}

// has reports whether the file sets a path.
func (c *validator) has(path string) bool {
	if c.flat {
		return true // JSON does not tell an absent field from a zero one
	}
	_, ok := c.d.vals[path]
	return ok
}

// validate checks what the types alone cannot: names, references, times
// and limits.
func validate(f *File, d *decoder) {
	c := &validator{d: d}
	if len(f.Scenarios) == 0 {
		c.at("scenarios", fact.Say("scenario.the-file-has-no-scenarios"))
		return
	}
	if len(f.Scenarios) > MaxScenarios {
		c.at("scenarios", fact.Say("scenario.too-many-scenarios", len(f.Scenarios), MaxScenarios))
		return
	}
	ids := map[string]int{}
	for i := range f.Scenarios {
		s := &f.Scenarios[i]
		p := fmt.Sprintf("scenarios[%d]", i)
		if s.ID != "" {
			if j, dup := ids[s.ID]; dup {
				l, _ := c.pos(fmt.Sprintf("scenarios[%d].id", j))
				c.at(p+".id", fact.Say("scenario.duplicate-scenario-id-first-at", s.ID, l))
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
	nodes    []string            // Redis nodes
	services []string            // services beside them (storage, db)
	lanes    []string            // nodes, then services: what a match's node may name
	masters  []string            // the nodes that have a replica: what a failover may name
	marks    map[string][]string // client -> the marks it can write (MarksOf)
	algos    map[string]string   // client -> its algorithm
	horizon  time.Duration
}

func (c *validator) scenario(s *Scenario, p string) {
	if strings.TrimSpace(s.ID) == "" {
		c.at(p+".id", fact.Say("scenario.scenario-needs-an-id"))
	} else if strings.ContainsAny(s.ID, " \t\n/") {
		c.at(p+".id", fact.Say("scenario.id-use-letters-digits-and", short(s.ID)))
	}
	if strings.TrimSpace(s.Title.En) == "" {
		c.at(p+".title.en", fact.Say("scenario.scenario-needs-a-title-with"))
	}
	rows := lock.Rows()
	for i, row := range s.Catalog {
		if row < 1 {
			c.at(fmt.Sprintf("%s.catalog[%d]", p, i), fact.Say("scenario.catalog-rows-start-at-1", row))
		} else if !slices.Contains(rows, row) {
			c.at(fmt.Sprintf("%s.catalog[%d]", p, i), fact.Say("scenario.no-catalog-row-the-rows", row, rows[0], rows[len(rows)-1]))
		}
	}
	sc := scope{horizon: s.HorizonOrDefault()}
	if s.Horizon.D() > MaxHorizon {
		c.at(p+".horizon", fact.Say("scenario.horizon-is-longer-than-the", fmtDuration(s.Horizon.D()), fmtDuration(MaxHorizon)))
	}
	c.nodes(s, p, &sc)
	c.locks(s, p)
	c.clients(s, p, &sc)
	c.services(s, p, &sc)
	c.unused(s, p)
	c.faults(s, p, &sc)
	c.narration(s, p, &sc)
	c.expect(s, p)
	c.schedule(s, p, &sc)
	c.explore(s, p, &sc)
	c.challenge(s, p, &sc)
}

// unknownName reports a name that is not among the known ones.
func (c *validator) unknownName(path, what, got string, known []string) {
	if sg := suggest(got, known); sg != "" {
		c.at(path, fact.Say("scenario.unknown-name-meant", thing(what), short(got), sg))
		return
	}
	c.at(path, fact.Say("scenario.unknown-name", thing(what), short(got), strings.Join(known, ", ")))
}

// undeclared reports a client or node name the scenario does not declare.
func (c *validator) undeclared(path, what, got string, declared []string) {
	if sg := suggest(got, declared); sg != "" {
		c.at(path, fact.Say("scenario.undeclared-meant", thing(what), short(got), sg))
		return
	}
	c.at(path, fact.Say("scenario.undeclared", thing(what), short(got), what, strings.Join(declared, ", ")))
}

func hasKey[V any](m map[string]V, k string) bool {
	_, ok := m[k]
	return ok
}
