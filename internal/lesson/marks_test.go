package lesson_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/check/reference/gen"
	"github.com/lockstep/lockstep/internal/embedded"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// The scenario checker refuses a fault or a line on an event name that no
// run of the scenario writes (scenario.MarksOf, scenario.EventNames). That
// is only true if every name a run does write is among them: this walks
// the catalog, the labs, the docs' files, the checker's user scenarios and
// a generated corpus, and finds every mark, fault, say and verdict name in
// the lists. A name missing from a list would refuse a file that works.
func TestEveryEventNameIsOneTheCheckerKnows(t *testing.T) {
	var all []*scenario.Scenario
	add := func(name string, text []byte) {
		f, err := scenario.ParseBuiltin(name, text)
		if err != nil {
			t.Fatal(err)
		}
		for i := range f.Scenarios {
			all = append(all, &f.Scenarios[i])
		}
	}
	add("scenarios.yaml", lockstep.Scenarios)
	names, files := lockstep.Labs()
	for i := range names {
		add(names[i], files[i])
	}
	paths, _ := filepath.Glob("../../docs/*.yaml")
	more, _ := filepath.Glob("testdata/checker/*.yaml")
	for _, p := range append(paths, more...) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		add(p, b)
	}
	n := 120
	if testing.Short() {
		n = 30
	}
	for i := 0; i < n; i++ {
		if g := gen.Generate(7, i); g.Scenario != nil {
			all = append(all, g.Scenario)
		}
	}
	seen := map[sim.Kind]map[string]bool{}
	cmds := map[string]bool{}
	carries := map[sim.Kind]int{}
	for _, sc := range all {
		marks := map[string][]string{}
		for i := range sc.Clients {
			marks[sc.Clients[i].Name] = scenario.MarksOf(sc, &sc.Clients[i])
		}
		r, err := lesson.New(sc, lesson.Config{Seed: sc.Seed, Servers: embedded.Servers{}})
		if err != nil {
			t.Fatalf("%s: %v", sc.ID, err)
		}
		if err := r.RunToEnd(); err != nil {
			t.Fatalf("%s: %v", sc.ID, err)
		}
		for _, e := range r.World.Log() {
			if len(e.Cmd) > 0 && !e.Kind.CarriesCmd() || (len(e.Keys) > 0 || e.Lock != "") && !e.Kind.CarriesKey() {
				t.Errorf("%s: a %s event carries a command or a key its kind does not declare (sim.Kind.CarriesCmd, CarriesKey): the scenario checker would refuse a match that fires on it\n  %s", sc.ID, e.Kind, e)
			}
			if len(e.Cmd) > 0 {
				carries[e.Kind] |= 1
			}
			if len(e.Keys) > 0 || e.Lock != "" {
				carries[e.Kind] |= 2
			}
			if len(e.Cmd) > 0 {
				i := slices.IndexFunc(scenario.Commands, func(c string) bool { return strings.EqualFold(c, e.Cmd[0]) })
				if i < 0 {
					t.Errorf("%s: an event carries the command %q, which the scenario checker refuses in a match's cmd: (known: %v)\n  %s", sc.ID, e.Cmd[0], scenario.Commands, e)
				} else {
					cmds[scenario.Commands[i]] = true
				}
			}
			if e.Name == "" {
				continue
			}
			if seen[e.Kind] == nil {
				seen[e.Kind] = map[string]bool{}
			}
			seen[e.Kind][e.Name] = true
			known := scenario.EventNames(e.Kind)
			if e.Kind == sim.KindMark {
				known = marks[e.Client]
			}
			if !slices.Contains(known, e.Name) {
				t.Errorf("%s: %s writes %s %q, which the scenario checker does not know it can (known: %v)\n  %s", sc.ID, e.Client, e.Kind, e.Name, known, e)
			}
		}
		r.Close()
	}
	t.Logf("%d scenarios; names seen: %v", len(all), seen)
	for _, m := range sim.SetbackMarks {
		if !seen[sim.KindMark][m] {
			t.Errorf("sim.SetbackMarks lists %q, which no run of the corpus writes", m)
		}
	}
	for _, k := range sim.Kinds {
		if k.CarriesCmd() && carries[k]&1 == 0 {
			t.Errorf("sim.Kind.CarriesCmd says %s events carry a command, and none of the corpus does", k)
		}
		if k.CarriesKey() && carries[k]&2 == 0 {
			t.Errorf("sim.Kind.CarriesKey says %s events name a key, and none of the corpus does", k)
		}
	}
	for _, c := range scenario.Commands {
		if !cmds[c] {
			t.Errorf("scenario.Commands lists %q, which no event of the corpus carries", c)
		}
	}
	for _, k := range []sim.Kind{sim.KindMark, sim.KindFault, sim.KindVerdict} {
		if len(seen[k]) < 3 {
			t.Errorf("the corpus writes %d %s names: it checks little", len(seen[k]), k)
		}
	}
}
