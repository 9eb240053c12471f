package scenario

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lockstep/lockstep/internal/fact"
)

func (c *validator) nodes(s *Scenario, p string, sc *scope) {
	if len(s.Nodes) > MaxNodesPerScenario {
		c.at(p+".nodes", fact.Say("scenario.too-many-nodes", len(s.Nodes), MaxNodesPerScenario))
	}
	seen := map[string]int{}
	for i, n := range s.Nodes {
		np := fmt.Sprintf("%s.nodes[%d]", p, i)
		switch {
		case strings.TrimSpace(n.Name) == "":
			c.at(np+".name", fact.Say("scenario.node-needs-a-name"))
			continue
		case hasKey(seen, n.Name):
			l, _ := c.pos(fmt.Sprintf("%s.nodes[%d].name", p, seen[n.Name]))
			c.at(np+".name", fact.Say("scenario.duplicate-node-name-first-at", n.Name, l))
			continue
		}
		seen[n.Name] = i
		sc.nodes = append(sc.nodes, n.Name)
	}
	if len(s.Nodes) == 0 {
		sc.nodes = s.NodeNames()
	}
	sc.masters = replicated(s)
	if len(s.Nodes) > 1 && s.Nodes[0].ReplicaOf != "" {
		c.at(p+".nodes[0].replica_of", fact.Say("scenario.first-node-is-replica", s.Nodes[0].Name))
	}
	for i, n := range s.Nodes {
		if n.ReplicaOf == "" {
			if n.Lag != 0 {
				c.at(fmt.Sprintf("%s.nodes[%d].lag", p, i), fact.Say("scenario.lag-is-ignored-node-is", n.Name))
			}
			continue
		}
		rp := fmt.Sprintf("%s.nodes[%d].replica_of", p, i)
		switch {
		case n.ReplicaOf == n.Name:
			c.at(rp, fact.Say("scenario.node-cannot-be-a-replica", n.Name))
		case !slices.Contains(sc.nodes, n.ReplicaOf):
			c.unknownName(rp, "node", n.ReplicaOf, sc.nodes)
		}
	}
}

// services notes the services the scenario has; a node may not take the
// name of one, since both are lanes of the timeline.
func (c *validator) services(s *Scenario, p string, sc *scope) {
	sc.services = s.Services()
	sc.lanes = append(slices.Clone(sc.nodes), sc.services...)
	for i, n := range s.Nodes {
		if slices.Contains(sc.services, n.Name) {
			c.at(fmt.Sprintf("%s.nodes[%d].name", p, i), fact.Say("scenario.node-name-is-taken-by", n.Name, n.Name))
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

// unused refuses a storage: or sql: section no client uses: without a
// client whose task is write there is no storage to write to, and without
// a client of the SQL lock no database.
func (c *validator) unused(s *Scenario, p string) {
	bare := *s
	bare.Storage, bare.SQL = nil, nil
	used := bare.Services()
	if s.Storage != nil && !slices.Contains(used, StorageService) {
		c.atKey(p+".storage", fact.Say("scenario.storage-is-ignored-no-clients"))
	}
	if s.SQL != nil && !slices.Contains(used, DBService) {
		c.atKey(p+".sql", fact.Say("scenario.sql-is-ignored-no-client"))
	}
}

// replicated lists the nodes that have a replica: the ones a failover can
// promote a replica of.
func replicated(s *Scenario) []string {
	var out []string
	for _, n := range s.Nodes {
		if n.ReplicaOf != "" && !slices.Contains(out, n.ReplicaOf) {
			out = append(out, n.ReplicaOf)
		}
	}
	return out
}
