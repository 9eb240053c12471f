package server

import (
	"cmp"
	"fmt"
	"github.com/lockstep/lockstep/internal/fact"
	"strings"
	"time"

	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// parse reads scenario YAML sent by a browser with scenario.Check, so that
// every problem comes with its line and column for the editor.
func (s *Server) parse(text string) (*scenario.File, lineErrors) {
	f, errs := scenario.Check("scenario", []byte(text))
	if len(errs) > 0 {
		out := make(lineErrors, 0, len(errs))
		for _, e := range errs {
			out = append(out, lineError{Line: e.Line, Col: e.Col, Msg: e.Msg, Zh: e.Zh})
		}
		return nil, out
	}
	if f == nil || len(f.Scenarios) == 0 {
		t := fact.Say("server.file-holds-no-scenario")
		return nil, lineErrors{{Msg: t.En, Zh: t.Zh}}
	}
	return f, nil
}

// checkCaps refuses a scenario beyond the server's limits.
func (s *Server) checkCaps(sc *scenario.Scenario) error {
	l := s.limits
	if n := len(sc.Clients); n > l.MaxClients {
		return coded("clients-cap", map[string]any{"id": sc.ID, "n": n, "max": l.MaxClients}, "scenario %s has %d clients, over the cap of %d", sc.ID, n, l.MaxClients)
	}
	if n := len(lesson.NodeNames(sc)); n > l.MaxNodes {
		return coded("nodes-cap", map[string]any{"id": sc.ID, "n": n, "max": l.MaxNodes}, "scenario %s has %d nodes, over the cap of %d", sc.ID, n, l.MaxNodes)
	}
	if h := sc.Horizon.D(); h > l.MaxHorizon {
		return coded("horizon-cap", map[string]any{"id": sc.ID, "h": h.String(), "max": l.MaxHorizon.String()}, "scenario %s has a horizon of %s, over the cap of %s", sc.ID, h, l.MaxHorizon)
	}
	if sc.Horizon == 0 && 30*time.Second > l.MaxHorizon {
		return coded("horizon-cap", map[string]any{"id": sc.ID, "h": "30s", "max": l.MaxHorizon.String()}, "scenario %s has the default horizon 30s, over the cap of %s", sc.ID, l.MaxHorizon)
	}
	return nil
}

// lineErrors are the errors of a scenario file; it is an error itself.
type lineErrors []lineError

func (l lineErrors) Error() string {
	parts := make([]string, len(l))
	for i, e := range l {
		if e.Line > 0 {
			parts[i] = fmt.Sprintf("line %d: %s", e.Line, e.Msg)
		} else {
			parts[i] = e.Msg
		}
	}
	return strings.Join(parts, "; ")
}

// words are the problems in both languages, as the yaml error's detail.
func (l lineErrors) words() sim.Text {
	en, zh := make([]string, len(l)), make([]string, len(l))
	for i, e := range l {
		t := sim.Text{En: e.Msg, Zh: cmp.Or(e.Zh, e.Msg)}
		if e.Line > 0 {
			t = fact.Say("server.line-problem", e.Line, t)
		}
		en[i], zh[i] = t.En, t.Zh
	}
	sep := fact.Say("fact.list-separator")
	return sim.Text{En: strings.Join(en, sep.En), Zh: strings.Join(zh, sep.Zh)}
}
