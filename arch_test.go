package lockstep

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lockstep/lockstep/internal/lock"
)

// packageMap is docs/architecture.md's package map: for each package, the
// packages of this module it may import. Imports run one way: the engine
// and the lock code import none, scenario does not import the checker,
// lesson does not choose where Redis runs (embedded or real), and only the
// command line sees everything.
var packageMap = map[string][]string{
	"internal/fact":                {},
	"internal/qr":                  {},
	"internal/sim":                 {"internal/fact"},
	"internal/lock":                {"internal/fact"},
	"internal/lockbench":           {"internal/lock"},
	"internal/check":               {"internal/fact", "internal/sim"},
	"internal/check/reference":     {"internal/check", "internal/sim"},
	"internal/check/reference/gen": {"internal/lock", "internal/scenario", "internal/sim"},
	"internal/narrate":             {"internal/check", "internal/fact", "internal/sim"},
	"internal/scenario":            {"internal/fact", "internal/lock", "internal/sim"},
	"internal/embedded":            {"internal/scenario", "internal/sim"},
	"internal/realredis":           {"internal/scenario", "internal/sim"},
	"internal/service/storage":     {"internal/fact", "internal/sim"},
	"internal/service/sqldb":       {"internal/fact", "internal/sim"},
	"internal/lesson":              {"internal/check", "internal/fact", "internal/lock", "internal/narrate", "internal/scenario", "internal/service/sqldb", "internal/service/storage", "internal/sim"},
	"internal/explore":             {"internal/embedded", "internal/lesson", "internal/scenario", "internal/sim"},
	"internal/compare":             {"internal/check", "internal/embedded", "internal/fact", "internal/lesson", "internal/lock", "internal/scenario", "internal/sim"},
	"internal/report":              {"internal/check", "internal/embedded", "internal/explore", "internal/lesson", "internal/lock", "internal/scenario", "internal/sim"},
	"internal/server":              {"internal/check", "internal/compare", "internal/embedded", "internal/explore", "internal/fact", "internal/lesson", "internal/lock", "internal/qr", "internal/report", "internal/scenario", "internal/sim", "web"},
	"web":                          {},
	"":                             {},
	"cmd/visualizer":               nil, // everything
	"internal/e2e":                 nil, // tests
	"internal/loadtest":            nil,
	"internal/realredis/redistest": nil,
	"internal/sim/simtest":         nil,
}

// Every package of the module imports only what the package map allows,
// and docs/architecture.md names every package: a new package, or a new
// import that runs against the map, fails here until the map and the doc
// say so.
func TestPackageMap(t *testing.T) {
	const mod = "github.com/lockstep/lockstep"
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}:{{join .Imports \" \"}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	doc, err := os.ReadFile("docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, imports, _ := strings.Cut(line, ":")
		pkg := strings.TrimPrefix(strings.TrimPrefix(path, mod), "/")
		allowed, known := packageMap[pkg]
		if !known {
			t.Errorf("package %s is not in the package map (arch_test.go, docs/architecture.md)", path)
			continue
		}
		if pkg != "" && !strings.Contains(string(doc), "`"+pkg+"`") && !strings.Contains(string(doc), pkg+"`") {
			t.Errorf("docs/architecture.md does not name package %s", pkg)
		}
		if allowed == nil {
			continue
		}
		for _, imp := range strings.Fields(imports) {
			if !strings.HasPrefix(imp, mod+"/") {
				continue
			}
			if dep := strings.TrimPrefix(imp, mod+"/"); !slices.Contains(allowed, dep) {
				t.Errorf("%s imports %s, which the package map does not allow (docs/architecture.md)", pkg, dep)
			}
		}
	}
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
	isID := func(e ast.Expr) bool {
		lit, ok := e.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return false
		}
		v, err := strconv.Unquote(lit.Value)
		return err == nil && ids[v]
	}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (path == "third_party" || path == filepath.Join("internal", "lock") || path != "." && strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.BinaryExpr:
				if (x.Op == token.EQL || x.Op == token.NEQ) && (isID(x.X) && namesAlgorithm(x.Y) || isID(x.Y) && namesAlgorithm(x.X)) {
					t.Errorf("%s: compares an algorithm id: say it in lock.Info", fset.Position(x.Pos()))
				}
			case *ast.SwitchStmt:
				if x.Tag == nil || !namesAlgorithm(x.Tag) {
					return true
				}
				for _, st := range x.Body.List {
					for _, e := range st.(*ast.CaseClause).List {
						if isID(e) {
							t.Errorf("%s: a case on an algorithm id: say it in lock.Info", fset.Position(e.Pos()))
						}
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// namesAlgorithm reports whether an expression reads an algorithm's id: a
// name such as c.Algorithm, a.ID or algo.
func namesAlgorithm(e ast.Expr) bool {
	name := ""
	switch x := e.(type) {
	case *ast.Ident:
		name = x.Name
	case *ast.SelectorExpr:
		name = x.Sel.Name
	}
	return slices.Contains([]string{"ID", "id", "Algorithm", "algorithm", "algo"}, name)
}
