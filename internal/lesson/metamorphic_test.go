package lesson

import (
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// Metamorphic tests: changes to a scenario that cannot change what
// happens to its locks must not change its verdicts. They run over the
// catalog and over the scenarios written outside it.

// clone copies a scenario deeply enough to change its clients, faults,
// matches and narration.
func clone(sc scenario.Scenario) scenario.Scenario {
	out := sc
	out.Nodes = slices.Clone(sc.Nodes)
	out.Clients = slices.Clone(sc.Clients)
	for i := range out.Clients {
		out.Clients[i].Params = maps.Clone(sc.Clients[i].Params)
	}
	out.Faults = slices.Clone(sc.Faults)
	out.Narration = slices.Clone(sc.Narration)
	out.Schedule = slices.Clone(sc.Schedule)
	for i := range out.Faults {
		out.Faults[i].When = cloneWhen(sc.Faults[i].When)
	}
	for i := range out.Narration {
		out.Narration[i].When = cloneWhen(sc.Narration[i].When)
	}
	return out
}

func cloneWhen(w scenario.When) scenario.When {
	if w.On != nil {
		m := *w.On
		w.On = &m
	}
	if w.At != nil {
		d := *w.At
		w.At = &d
	}
	return w
}

// matches lists every match of a scenario (faults' and narration's).
func matches(sc *scenario.Scenario) []*scenario.Match {
	var out []*scenario.Match
	for i := range sc.Faults {
		if sc.Faults[i].On != nil {
			out = append(out, sc.Faults[i].On)
		}
	}
	for i := range sc.Narration {
		if sc.Narration[i].On != nil {
			out = append(out, sc.Narration[i].On)
		}
	}
	return out
}

// lockKey is a client's lock key (its key parameter, "lock" by default).
func lockKey(c scenario.Client) string {
	if k, ok := c.Params["key"].(string); ok && k != "" {
		return k
	}
	return "lock"
}

// takesKey reports whether an algorithm's lock key is a parameter.
func takesKey(algorithm string) bool {
	info, ok := lock.Lookup(algorithm)
	return ok && slices.ContainsFunc(info.Params, func(p lock.Param) bool { return p.Name == "key" })
}

// renameClients gives every client another name, everywhere it is named.
func renameClients(sc scenario.Scenario) scenario.Scenario {
	out := clone(sc)
	to := func(n string) string {
		if n == "" {
			return n
		}
		return "c-" + n
	}
	for i := range out.Clients {
		out.Clients[i].Name = to(out.Clients[i].Name)
	}
	for i := range out.Faults {
		out.Faults[i].Client = to(out.Faults[i].Client)
	}
	for i := range out.Schedule {
		out.Schedule[i].Client = to(out.Schedule[i].Client)
	}
	for _, m := range matches(&out) {
		m.Client = to(m.Client)
	}
	return out
}

// renameLocks moves every lock to another key, everywhere it is named.
func renameLocks(sc scenario.Scenario) scenario.Scenario {
	out := clone(sc)
	renamed := map[string]string{}
	for i := range out.Clients {
		if !takesKey(out.Clients[i].Algorithm) {
			continue
		}
		k := lockKey(out.Clients[i])
		renamed[k] = "moved-" + k
		if out.Clients[i].Params == nil {
			out.Clients[i].Params = map[string]any{}
		}
		out.Clients[i].Params["key"] = renamed[k]
	}
	for _, m := range matches(&out) {
		if to, ok := renamed[m.Key]; ok {
			m.Key = to
		}
	}
	return out
}

// addIdle adds a client that takes no lock and does no work.
func addIdle(sc scenario.Scenario) scenario.Scenario {
	out := clone(sc)
	out.Clients = append(out.Clients, scenario.Client{Name: "idle", Algorithm: "no-lock", Task: scenario.TaskNone,
		Start: scenario.Duration(333 * time.Microsecond)})
	return out
}

// addBystander adds a client that takes and releases a lock on a key of
// its own, off the others' millisecond grid so that none of its moves ties
// with theirs.
func addBystander(sc scenario.Scenario) scenario.Scenario {
	out := clone(sc)
	out.Clients = append(out.Clients, scenario.Client{Name: "bystander", Algorithm: "lua-compare-delete",
		Params: map[string]any{"key": "elsewhere", "ttl": 2 * time.Second, "retry": 250 * time.Millisecond},
		Task:   scenario.TaskNone, Requests: 3, Work: scenario.Duration(10*time.Millisecond + 333*time.Microsecond),
		Start: scenario.Duration(333 * time.Microsecond), Latency: scenario.Duration(777 * time.Microsecond)})
	return out
}

// duplicate runs a second copy of every client on a second key, under
// other names, with copies of the faults that name a client.
func duplicate(sc scenario.Scenario) scenario.Scenario {
	out := clone(sc)
	copyOf := renameLocks(renameClients(sc))
	out.Clients = append(out.Clients, copyOf.Clients...)
	for _, f := range copyOf.Faults {
		if f.Client != "" {
			out.Faults = append(out.Faults, f)
		}
	}
	return out
}

// shift starts everything later and ends the run as much later.
func shift(sc scenario.Scenario, by time.Duration) scenario.Scenario {
	out := clone(sc)
	d := scenario.Duration(by)
	for i := range out.Clients {
		out.Clients[i].Start += d
	}
	for i := range out.Faults {
		if out.Faults[i].At != nil {
			*out.Faults[i].At += d
		}
	}
	for i := range out.Narration {
		if out.Narration[i].At != nil {
			*out.Narration[i].At += d
		}
	}
	out.Horizon = horizon(sc) + d
	return out
}

func horizon(sc scenario.Scenario) scenario.Duration {
	if sc.Horizon == 0 {
		return scenario.Duration(30 * time.Second)
	}
	return sc.Horizon
}

// verdictsOf runs a scenario to its end and returns its verdicts and
// whether every client thread had ended before the horizon.
func verdictsOf(t *testing.T, sc scenario.Scenario) ([]string, bool) {
	t.Helper()
	r, err := New(&sc, cfg(sc.Seed))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := r.RunToEnd(); err != nil {
		t.Fatal(err)
	}
	started, done := 0, 0
	for _, e := range r.World.Log() {
		switch e.Kind {
		case sim.KindStart:
			started++
		case sim.KindDone:
			done++
		}
	}
	return r.Verdicts(), started == done
}

// metamorphicCorpus is the catalog and the scenarios written outside it.
func metamorphicCorpus(t *testing.T) []scenario.Scenario {
	t.Helper()
	out := slices.Clone(catalog(t).Scenarios)
	const path = "testdata/checker/defects.yaml"
	f, err := scenario.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return append(out, f.Scenarios...)
}

func TestVerdictsSurviveChangesThatMeanNothing(t *testing.T) {
	for _, sc := range metamorphicCorpus(t) {
		if len(sc.Schedule) > 0 {
			continue
		}
		t.Run(sc.ID, func(t *testing.T) {
			want, quiet := verdictsOf(t, sc)
			check := func(what string, changed scenario.Scenario) {
				t.Helper()
				if got, _ := verdictsOf(t, changed); !SameVerdicts(got, want) {
					t.Errorf("%s: verdicts = %v, want %v as before", what, got, want)
				}
			}
			check("clients renamed", renameClients(sc))
			check("locks on other keys", renameLocks(sc))
			check("an idle client added", addIdle(sc))
			check("the run shifted by 1.234s", shift(sc, 1234*time.Millisecond))
			if len(sc.Nodes) == 0 {
				// on a lone node, another client's lock on another key
				// is no business of these locks
				check("a bystander on another key added", addBystander(sc))
			}
			if len(sc.Data) == 0 && len(sc.Services()) == 0 {
				// without a shared stock or storage, a second copy of the
				// race on a second key is a race of its own
				check("the race duplicated on a second key", duplicate(sc))
			}
			if SameVerdicts(want, []string{"safe"}) && quiet {
				longer := clone(sc)
				longer.Horizon = min(2*horizon(sc), scenario.Duration(10*time.Minute))
				check("the horizon doubled after a quiet end", longer)
			}
		})
	}
}
