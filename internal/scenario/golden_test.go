package scenario

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lockstep/lockstep/internal/lock"
)

// fixedCatalog swaps the algorithm catalog for a small fixed one for the
// length of a test, so that messages listing algorithms or parameters do
// not change as the real catalog grows.
func fixedCatalog(t *testing.T) {
	t.Helper()
	lease := []lock.Param{
		{Name: "ttl", Kind: lock.Dur, Default: 3 * time.Second},
		{Name: "retry", Kind: lock.Dur, Default: 100 * time.Millisecond},
		{Name: "key", Kind: lock.Str, Default: "lock"},
	}
	saved := lock.Algorithms
	lock.Algorithms = []*lock.Info{
		{ID: "no-lock", Row: 1},
		{ID: "set-nx-ex-blind-del", Row: 7, Params: lease},
		{ID: "lua-compare-delete", Row: 9, Params: lease},
		{ID: "redlock", Row: 15, Params: lease, Nodes: 3},
	}
	t.Cleanup(func() { lock.Algorithms = saved })
}

var update = flag.Bool("update", false, "rewrite testdata/bad/*.golden with the current messages")

// generated are broken inputs too large or too repetitive to check in.
var generated = map[string]func() []byte{
	// A file over MaxFileSize: refused before it is parsed.
	"too-big": func() []byte {
		return []byte("scenarios:\n" + strings.Repeat("# padding padding padding padding padding padding\n", 3000))
	},
	// Sixty unknown fields: the first MaxReported are listed, then a count.
	"many-problems": func() []byte {
		var b strings.Builder
		b.WriteString("scenarios:\n  - id: x\n    title: {en: X}\n    clients: [{name: A, algorithm: no-lock}]\n    expect: [safe]\n")
		for i := range 60 {
			fmt.Fprintf(&b, "    colour%d: red\n", i)
		}
		return []byte(b.String())
	},
	// More YAML values than MaxNodes, in a file under the size limit.
	"too-many-nodes": func() []byte {
		return []byte("scenarios:\n  - id: x\n    catalog: [" + strings.Repeat("1,", 25000) + "1]\n")
	},
	// 1000 nested lists: refused by the parser at depth MaxDepth.
	"deep-1000": func() []byte {
		return []byte("scenarios: " + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + "\n")
	},
}

// Each broken file gives exactly the messages in its .golden file, one per
// line, FILE:LINE:COL: message. Run with -update to rewrite them after a
// deliberate change of wording, and read the diff.
//
// Files named ignored-*.yaml are checked against the real catalog: what
// they test (marks an algorithm writes, a lock an algorithm takes) is the
// catalog's own knowledge.
func TestBadFilesGolden(t *testing.T) {
	catalog := lock.Algorithms
	fixedCatalog(t)
	fixed := lock.Algorithms
	inputs := map[string][]byte{}
	paths, err := filepath.Glob("testdata/bad/*.yaml")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no testdata/bad/*.yaml (err %v)", err)
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		inputs[strings.TrimSuffix(filepath.Base(p), ".yaml")] = b
	}
	for name, gen := range generated {
		inputs[name] = gen()
	}
	for name, data := range inputs {
		t.Run(name, func(t *testing.T) {
			if strings.HasPrefix(name, "ignored-") {
				lock.Algorithms = catalog
			}
			_, err := Parse(name+".yaml", data)
			lock.Algorithms = fixed
			if err == nil {
				t.Fatalf("%s.yaml: want errors, got none", name)
			}
			got := err.Error() + "\n"
			golden := filepath.Join("testdata", "bad", name+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./internal/scenario -run TestBadFilesGolden -update)", err)
			}
			if got != string(want) {
				t.Errorf("%s.yaml messages differ from %s\n--- want\n%s--- got\n%s", name, golden, want, got)
			}
		})
	}
}
