package scenario

import (
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v4"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/sim"
)

// ErrBadAction starts the error of an action refused by CheckFault or
// CheckSchedule.
var ErrBadAction = errors.New("scenario: bad action")

// CheckFault validates a fault that a viewer injects now into a run of s:
// its kind, its client or node (one s declares) and its amounts, within the
// same limits as a fault in a file (MaxDuration). At and On are ignored: an
// injected fault happens at the cursor.
func CheckFault(s *Scenario, f Fault) error {
	f.At, f.On = nil, nil
	return checkActions(s, "fault", []Action{{Fault: f}}, false)
}

// CheckSchedule validates recorded actions sent with a run to replay (a
// share link, a saved session) before any of them is replayed: at most
// MaxSchedule of them, in step order, each a manual step of a declared
// client or a valid fault.
func CheckSchedule(s *Scenario, actions []Action) error {
	if len(actions) > MaxSchedule {
		t := fact.Say("scenario.too-many-actions", len(actions), MaxSchedule)
		return &ActionError{Problems: []*Error{{Msg: t.En, Zh: t.Zh}}}
	}
	return checkActions(s, "actions", actions, true)
}

func checkActions(s *Scenario, name string, actions []Action, schedule bool) error {
	c := &validator{d: &decoder{r: &report{}, vals: map[string]*yaml.Node{}, keys: map[string]*yaml.Node{}, bad: map[string]bool{}}, flat: true}
	sc := &scope{horizon: s.HorizonOrDefault(), nodes: s.NodeNames()}
	for _, cl := range s.Clients {
		sc.clients = append(sc.clients, cl.Name)
	}
	last := 0
	for i := range actions {
		a := &actions[i]
		p := name
		if schedule {
			p = fmt.Sprintf("%s[%d]", name, i)
			switch {
			case a.Step < 0:
				c.at(p+".step", fact.Say("scenario.step-cannot-be-negative-got", a.Step))
			case a.Step < last:
				c.at(p+".step", fact.Say("scenario.step-comes-before-the-step", a.Step, last))
			}
			last = max(last, a.Step)
			if a.At != nil || a.On != nil {
				c.at(p, fact.Say("scenario.recorded-action-happens-at-a"))
			}
		}
		if a.For < 0 {
			c.at(p+".for", fact.Say("scenario.for-cannot-be-negative-got", a.For.D()))
		}
		if a.For.D() > MaxDuration {
			c.at(p+".for", fact.Say("scenario.for-is-longer-than-the", a.For.D(), fmtDuration(MaxDuration)))
		}
		if a.By.D() > MaxDuration || a.By.D() < -MaxDuration {
			c.at(p+".by", fact.Say("scenario.by-is-longer-than-the", a.By.D(), fmtDuration(MaxDuration)))
		}
		c.fault(&a.Fault, p, sc, schedule)
		if len(c.d.r.errs) >= MaxReported {
			break
		}
	}
	if len(c.d.r.errs) == 0 {
		return nil
	}
	return &ActionError{Problems: c.d.r.errs}
}

// ActionError is an action CheckFault or CheckSchedule refused: it is
// ErrBadAction, and says its problems in both languages (Words).
type ActionError struct {
	Problems []*Error
}

func (e *ActionError) Error() string { return ErrBadAction.Error() + ": " + e.Words().En }

// Is makes the error ErrBadAction.
func (e *ActionError) Is(target error) bool { return target == ErrBadAction }

// Words are the problems, in English and Chinese, joined by "; ".
func (e *ActionError) Words() sim.Text {
	en, zh := make([]string, len(e.Problems)), make([]string, len(e.Problems))
	for i, p := range e.Problems {
		en[i], zh[i] = p.Msg, p.Zh
	}
	return sim.Text{En: strings.Join(en, "; "), Zh: strings.Join(zh, "；")}
}
