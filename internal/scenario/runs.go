package scenario

import (
	"fmt"
	"reflect"
	"strings"
	"unicode"

	"go.yaml.in/yaml/v4"

	"github.com/lockstep/lockstep/internal/fact"
)

// A run of hand steps is how a file writes consecutive manual steps
// compactly: one schedule entry
//
//	- {step: 120, do: step, clients: A B A C}
//
// stands for A's step at 120, B's at 121, A's at 122 and C's at 123. A
// recording of thousands of hand steps (the browser's Save run as YAML)
// is then a few bytes a step and one YAML value a run, well within the
// file's limits. Parse expands runs (the Schedule in memory holds one
// entry per step, as the browser and the engine replay them); Marshal
// writes consecutive hand steps as runs.

// minRun is the fewest consecutive hand steps Marshal writes as a run.
const minRun = 3

// expandRuns replaces every run of hand steps in the file's schedules by
// one entry a step, keeping each entry's place in the file for the
// validator's messages: the steps of a run point at the run's clients.
func (d *decoder) expandRuns(f *File) {
	for i := range f.Scenarios {
		s := &f.Scenarios[i]
		has := false
		for _, a := range s.Schedule {
			has = has || a.Clients != ""
		}
		if !has {
			continue
		}
		p := fmt.Sprintf("scenarios[%d].schedule", i)
		moved := map[string]string{} // new path prefix -> old
		var out []Action
		for j, a := range s.Schedule {
			old := fmt.Sprintf("%s[%d]", p, j)
			if a.Clients == "" {
				moved[fmt.Sprintf("%s[%d]", p, len(out))] = old
				out = append(out, a)
				continue
			}
			names := strings.Fields(a.Clients)
			run := a
			run.Clients = ""
			switch {
			case a.Do != StepAction:
				d.errAt(d.vals[old], fact.Say("scenario.hand-steps-do-step", a.Do))
				continue
			case a.Client != "":
				d.errAt(d.vals[old+".client"], fact.Say("scenario.schedule-entry-takes-client-one"))
				continue
			case !reflect.DeepEqual(run, Action{Step: a.Step, Fault: Fault{Do: StepAction}}):
				d.errAt(d.vals[old], fact.Say("scenario.hand-steps-fields"))
				continue
			}
			for k, name := range names {
				moved[fmt.Sprintf("%s[%d]", p, len(out))] = old + "#" + fmt.Sprint(k)
				out = append(out, Action{Step: a.Step + k, Fault: Fault{Do: StepAction, Client: name}})
			}
		}
		d.renumber(p, moved)
		s.Schedule = out
	}
}

// renumber moves the remembered places under the schedule at p to the
// entries' new indices: moved maps each new entry's path to its old one,
// or for a step of a run to the run's path, "#", its place in the run.
func (d *decoder) renumber(p string, moved map[string]string) {
	under := func(m map[string]bool, keys []string) []string {
		for k := range m {
			if strings.HasPrefix(k, p+"[") {
				keys = append(keys, k)
			}
		}
		return keys
	}
	var paths []string
	seen := map[string]bool{}
	for k := range d.vals {
		seen[k] = true
	}
	for k := range d.keys {
		seen[k] = true
	}
	for k := range d.bad {
		seen[k] = true
	}
	paths = under(seen, paths)
	vals, keys, bad := map[string]*yaml.Node{}, map[string]*yaml.Node{}, map[string]bool{}
	for _, k := range paths {
		if v, ok := d.vals[k]; ok {
			vals[k] = v
			delete(d.vals, k)
		}
		if v, ok := d.keys[k]; ok {
			keys[k] = v
			delete(d.keys, k)
		}
		if d.bad[k] {
			bad[k] = true
			delete(d.bad, k)
		}
	}
	for to, from := range moved {
		run, _, isRun := strings.Cut(from, "#")
		if isRun {
			// A step of a run: the entry and its client are the run's
			// clients value, its step the run's step.
			if n, ok := vals[run+".clients"]; ok {
				d.vals[to] = n
				d.vals[to+".client"] = n
				d.vals[to+".do"] = n
			}
			if n, ok := vals[run+".step"]; ok {
				d.vals[to+".step"] = n
			}
			if n, ok := keys[run+".clients"]; ok {
				d.keys[to+".client"] = n
			}
			continue
		}
		for k, v := range vals {
			if k == from || strings.HasPrefix(k, from+".") {
				d.vals[to+strings.TrimPrefix(k, from)] = v
			}
		}
		for k, v := range keys {
			if k == from || strings.HasPrefix(k, from+".") {
				d.keys[to+strings.TrimPrefix(k, from)] = v
			}
		}
		for k := range bad {
			if k == from || strings.HasPrefix(k, from+".") {
				d.bad[to+strings.TrimPrefix(k, from)] = true
			}
		}
	}
}

// handStep reports whether a is a manual step and nothing else, of a
// client whose name a run can hold (no blank in it).
func handStep(a Action) bool {
	if a.Client == "" || strings.IndexFunc(a.Client, unicode.IsSpace) >= 0 {
		return false
	}
	return reflect.DeepEqual(a, Action{Step: a.Step, Fault: Fault{Do: StepAction, Client: a.Client}})
}

// withRuns writes every minRun or more consecutive hand steps of a
// schedule (one at each step, in order) as one run.
func withRuns(actions []Action) []Action {
	var out []Action
	for i := 0; i < len(actions); {
		j := i
		for j < len(actions) && handStep(actions[j]) && actions[j].Step == actions[i].Step+(j-i) {
			j++
		}
		if j-i < minRun {
			out = append(out, actions[i])
			i++
			continue
		}
		names := make([]string, 0, j-i)
		for _, a := range actions[i:j] {
			names = append(names, a.Client)
		}
		out = append(out, Action{Step: actions[i].Step, Fault: Fault{Do: StepAction}, Clients: strings.Join(names, " ")})
		i = j
	}
	return out
}
