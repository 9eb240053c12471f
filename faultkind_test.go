package lockstep

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/sim"
)

// A guard holds one file of docs/architecture.md's checklist "Adding a
// fault kind" to the fault kinds it is given: it lists what the file lacks
// for them, each problem naming the file.
type guard struct {
	file  string
	check func(t *testing.T, kinds []sim.Action) []string
}

// faultGuards are the files a new fault kind needs beyond its row in
// internal/sim/vocab.go, each with the check that fails when it is
// forgotten. (Its row's Effect is held by TestEveryFaultKindSaysItsEffect,
// its fact's words by TestEveryKeySaysItInBothLanguages, per key.)
var faultGuards = []guard{
	{"internal/sim/fault.go", func(t *testing.T, kinds []sim.Action) []string {
		return casesFor(t, "internal/sim", "fault.go", "Apply", kinds, "World.Apply has no case for")
	}},
	{"internal/check/observe.go", func(t *testing.T, kinds []sim.Action) []string {
		return casesFor(t, "internal/check", "observe.go", "fault", kinds, "the checker's model.fault has no case (empty if it changes no holder) for")
	}},
	{"internal/check/reference/marks.go", func(t *testing.T, kinds []sim.Action) []string {
		return casesFor(t, "internal/check/reference", "marks.go", "fault", kinds, "the reference checker's model.fault has no case (empty if it changes no holder) for")
	}},
	{"docs/scenarios.md", func(t *testing.T, kinds []sim.Action) []string {
		doc := read(t, "docs/scenarios.md")
		var out []string
		for _, a := range kinds {
			if !strings.Contains(doc, "\n| `"+a.Do+"` |") {
				out = append(out, "docs/scenarios.md: the table of faults has no row | `"+a.Do+"` |")
			}
		}
		return out
	}},
	{"internal/fact/words/*.json", func(t *testing.T, kinds []sim.Action) []string {
		var out []string
		says := func(id string, d bool) bool { // every language says id (with {d}, if d)
			for _, lang := range fact.Languages {
				s, ok := fact.Said(lang, fact.Msg(id))
				if !ok || s == "" || d && !strings.Contains(s, "{d}") {
					return false
				}
			}
			return true
		}
		for _, a := range kinds {
			if !says("page.name."+a.Do, false) {
				out = append(out, "internal/fact/words/*.json: the page has no event name page.name."+a.Do+" in every language")
			}
			if !a.Menu {
				continue
			}
			key := faultMenuKey(a.Do)
			for _, k := range []string{key, key + "Tip"} {
				if !says("page."+k, false) {
					out = append(out, "internal/fact/words/*.json: the menu's "+a.Do+" has no page."+k+" in every language")
				}
			}
			if a.Default > 0 && says("page."+key, false) && !says("page."+key, true) {
				out = append(out, "internal/fact/words/*.json: the menu's "+a.Do+" has a default amount, which its label page."+key+" does not say ({d}) in every language")
			}
		}
		return out
	}},
}

// Every fault kind of sim.Actions passes every guard of the checklist; a
// throwaway kind, declared here only as a new row would be (on the menu,
// a search places it), is caught by each guard, which names its file; and
// docs/architecture.md's checklist names these files, and no more than 8
// in all.
func TestAddingAFaultKindFollowsTheChecklist(t *testing.T) {
	var today []sim.Action
	for _, a := range sim.Actions {
		if a.Fault {
			today = append(today, a)
		}
	}
	throwaway := sim.Action{Do: "throwaway-fault", Zh: "一次性故障", Fault: true, Target: sim.TargetNode, Amount: sim.AmountDuration,
		Search: sim.SearchSized, Menu: true, Applies: sim.NodeUp, Effect: sim.EffectDown}
	for _, g := range faultGuards {
		if got := g.check(t, today); len(got) > 0 {
			t.Errorf("%s: the kinds of today fail its guard: %v", g.file, got)
		}
		got := g.check(t, append(slices.Clone(today), throwaway))
		if len(got) == 0 {
			t.Errorf("%s: its guard does not catch a kind it lacks (%s)", g.file, throwaway.Do)
		}
		for _, p := range got {
			if !strings.HasPrefix(p, g.file+": ") || !strings.Contains(p, throwaway.Do) {
				t.Errorf("%s's guard says %q: want the file and the kind named", g.file, p)
			}
		}
	}
	doc := read(t, "docs/architecture.md")
	_, list, _ := strings.Cut(doc, "### Adding a fault kind\n")
	list, _, _ = strings.Cut(list, "\n\n") // the numbered list, not what follows it
	named := map[string]bool{}
	for _, m := range regexp.MustCompile("`((?:internal|web|docs)/[^`]+\\.(?:go|js|md|json))`").FindAllStringSubmatch(list, -1) {
		named[m[1]] = true
	}
	for _, g := range faultGuards {
		if !named[g.file] {
			t.Errorf("docs/architecture.md's checklist does not name %s", g.file)
		}
	}
	if len(named) == 0 || len(named) > 8 {
		t.Errorf("docs/architecture.md's checklist names %d files, want 1 to 8: %v", len(named), named)
	}
}

// casesFor lists the kinds that the switch on a fault kind in function fn
// of file (in package directory dir) has no case for. A case names a
// kind by its constant (FaultPause, sim.FaultPause), resolved through
// internal/sim's FaultKind constants.
func casesFor(t *testing.T, dir, file, fn string, kinds []sim.Action, lacks string) []string {
	t.Helper()
	consts := faultConstants(t)
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, file), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	has := map[string]bool{}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == fn {
			ast.Inspect(fd, func(n ast.Node) bool {
				if cc, ok := n.(*ast.CaseClause); ok {
					for _, e := range cc.List {
						if v, ok := consts[lastName(e)]; ok {
							has[v] = true
						}
					}
				}
				return true
			})
		}
	}
	if len(has) == 0 {
		t.Fatalf("%s/%s: no func %s with cases on fault kinds: the guard reads the wrong place", dir, file, fn)
	}
	var out []string
	for _, a := range kinds {
		if !has[a.Do] {
			out = append(out, dir+"/"+file+": "+lacks+" "+a.Do)
		}
	}
	return out
}

// faultConstants maps internal/sim's FaultKind constants to their values:
// FaultPause to "pause".
func faultConstants(t *testing.T) map[string]string {
	t.Helper()
	paths, _ := filepath.Glob("internal/sim/*.go")
	out := map[string]string{}
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			vs, ok := n.(*ast.ValueSpec)
			if !ok || vs.Type == nil || lastName(vs.Type) != "FaultKind" {
				return true
			}
			for i, name := range vs.Names {
				if lit, ok := vs.Values[i].(*ast.BasicLit); ok {
					out[name.Name], _ = strconv.Unquote(lit.Value)
				}
			}
			return true
		})
	}
	if len(out) < len(sim.FaultKinds) {
		t.Fatalf("found %d FaultKind constants in internal/sim, sim.FaultKinds has %d", len(out), len(sim.FaultKinds))
	}
	return out
}

// read is a file of the module, as text.
func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// faultMenuKey is the page's id (without page.) of a fault kind's menu
// label, as web/static/i18n.js's faultKey builds it: fClockJump for
// clock-jump; its tooltip's is the key with Tip.
func faultMenuKey(kind string) string {
	key := "f"
	for _, w := range strings.Split(kind, "-") {
		key += strings.ToUpper(w[:1]) + w[1:]
	}
	return key
}
