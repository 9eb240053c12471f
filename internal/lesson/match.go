package lesson

import (
	"strings"

	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

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
