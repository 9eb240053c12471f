package scenario

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lockstep/lockstep/internal/fact"
)

func (c *validator) narration(s *Scenario, p string, sc *scope) {
	if len(s.Narration) > MaxNarration {
		c.at(p+".narration", fact.Say("scenario.too-many-narration-entries", len(s.Narration), MaxNarration))
	}
	for i := range s.Narration {
		n := &s.Narration[i]
		np := fmt.Sprintf("%s.narration[%d]", p, i)
		c.when(&n.When, np, sc, false)
		if strings.TrimSpace(n.En) == "" {
			c.at(np+".en", fact.Say("scenario.narration-needs-en-text"))
		}
		if n.Claim != nil {
			c.claim(n.Claim, np+".claim", sc)
		}
	}
}

// claim checks that a narration's claim names the scenario's own clients,
// nodes and services.
func (c *validator) claim(cl *Claim, p string, sc *scope) {
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
				c.at(kp+".client", fact.Say("scenario.holds-names-the-client-whose"))
			case k.Client != "" && !slices.Contains(sc.clients, k.Client):
				c.undeclared(kp+".client", "client", k.Client, sc.clients)
			}
			if k.Node != "" && !slices.Contains(sc.lanes, k.Node) {
				c.undeclared(kp+".node", "node", k.Node, sc.lanes)
			}
		}
	}
}
