package main

import (
	"os"
	"path/filepath"
	"testing"
)

// docs/lessons.md is exactly what visualizer docs writes from the code
// and the catalog: when a lock or a scenario changes, this fails until
// go generate ./internal/lesson is run and the new file committed.
func TestLessonsDocUpToDate(t *testing.T) {
	r := visualizer(t, "docs")
	r.expect(t, "docs", 0)
	path := filepath.Join("..", "..", "docs", "lessons.md")
	file, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if r.stdout != string(file) {
		t.Fatalf("%s is out of date with internal/lock and scenarios.yaml: run go generate ./internal/lesson and commit the result\n(want: what docs writes; got: the file)\n%s", path, firstDiff(r.stdout, string(file)))
	}
}

// --out writes the same text to a file, and an --out that cannot be
// written is an error that names it.
func TestDocsWritesTheFile(t *testing.T) {
	out := filepath.Join(t.TempDir(), "lessons.md")
	r := visualizer(t, "docs", "--out", out)
	r.expect(t, "docs --out", 0)
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if printed := visualizer(t, "docs").stdout; string(got) != printed || len(got) == 0 || r.stdout != "" {
		t.Errorf("docs --out wrote %d bytes (and printed %q); docs prints %d bytes: want the same text in the file and nothing printed", len(got), r.stdout, len(printed))
	}
	bad := filepath.Join(t.TempDir(), "no-such-dir", "lessons.md")
	r = visualizer(t, "docs", "--out", bad)
	r.expect(t, "docs --out into a missing directory", 1, bad)
}
