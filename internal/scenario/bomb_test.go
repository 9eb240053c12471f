package scenario

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// aliasBomb is the "billion laughs": nine lists of nine aliases to the
// list before, about 4e8 strings once expanded, in under 1 KiB.
func aliasBomb() []byte {
	var b strings.Builder
	b.WriteString("scenarios:\n  - id: bomb\n    data:\n      a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	prev := "a"
	for i := 0; i < 8; i++ {
		cur := fmt.Sprintf("b%d", i)
		fmt.Fprintf(&b, "      %s: &%s [*%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s]\n", cur, cur, prev, prev, prev, prev, prev, prev, prev, prev, prev)
		prev = cur
	}
	return []byte(b.String())
}

// deepNesting is 1000 lists inside each other.
func deepNesting() []byte {
	return []byte("scenarios: " + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + "\n")
}

// hugeMap is a 3 MB map of distinct keys.
func hugeMap() []byte {
	var b strings.Builder
	b.WriteString("scenarios:\n  - id: huge\n    data:\n")
	for i := 0; b.Len() < 3<<20; i++ {
		fmt.Fprintf(&b, "      key%07d: value\n", i)
	}
	return []byte(b.String())
}

// bombs are hostile inputs, with the message each must be rejected with
// and a ceiling on the allocations rejecting it may take. An expanded
// alias bomb would take hundreds of millions.
var bombs = []struct {
	name      string
	data      func() []byte
	want      string
	maxAllocs float64
}{
	{"alias bomb", aliasBomb, "bomb.yaml:4:10: anchors (&a) are not allowed", 5000},
	{"1000-deep nesting", deepNesting, "bomb.yaml:1:32: nested deeper than 20 levels", 500},
	{"3 MB map", hugeMap, "bomb.yaml:1:1: the file is 3.0 MiB; the limit is 128 KiB", 50},
}

// Each bomb is refused with a clear message, and cheaply.
func TestBombsRejected(t *testing.T) {
	for _, bomb := range bombs {
		t.Run(bomb.name, func(t *testing.T) {
			data := bomb.data()
			_, err := Parse("bomb.yaml", data)
			if err == nil {
				t.Fatalf("%s: want an error, got none", bomb.name)
			}
			if !strings.Contains(err.Error(), bomb.want) {
				t.Fatalf("%s: want a message %q, got:\n%v", bomb.name, bomb.want, err)
			}
			allocs := testing.AllocsPerRun(5, func() { _, _ = Parse("bomb.yaml", data) })
			t.Logf("%s (%d bytes): %.0f allocations per rejection", bomb.name, len(data), allocs)
			if allocs > bomb.maxAllocs {
				t.Fatalf("%s: rejecting took %.0f allocations, want at most %.0f", bomb.name, allocs, bomb.maxAllocs)
			}
		})
	}
}

// Load refuses a file over the size limit from its size alone.
func TestLoadRefusesLargeFileUnread(t *testing.T) {
	p := filepath.Join(t.TempDir(), "huge.yaml")
	if err := os.WriteFile(p, hugeMap(), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(p)
	want := p + ":1:1: the file is 3.0 MiB; the limit is 128 KiB"
	if err == nil || err.Error() != want {
		t.Fatalf("want %q, got %v", want, err)
	}
}

// BenchmarkRejectBomb measures the time and memory each bomb costs:
// go test -run '^$' -bench RejectBomb -benchmem ./internal/scenario
func BenchmarkRejectBomb(b *testing.B) {
	for _, bomb := range bombs {
		data := bomb.data()
		b.Run(strings.ReplaceAll(bomb.name, " ", "-"), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Parse("bomb.yaml", data); err == nil {
					b.Fatal("accepted")
				}
			}
		})
	}
}

// BenchmarkParseBuiltin measures a full parse and check of the catalog.
func BenchmarkParseBuiltin(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		builtin(b)
	}
}

// The built-in catalog is a file like any other: a user who copies it to
// edit can check it under the same size limit.
func TestTheCatalogChecksAsAFile(t *testing.T) {
	f, err := Load("../../scenarios.yaml")
	if err != nil {
		t.Fatalf("scenarios.yaml as a user's file: expected it to check, got %v", err)
	}
	if len(f.Scenarios) == 0 {
		t.Fatal("scenarios.yaml: expected scenarios, got none")
	}
}
