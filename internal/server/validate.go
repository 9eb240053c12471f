package server

import (
	"encoding/json"
	"github.com/lockstep/lockstep/internal/fact"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lockstep/lockstep/internal/live"
)

// ops are the requests a browser may send, each with the arguments it reads.
var ops = map[string]bool{
	"hello": true, "load": true, "check": true, "step": true, "step-client": true, "back": true,
	"seek": true, "play": true, "pause": true, "inject": true, "reset": true, "seed": true,
	"export-yaml": true, "sync": true, "explore": true, "explore-cancel": true,
	"compare": true,                      // compare.go
	"report":  true, "report-open": true, // report.go
	"setup": true, "setup-open": true, "setup-cancel": true, "setup-form": true, // setup.go, setup_form.go
}

// validate checks a request's arguments against the server's limits before
// the request reaches its session: every number in range, every argument
// the op needs present. The arguments that depend on the loaded scenario
// (a fault's client, recorded actions) are checked by the session, before
// anything is applied.
func validate(r *Request, lim Limits) error {
	if r.Op == "" {
		return coded("no-op", nil, "the request has no op (see docs/protocol.md)")
	}
	if !ops[r.Op] {
		return coded("unknown-op", map[string]any{"op": short(r.Op)}, "unknown op %q (see docs/protocol.md)", short(r.Op))
	}
	if r.ID < 0 {
		return badArg(r.Op, "id", fact.Say("server.id-is-negative-ids-count-up", r.ID))
	}
	if len(r.Session) > 64 {
		return badArg("hello", "session", fact.Say("server.session-id-is-32-hex-digits", len(r.Session)))
	}
	if len(r.Scenario) > 200 || len(r.Client) > 200 || len(r.With) > 200 || len(r.Lock) > 200 || len(r.Column) > 200 {
		return badArg(r.Op, "name", fact.Say("server.scenario-or-client-name-is-at"))
	}
	switch r.Op {
	case "step":
		if r.N < 0 {
			return badArg("step", "n", fact.Say("server.n-is-negative-give-how-many", r.N))
		}
		if r.N > lim.MaxSteps {
			return coded("n-cap", map[string]any{"n": r.N, "max": lim.MaxSteps}, "step: n %d is over the cap of %d steps", r.N, lim.MaxSteps)
		}
	case "seek", "load":
		if r.Op == "seek" && r.Step == nil {
			return coded("seek-missing", nil, "seek: step is missing")
		}
		if r.Step != nil && *r.Step < 0 {
			return badArg(r.Op, "step", fact.Say("server.step-is-negative-steps-count-from", *r.Step))
		}
		if r.Step != nil && *r.Step > lim.MaxSteps {
			return coded("step-cap", map[string]any{"max": lim.MaxSteps}, "%s: step %d is over the session's cap of %d steps", r.Op, *r.Step, lim.MaxSteps)
		}
		if r.Op == "load" && r.Scenario == "" && r.YAML == "" {
			return coded("load-what", nil, "load: give a scenario id or yaml")
		}
		if len(r.Recording) > live.MaxLink {
			return coded("live-link-big", map[string]any{"kib": len(r.Recording) >> 10, "max": live.MaxLink >> 10},
				"load: a recording of %d KiB, over the limit of %d KiB a link carries", len(r.Recording)>>10, live.MaxLink>>10)
		}
	case "explore":
		if r.Strategy != "" && r.Strategy != "random" && r.Strategy != "pct" && r.Strategy != "exhaustive" {
			return badArg("explore", "strategy", fact.Say("server.unknown-strategy-want-random-pct-or", short(r.Strategy)))
		}
		if len(r.Budget) > 200 {
			return badArg("explore", "budget", fact.Say("server.budget-is-at-most-200-characters"))
		}
	case "play":
		if err := checkSpeed(r.Speed, lim); err != nil {
			return err
		}
	case "step-client":
		if r.Client == "" {
			return coded("which-client", nil, "step-client: which client? (client is empty)")
		}
	case "inject":
		if r.Fault == nil {
			return coded("fault-missing", nil, "inject: fault is missing")
		}
	case "setup":
		if err := setupFaults(r.Faults); err != nil {
			return err
		}
	case "report-open", "setup-open":
		if r.Lock == "" || r.Column == "" {
			return badArg(r.Op, "lock", fact.Say("server.give-cells-lock-and-column"))
		}
	case "seed":
		if r.Seed == nil {
			return badArg("seed", "seed", fact.Say("server.seed-is-missing"))
		}
	}
	return nil
}

// checkSpeed accepts 0 (keep the current speed) or a speed between the
// caps.
func checkSpeed(v float64, lim Limits) error {
	switch {
	case v == 0:
		return nil
	case math.IsNaN(v) || math.IsInf(v, 0):
		return badArg("play", "speed", fact.Say("server.speed-must-be-number-of-steps"))
	case v < 0:
		return badArg("play", "speed", fact.Say("server.speed-is-negative-give-steps-per", v, MinSpeed, lim.MaxSpeed))
	case v < MinSpeed:
		return coded("speed-floor", map[string]any{"speed": v, "min": MinSpeed}, "play: speed %g is under the floor of %g steps per second", v, MinSpeed)
	case v > lim.MaxSpeed:
		return coded("speed-cap", map[string]any{"speed": v, "max": lim.MaxSpeed}, "play: speed %g is over the cap of %g steps per second", v, lim.MaxSpeed)
	}
	return nil
}

// short cuts a string quoted in an error to a readable length (40
// characters), with its control, formatting and line-breaking characters
// (a NUL, U+2028) and invalid UTF-8 shown as U+FFFD: what a request sent
// is never echoed raw.
func short(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp) {
			return '\uFFFD' // a request's NUL or line break is not echoed into an error
		}
		return r
	}, s)
	if utf8.RuneCountInString(s) > 40 {
		return string([]rune(s)[:40]) + "…"
	}
	return s
}

// idOf finds the id of a request that does not decode, so that its error
// still answers it; 0 when there is none.
func idOf(data []byte) int {
	var r struct {
		ID int `json:"id"`
	}
	if json.Unmarshal(data, &r) != nil || r.ID < 0 {
		return 0
	}
	return r.ID
}
