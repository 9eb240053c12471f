package lock

import (
	"go/ast"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/lockstep/lockstep/internal/gosrc"
)

// The copies under third_party run on the Runtime they are given: outside
// the file the patch adds (runtime.go, the machine's defaults), no code
// of theirs reads the clock, starts a timer, makes a deadline of its own
// or starts a goroutine. Their random sources are used only where the
// library algorithms pass their own through the libraries' options
// (value and token generators, the retry delay) or where they never go
// (redsync's pool shuffle, off by default).
func TestLibrariesRunOnTheirRuntime(t *testing.T) {
	clock := map[string]map[string]bool{
		"time":    {"Now": true, "Sleep": true, "After": true, "AfterFunc": true, "Tick": true, "NewTimer": true, "NewTicker": true, "Since": true, "Until": true},
		"context": {"WithTimeout": true, "WithDeadline": true},
	}
	random := map[string]bool{"math/rand": true, "math/rand/v2": true, "crypto/rand": true}
	// where the libraries draw random numbers, and what overrides each
	randomOK := map[string]string{
		"redsync/mutex.go:genValue":          "WithGenValueFunc",
		"redsync/redsync.go:NewMutex":        "WithRetryDelayFunc",
		"redsync/redsync.go:randomPools":     "WithShufflePools is never set",
		"redislock/redislock.go:randomToken": "Options.Token",
	}
	third := filepath.Join("..", "..", "third_party")
	for _, l := range libraries {
		files, err := gosrc.Tree(filepath.Join(third, l.dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if filepath.Base(f.Path) == "runtime.go" {
				continue
			}
			rel, _ := filepath.Rel(third, f.Path)
			f.Inspect(func(n ast.Node, fn string) bool {
				switch x := n.(type) {
				case *ast.SelectorExpr:
					p := f.Imported(x)
					if clock[p][x.Sel.Name] {
						t.Errorf("%s: %s.%s is the machine's, not the Runtime's", f.Position(x), x.X.(*ast.Ident).Name, x.Sel.Name)
					}
					if random[p] && randomOK[filepath.ToSlash(rel)+":"+fn] == "" {
						t.Errorf("%s: %s.%s in %s, which no option of ours overrides", f.Position(x), x.X.(*ast.Ident).Name, x.Sel.Name, fn)
					}
				case *ast.GoStmt:
					t.Errorf("%s: a goroutine, not the Runtime's", f.Position(x))
				}
				return true
			})
		}
	}
}

// Each library's registry entry names the version Lockstep's go.mod
// requires, and every package the engine traces has its files in Source.
func TestLibrariesAreDescribed(t *testing.T) {
	mod, err := os.ReadFile(filepath.Join("..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, a := range Algorithms {
		l := a.Library
		if l == nil {
			continue
		}
		n++
		if !regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(l.Module) + ` ` + regexp.QuoteMeta(l.Version) + `$`).Match(mod) {
			t.Errorf("%s: go.mod does not require %s %s", a.ID, l.Module, l.Version)
		}
		if !strings.Contains(string(mod), l.Module+" => ./third_party/"+l.Dir) {
			t.Errorf("%s: go.mod does not replace %s with third_party/%s", a.ID, l.Module, l.Dir)
		}
		for _, f := range []string{l.File, l.Scripts, "LICENSE"} {
			if _, err := fs.Stat(Source(), l.Dir+"/"+f); err != nil {
				t.Errorf("%s: %v", a.ID, err)
			}
		}
		patch, err := os.ReadFile(filepath.Join("..", "..", "third_party", l.Dir, "PATCH.md"))
		if err != nil || !strings.Contains(string(patch), l.Version) {
			t.Errorf("%s: third_party/%s/PATCH.md should name %s (%v)", a.ID, l.Dir, l.Version, err)
		}
	}
	if n != 2 {
		t.Errorf("want the two libraries, redsync and redislock; found %d", n)
	}
	for pkg, dir := range TracedPackages() {
		name := strings.TrimSuffix(dir, "/")
		if name == "" {
			name = "."
		}
		ents, err := fs.ReadDir(Source(), name)
		if err != nil || len(ents) == 0 {
			t.Errorf("%s: its directory %q in Source: %v", pkg, dir, err)
		}
	}
}

// A library set beside the catalog's rows takes the same lease and pace
// under its own parameter names: every name it gives must be one of its
// parameters, and the lease must be the one given.
func TestCompareParamsAreTheLibrariesOwn(t *testing.T) {
	for _, a := range Algorithms {
		if a.CompareParams == nil {
			continue
		}
		raw := a.CompareParams(1500*time.Millisecond, 70*time.Millisecond)
		if _, err := a.Decode(raw); err != nil {
			t.Errorf("%s: its compare parameters %v do not decode: %v", a.ID, raw, err)
		}
		found := false
		for _, v := range raw {
			found = found || v == "1.5s"
		}
		if !found {
			t.Errorf("%s: no parameter takes the lease 1.5s: %v", a.ID, raw)
		}
	}
}
