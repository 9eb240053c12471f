package lockstep

import (
	"go/ast"
	"go/token"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lockstep/lockstep/internal/gosrc"
	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/sim"
)

// packageMap is docs/architecture.md's package map: for each package, the
// packages of this module it may import. Imports run one way: the engine
// and the lock code import none, scenario does not import the checker,
// lesson does not choose where Redis runs (embedded or real), and only the
// command line sees everything.
var packageMap = map[string][]string{
	"internal/fact":                {},
	"internal/qr":                  {},
	"internal/bundle":              {},
	"internal/gosrc":               {},
	"internal/sim":                 {"internal/fact"},
	"internal/lock":                {"internal/fact"},
	"internal/lockbench":           {"internal/lock"},
	"internal/userlock":            {"internal/fact", "internal/lock"},
	"internal/check":               {"internal/fact", "internal/sim"},
	"internal/check/reference":     {"internal/check", "internal/sim"},
	"internal/check/reference/gen": {"internal/lock", "internal/scenario", "internal/sim"},
	"internal/narrate":             {"internal/check", "internal/fact", "internal/sim"},
	"internal/scenario":            {"internal/fact", "internal/lock", "internal/sim", "internal/userlock"},
	"internal/embedded":            {"internal/scenario", "internal/sim"},
	"internal/realredis":           {"internal/scenario", "internal/sim"},
	"internal/service/storage":     {"internal/fact", "internal/sim"},
	"internal/live":                {"internal/check", "internal/fact", "internal/sim"},
	"internal/etcd":                {"internal/check", "internal/fact", "internal/live", "internal/sim"},
	"internal/zookeeper":           {"internal/check", "internal/fact", "internal/live", "internal/sim"},
	"internal/livecard":            {"internal/etcd", "internal/fact", "internal/live", "internal/report", "internal/sim", "internal/zookeeper"},
	"internal/service/sqldb":       {"internal/fact", "internal/sim"},
	"internal/lesson":              {"internal/check", "internal/fact", "internal/lock", "internal/narrate", "internal/scenario", "internal/service/sqldb", "internal/service/storage", "internal/sim"},
	"internal/explore":             {"internal/embedded", "internal/fact", "internal/lesson", "internal/scenario", "internal/sim"},
	"internal/class":               {"internal/check", "internal/fact", "internal/lesson", "internal/scenario", "internal/sim"},
	"internal/compare":             {"internal/check", "internal/embedded", "internal/fact", "internal/lesson", "internal/lock", "internal/scenario", "internal/sim"},
	"internal/report":              {"internal/embedded", "internal/explore", "internal/fact", "internal/gosrc", "internal/lesson", "internal/lock", "internal/scenario", "internal/sim"},
	"internal/server":              {"internal/bundle", "internal/check", "internal/class", "internal/compare", "internal/embedded", "internal/explore", "internal/fact", "internal/lesson", "internal/live", "internal/lock", "internal/qr", "internal/report", "internal/scenario", "internal/sim", "web"},
	"web":                          {},
	"":                             {},
	"cmd/visualizer":               nil, // everything
	"internal/e2e":                 nil, // tests
	"internal/loadtest":            nil,
	"internal/realredis/redistest": nil,
	"internal/sim/simtest":         nil,
}

// Every package of the module imports only what the package map allows,
// docs/architecture.md names every package, and its diagram is the import
// graph the code has today: a new package, or a new import that runs
// against the map, fails here until the map and the doc say so. This is
// the one test of the import direction (the engine and the lock code
// import none of the module's packages but fact).
func TestPackageMap(t *testing.T) {
	graph := moduleImports(t)
	doc, err := os.ReadFile("docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range slices.Sorted(maps.Keys(graph)) {
		allowed, known := packageMap[pkg]
		if !known {
			t.Errorf("package %s is not in the package map (arch_test.go, docs/architecture.md)", name(pkg))
			continue
		}
		if pkg != "" && !strings.Contains(string(doc), "`"+pkg+"`") && !strings.Contains(string(doc), pkg+"`") {
			t.Errorf("docs/architecture.md does not name package %s", pkg)
		}
		for _, dep := range graph[pkg] {
			if allowed != nil && !slices.Contains(allowed, dep) {
				t.Errorf("%s imports %s, which the package map does not allow (docs/architecture.md)", name(pkg), dep)
			}
		}
	}
	checkDiagram(t, doc, graph)
}

// What an algorithm needs or does (a quorum, SQL, a replica, fencing, its
// recovery of a stuck key) is said by its lock.Info: no code outside
// internal/lock compares an algorithm's id (== or != against one, or a
// case of a switch). Tables that name algorithms as data (the comparison's
// canonical pairs) are fine.
func TestNoAlgorithmIDComparedOutsideLock(t *testing.T) {
	ids := map[string]bool{}
	for _, a := range lock.Algorithms {
		ids[a.ID] = true
	}
	for _, at := range spelled(t, []string{"internal/lock"}, ids, namesAlgorithm) {
		t.Errorf("%s: compares an algorithm id: say it in lock.Info", at)
	}
}

// A fault kind is spelled once, in sim's vocabulary (sim.Actions and the
// FaultKind constants it is made of): outside internal/sim no code
// compares a fault kind with a string literal ("pause", "node-crash") nor
// writes one as a budget's or schedule entry's Do. (The protocol's op
// pause, a switch on an op, is not the fault.) Tests may spell them.
func TestNoFaultKindSpelledOutsideSim(t *testing.T) {
	kinds := map[string]bool{}
	for _, k := range sim.FaultKinds {
		kinds[string(k)] = true
	}
	notAnOp := func(e ast.Expr) bool { return !slices.Contains([]string{"Op", "op"}, lastName(e)) }
	for _, at := range spelled(t, []string{"internal/sim"}, kinds, notAnOp, "Do") {
		t.Errorf("%s: spells a fault kind: use sim's constant (sim.FaultPause) or read sim.Actions", at)
	}
}

// spelled lists where the module's non-test Go source, outside third_party
// and the directories skip, compares a string literal among values with
// an expression that names accepts (==, !=, a switch case), or gives one
// as the value of a composite literal's field among fields.
func spelled(t *testing.T, skip []string, values map[string]bool, names func(ast.Expr) bool, fields ...string) []token.Position {
	t.Helper()
	files, err := gosrc.Tree(".", append([]string{"third_party"}, skip...)...)
	if err != nil {
		t.Fatal(err)
	}
	isValue := func(e ast.Expr) bool {
		lit, ok := e.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return false
		}
		v, err := strconv.Unquote(lit.Value)
		return err == nil && values[v]
	}
	var out []token.Position
	for _, f := range files {
		f.Inspect(func(n ast.Node, _ string) bool {
			switch x := n.(type) {
			case *ast.BinaryExpr:
				if (x.Op == token.EQL || x.Op == token.NEQ) && (isValue(x.X) && names(x.Y) || isValue(x.Y) && names(x.X)) {
					out = append(out, f.Position(x))
				}
			case *ast.SwitchStmt:
				if x.Tag == nil || !names(x.Tag) {
					return true
				}
				for _, st := range x.Body.List {
					for _, e := range st.(*ast.CaseClause).List {
						if isValue(e) {
							out = append(out, f.Position(e))
						}
					}
				}
			case *ast.KeyValueExpr:
				if k, ok := x.Key.(*ast.Ident); ok && slices.Contains(fields, k.Name) && isValue(x.Value) {
					out = append(out, f.Position(x))
				}
			}
			return true
		})
	}
	return out
}

// lastName is the name an expression ends with: algo, c.Algorithm, a.Do.
func lastName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return x.Sel.Name
	case *ast.CallExpr: // a conversion, sim.FaultKind(a.Do)
		if len(x.Args) == 1 {
			return lastName(x.Args[0])
		}
	}
	return ""
}

// namesAlgorithm reports whether an expression reads an algorithm's id: a
// name such as c.Algorithm, a.ID or algo.
func namesAlgorithm(e ast.Expr) bool {
	return slices.Contains([]string{"ID", "id", "Algorithm", "algorithm", "algo"}, lastName(e))
}
