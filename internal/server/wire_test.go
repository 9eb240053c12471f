package server

import (
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/lockstep/lockstep/internal/sim"
)

// docs/protocol.md's table of an event's fields and the protocol's own
// type (wireEvent) are the same list, both ways: a field added to the type
// and not documented fails, and so does a documented field the type lacks.
// The kinds and effects the doc lists are the engine's.
func TestWireEventIsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(doc), "\n### Events\n")
	section, _, _ = strings.Cut(section, "\n### ")
	_, table, _ := strings.Cut(section, "| field | what it holds |")
	table, _, _ = strings.Cut(table, "\n\n")
	rows := map[string]string{}
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z]+)` \\| (.*) \\|$").FindAllStringSubmatch(table, -1) {
		rows[m[1]] = m[2]
	}
	var fields []string
	ty := reflect.TypeFor[wireEvent]()
	for i := range ty.NumField() {
		name, _, _ := strings.Cut(ty.Field(i).Tag.Get("json"), ",")
		fields = append(fields, name)
		if _, ok := rows[name]; !ok {
			t.Errorf("wireEvent's field %q is not in docs/protocol.md's table of an event's fields", name)
		}
	}
	for name := range rows {
		if !slices.Contains(fields, name) {
			t.Errorf("docs/protocol.md documents an event field %q that wireEvent lacks", name)
		}
	}
	for _, k := range sim.Kinds {
		if !strings.Contains(rows["kind"], "`"+string(k)+"`") {
			t.Errorf("docs/protocol.md's kind row lacks %q", k)
		}
	}
	for _, e := range sim.Effects {
		if !strings.Contains(section, "`"+string(e)+"`") {
			t.Errorf("docs/protocol.md does not say what effect %q draws", e)
		}
	}
}

// The page draws what a fault does from its effect alone: no script of the
// page's (its words, i18n.js and words.js, aside) spells a fault kind, and the drawing
// (derive.js) has a case for every effect the engine declares. A new kind
// with a known effect then needs no page code.
func TestThePageDrawsEffectsNotFaultKinds(t *testing.T) {
	names := map[string]bool{sim.ResumeEvent: true}
	for _, a := range sim.Actions {
		if a.Fault {
			names[a.Do] = true
		}
	}
	files, err := os.ReadDir("../../web/static")
	if err != nil {
		t.Fatal(err)
	}
	literal := regexp.MustCompile(`'([a-z-]+)'|"([a-z-]+)"`)
	for _, f := range files {
		if !strings.HasSuffix(f.Name(), ".js") || f.Name() == "i18n.js" || f.Name() == "words.js" {
			continue
		}
		src, err := os.ReadFile("../../web/static/" + f.Name())
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(src), "\n") {
			for _, m := range literal.FindAllStringSubmatch(line, -1) {
				if lit := m[1] + m[2]; names[lit] && !opNamed(line, lit) {
					t.Errorf("web/static/%s:%d spells the fault kind %q: draw its effect (sim.Effects)", f.Name(), i+1, lit)
				}
			}
		}
	}
	derive, err := os.ReadFile("../../web/static/derive.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range sim.Effects {
		if !strings.Contains(string(derive), "case '"+string(e)+"':") {
			t.Errorf("web/static/derive.js has no case for the effect %q", e)
		}
	}
}

// opNamed reports whether a line uses lit as the protocol's op of that name
// (the request pause, which stops playing), not as the fault.
func opNamed(line, lit string) bool {
	return strings.Contains(line, "link.send(") || strings.Contains(line, "dataset.i18n")
}

// Every fault kind the engine declares has an effect on the page or says it
// has none on purpose: the kinds without one change what a client or node
// does, not what is drawn on a lane (a lost message is drawn as its
// request's cross, a clock jump under the node's name).
func TestEveryFaultKindSaysItsEffect(t *testing.T) {
	none := []sim.FaultKind{sim.FaultRestart, sim.FaultDropRequest, sim.FaultDropReply, sim.FaultClockJump, sim.FaultSkew}
	for _, a := range sim.Actions {
		if !a.Fault {
			continue
		}
		if a.Effect == sim.EffectNone && !slices.Contains(none, sim.FaultKind(a.Do)) {
			t.Errorf("fault kind %s has no Effect in sim.Actions: say what it draws, or add it to this test's list of kinds drawn by no lane", a.Do)
		}
		if a.Effect != sim.EffectNone && !slices.Contains(sim.Effects, a.Effect) {
			t.Errorf("fault kind %s's effect %q is not in sim.Effects", a.Do, a.Effect)
		}
	}
}
