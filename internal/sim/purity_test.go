package sim

import (
	"go/ast"
	"maps"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/lockstep/lockstep/internal/gosrc"
)

// forbidden are the calls that would make a run depend on the machine: the
// wall clock, real sleeps and timers, and the global random source.
var forbidden = map[string]map[string]bool{
	"time": {"Now": true, "Sleep": true, "After": true, "AfterFunc": true, "Tick": true,
		"NewTimer": true, "NewTicker": true, "Since": true, "Until": true},
	"math/rand": {"Int": true, "Intn": true, "Int31": true, "Int31n": true, "Int63": true, "Int63n": true,
		"Float32": true, "Float64": true, "Perm": true, "Shuffle": true, "Uint32": true, "Uint64": true, "Seed": true, "Read": true},
	"math/rand/v2": {"Int": true, "IntN": true, "Int32": true, "Int32N": true, "Int64": true, "Int64N": true,
		"Uint32": true, "Uint64": true, "Float32": true, "Float64": true, "Perm": true, "Shuffle": true, "N": true, "UintN": true, "Uint": true},
	"crypto/rand": {"Read": true, "Int": true, "Text": true},
}

// The engine and the lock code never read the wall clock, sleep for real,
// use a global random source, or start a goroutine the engine does not
// schedule: the same seed must give the same run on any machine. The one
// place a run's goroutines and the wall clock are the service's own is
// internal/etcd (a coordination service run in real time: etcd expires
// leases by its own clock and its client keeps them alive from its own
// goroutines), which neither the engine nor the lock code imports
// (the package map, TestPackageMap).
func TestEngineAndLocksArePure(t *testing.T) {
	for _, dir := range []string{".", "../lock", "../userlock"} {
		files, err := gosrc.Dir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			checkPure(t, f)
		}
	}
}

func checkPure(t *testing.T, f *gosrc.File) {
	t.Helper()
	f.Inspect(func(n ast.Node, _ string) bool {
		switch x := n.(type) {
		case *ast.SelectorExpr:
			if p := f.Imported(x); forbidden[p][x.Sel.Name] {
				t.Errorf("%s: %s.%s reads the machine, not the world (use the injected clock or the seeded source)",
					f.Position(x), x.X.(*ast.Ident).Name, x.Sel.Name)
			}
		case *ast.GoStmt:
			// client threads are coroutines (iter.Pull) that run only
			// when the engine hands them the baton: no go statement
			t.Errorf("%s: a goroutine the engine does not schedule", f.Position(x))
		}
		return true
	})
}

// The engine is the bottom of the import graph: beside the standard
// library it builds on go-redis alone, the client its programs speak, and
// package fact, the leaf that says what its events mean.
// Backends (miniredis, package embedded; redis-server, package realredis)
// and services (SQLite behind database/sql, package sqldb) are adapters
// that import the engine, never the other way round: database/sql's
// sql.Open, for one, starts a goroutine the engine does not schedule.
func TestEngineImportsNoAdapter(t *testing.T) {
	engine := deps(t, ".")
	client := deps(t, "github.com/redis/go-redis/v9")
	bannedStd := []string{"database/sql", "net/http", "os/exec"}
	for _, path := range slices.Sorted(maps.Keys(engine)) {
		std := engine[path]
		_, ofClient := client[path]
		switch {
		case strings.HasSuffix(path, "/internal/sim"), strings.HasSuffix(path, "/internal/fact"): // the engine and the words of its events
		case std && !slices.ContainsFunc(bannedStd, func(b string) bool { return path == b || strings.HasPrefix(path, b+"/") }):
		case !std && ofClient:
		default:
			t.Errorf("internal/sim depends on %s: an adapter belongs beside the engine, importing it", path)
		}
	}
	for _, p := range []string{"github.com/redis/go-redis/v9", "time"} {
		if _, ok := engine[p]; !ok {
			t.Errorf("go list -deps of internal/sim lacks %s: the listing is not what this test reads", p)
		}
	}
}

// deps lists the packages pkg depends on, itself included (go list
// -deps), each with whether it is in the standard library.
func deps(t *testing.T, pkg string) map[string]bool {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}} {{.Standard}}", pkg).Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", pkg, err)
	}
	m := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, std, _ := strings.Cut(line, " ")
		m[path] = std == "true"
	}
	return m
}
