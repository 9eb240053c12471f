package scenario

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/sim"
)

// Form is Check my lock's short form: the lock (a catalog algorithm, or
// an acquire and a release pasted as a Lua script or as commands, one a
// line) and the workload (how many workers, the lease, the work, the
// retry). Its YAML is a scenario file that says the same, for the editor
// to keep and the card to check.
//
// A pasted Lua script gets the lock key as KEYS[1], the client's token as
// ARGV[1] and the lease in milliseconds as ARGV[2]. A pasted command line
// is its words with the placeholders $key, $token, $ttl (ms) and $ttl_s,
// and optionally "=> REPLY", the reply without which the step fails:
// SET $key $token NX PX $ttl => OK.
type Form struct {
	Lock      string `json:"lock,omitempty"`       // a catalog algorithm ("": the pasted acquire and release)
	Acquire   string `json:"acquire,omitempty"`    // Lua, or commands one a line
	Release   string `json:"release,omitempty"`    // Lua, or commands one a line
	AcquireOK string `json:"acquire_ok,omitempty"` // a script's reply that means the lock was taken ("": any but an error)
	ReleaseOK string `json:"release_ok,omitempty"` // a script's reply that means the lock was released ("": any but an error)
	Workers   int    `json:"workers"`              // clients, 1 to MaxClients
	TTL       string `json:"ttl"`                  // the lease: 1s
	Work      string `json:"work"`                 // each worker's time inside: 500ms
	Retry     string `json:"retry"`                // the wait between tries: 100ms
}

// FormID is the id of the scenario a form writes.
const FormID = "my-lock"

// FormError is a form's field that is wrong (lock, acquire, release,
// acquire_ok, release_ok, workers, ttl, work, retry) and why, in both
// languages.
type FormError struct {
	Field string
	Why   sim.Text
}

func (e *FormError) Error() string { return e.Field + ": " + e.Why.En }

// Words say the problem with the field's name, in both languages:
// "workers: 40 workers: give 1 to 16 …".
func (e *FormError) Words() sim.Text {
	name, ok := formFields[e.Field]
	if !ok {
		name = both(e.Field)
	}
	return fact.Say("scenario.labelled", name, e.Why)
}

// formFields name the form's fields as the page labels them.
var formFields = map[string]sim.Text{
	"lock":       fact.Say("scenario.form.field.lock"),
	"acquire":    fact.Say("scenario.form.field.acquire"),
	"release":    fact.Say("scenario.form.field.release"),
	"acquire_ok": fact.Say("scenario.form.field.acquire-ok"),
	"release_ok": fact.Say("scenario.form.field.release-ok"),
	"workers":    fact.Say("scenario.form.field.workers"),
	"ttl":        fact.Say("scenario.form.field.ttl"),
	"work":       fact.Say("scenario.form.field.work"),
	"retry":      fact.Say("scenario.form.field.retry"),
}

// FormYAML writes the form's scenario file, checked as Parse checks any
// file; a problem is a *FormError naming the field it comes from (a Lua
// syntax error at the pasted script's own line and column).
func FormYAML(f Form) (string, error) {
	ttl, work, retry, err := f.durations()
	if err != nil {
		return "", err
	}
	if f.Workers < 1 || f.Workers > MaxClients {
		return "", &FormError{"workers", fact.Say("scenario.form.workers", f.Workers, MaxClients)}
	}
	w := &formWriter{}
	var algorithm string
	var nodes int
	switch {
	case f.Lock != "" && (strings.TrimSpace(f.Acquire) != "" || strings.TrimSpace(f.Release) != ""):
		return "", &FormError{"lock", fact.Say("scenario.form.pick-or-paste")}
	case f.Lock != "":
		a, ok := lock.Lookup(f.Lock)
		if !ok {
			return "", &FormError{"lock", fact.Say("scenario.form.unknown-lock", short(f.Lock), strings.Join(lock.IDs(), ", "))}
		}
		algorithm, nodes = a.ID, max(a.Nodes, 1)
	case strings.TrimSpace(f.Acquire) == "":
		return "", &FormError{"acquire", fact.Say("scenario.form.paste-acquire")}
	case strings.TrimSpace(f.Release) == "":
		return "", &FormError{"release", fact.Say("scenario.form.paste-release")}
	default:
		algorithm = FormID
	}
	horizon := time.Duration(f.Workers)*(work+retry) + ttl + 2*time.Second
	horizon = min(horizon.Round(time.Second), MaxHorizon)
	w.line("scenarios:")
	w.line("  - id: " + FormID)
	w.line("    title:")
	title := fact.Say("scenario.form.title", algorithm, f.Workers, fmtDuration(ttl), fmtDuration(work))
	w.line("      en: " + quote(title.En))
	w.line("      zh: " + quote(title.Zh))
	w.line("    horizon: " + fmtDuration(horizon))
	w.line(`    data: {stock: "10"}`)
	if nodes > 1 {
		w.line("    nodes:")
		for i := range nodes {
			w.line(fmt.Sprintf("      - {name: r%d}", i+1))
		}
	}
	params := ""
	if algorithm == FormID {
		w.line("    locks:")
		w.line("      - name: " + FormID)
		w.line("        ttl: " + fmtDuration(ttl))
		w.line("        retry: " + fmtDuration(retry))
		w.step("acquire", f.Acquire, f.AcquireOK, []string{"$token", "$ttl"})
		w.step("release", f.Release, f.ReleaseOK, []string{"$token"})
	} else {
		a, _ := lock.Lookup(algorithm)
		params = catalogParams(a, ttl, retry)
	}
	w.line("    clients:")
	for i := range f.Workers {
		w.line(fmt.Sprintf("      - {name: W%d, algorithm: %s, work: %s%s}", i+1, algorithm, fmtDuration(work), params))
	}
	if errs := checkForm(w); errs != nil {
		return "", errs
	}
	return w.String(), nil
}

// durations reads the form's lease, work and retry, each a duration
// above zero.
func (f Form) durations() (ttl, work, retry time.Duration, err error) {
	read := func(field, s string) time.Duration {
		if err != nil {
			return 0
		}
		d, e := parseDuration(s)
		var p problem
		switch {
		case errors.As(e, &p):
			err = &FormError{field, p.Text}
		case e != nil:
			err = &FormError{field, both(e.Error())}
		case d <= 0:
			err = &FormError{field, fact.Say("scenario.form.above-zero", short(s))}
		case d.D() > MaxHorizon:
			err = &FormError{field, fact.Say("scenario.form.longer-than-a-run", short(s), fmtDuration(MaxHorizon))}
		}
		return d.D()
	}
	ttl, work, retry = read("ttl", f.TTL), read("work", f.Work), read("retry", f.Retry)
	return ttl, work, retry, err
}

// catalogParams are a catalog lock's lease and retry as a client's
// params, under its own names (", params: {…}"), or "" when it takes
// neither.
func catalogParams(a *lock.Info, ttl, retry time.Duration) string {
	var set map[string]any
	if a.CompareParams != nil {
		set = a.CompareParams(ttl, retry)
	} else {
		set = map[string]any{}
		for name, d := range map[string]time.Duration{"ttl": ttl, "retry": retry} {
			if p, ok := a.Param(name); ok && p.Kind == lock.Dur {
				set[name] = fmtDuration(d)
			}
		}
	}
	if len(set) == 0 {
		return ""
	}
	b, _ := json.Marshal(set) // a JSON object is a YAML flow mapping
	return ", params: " + string(b)
}

// quote writes s as a YAML double-quoted scalar (JSON's form).
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
