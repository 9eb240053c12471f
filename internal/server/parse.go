package server

import (
	"errors"
	"fmt"
	"time"

	"go.yaml.in/yaml/v4"

	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
)

// parse reads scenario YAML sent by a browser, with each error at its line
// and column when the parser knows them.
func (s *Server) parse(text string) (*scenario.File, lineErrors) {
	if len(text) > readLimit {
		return nil, lineErrors{{Msg: fmt.Sprintf("the file is %d bytes, over the limit of %d", len(text), readLimit)}}
	}
	f, err := scenario.Parse("scenario", []byte(text))
	if err != nil {
		return nil, yamlErrors(err)
	}
	if len(f.Scenarios) == 0 {
		return nil, lineErrors{{Msg: "the file holds no scenario (write scenarios: [...])"}}
	}
	return f, nil
}

// yamlErrors splits a parse error into located errors.
func yamlErrors(err error) lineErrors {
	var many *yaml.LoadErrors
	if errors.As(err, &many) && len(many.Errors) > 0 {
		out := make(lineErrors, 0, len(many.Errors))
		for _, e := range many.Errors {
			out = append(out, lineError{Line: e.Mark.Line, Col: e.Mark.Column, Msg: e.Message})
		}
		return out
	}
	var one *yaml.LoadError
	if errors.As(err, &one) {
		return lineErrors{{Line: one.Mark.Line, Col: one.Mark.Column, Msg: one.Message}}
	}
	return lineErrors{{Msg: err.Error()}}
}

// checkCaps refuses a scenario beyond the server's limits.
func (s *Server) checkCaps(sc *scenario.Scenario) error {
	l := s.limits
	if n := len(sc.Clients); n > l.MaxClients {
		return fmt.Errorf("scenario %s has %d clients, over the cap of %d", sc.ID, n, l.MaxClients)
	}
	if n := len(lesson.NodeNames(sc)); n > l.MaxNodes {
		return fmt.Errorf("scenario %s has %d nodes, over the cap of %d", sc.ID, n, l.MaxNodes)
	}
	if h := sc.Horizon.D(); h > l.MaxHorizon {
		return fmt.Errorf("scenario %s has a horizon of %s, over the cap of %s", sc.ID, h, l.MaxHorizon)
	}
	if sc.Horizon == 0 && 30*time.Second > l.MaxHorizon {
		return fmt.Errorf("scenario %s has the default horizon 30s, over the cap of %s", sc.ID, l.MaxHorizon)
	}
	return nil
}

func (s *Server) capStepsOf(n int) error {
	if n > s.limits.MaxSteps {
		return fmt.Errorf("step %d is over the session's cap of %d steps", n, s.limits.MaxSteps)
	}
	return nil
}
