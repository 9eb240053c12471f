package scenario

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/lockstep/lockstep"
)

// FuzzParse feeds Check arbitrary bytes. Whatever the input: it never
// panics; every problem has a position of line 1 or later and column 1 or
// later; a file with no problems is returned, and it round-trips through
// Marshal to an equal value and to the same bytes on a second Marshal.
// The seed corpus (testdata/fuzz/FuzzParse) holds pieces of the built-in
// catalog and every broken file of testdata/bad.
func FuzzParse(f *testing.F) {
	f.Add([]byte("scenarios:\n  - id: a\n    title: {en: A}\n    clients: [{name: A, algorithm: no-lock}]\n    expect: [oversell]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, errs := Check("fuzz.yaml", data)
		for _, e := range errs {
			if e.Line < 1 || e.Col < 1 {
				t.Fatalf("problem without a position: %v\ninput: %q", e, data)
			}
			if e.File != "fuzz.yaml" || e.Msg == "" {
				t.Fatalf("problem without file or message: %+v", e)
			}
		}
		if len(errs) > 0 {
			return
		}
		if file == nil {
			t.Fatalf("no problems but no file either; input %q", data)
		}
		out, err := Marshal(file)
		if err != nil {
			t.Fatalf("accepted file does not marshal: %v\ninput: %q", err, data)
		}
		back, err := Parse("marshalled.yaml", out)
		if err != nil {
			t.Fatalf("marshalled file does not parse:\n%v\ninput: %q\nmarshalled:\n%s", err, data, out)
		}
		if !reflect.DeepEqual(file, back) {
			t.Fatalf("round trip changed the file\ninput: %q\nmarshalled:\n%s\nwant %+v\ngot  %+v", data, out, file, back)
		}
		again, err := Marshal(back)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("second Marshal differs (err %v):\n%s\n---\n%s", err, out, again)
		}
	})
}

// TestFuzzCorpus keeps the checked-in seed corpus in step with the built-in
// catalog and testdata/bad: with -update it rewrites testdata/fuzz/FuzzParse.
func TestFuzzCorpus(t *testing.T) {
	dir := filepath.Join("testdata", "fuzz", "FuzzParse")
	seeds := corpus(t)
	if *update {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		old, _ := filepath.Glob(filepath.Join(dir, "*"))
		for _, p := range old {
			os.Remove(p)
		}
		for name, data := range seeds {
			body := "go test fuzz v1\n[]byte(" + strconv.Quote(string(data)) + ")\n"
			if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	have, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(have) < len(seeds) {
		t.Fatalf("the seed corpus has %d files, want %d (run go test ./internal/scenario -run TestFuzzCorpus -update)", len(have), len(seeds))
	}
}

// corpus gives the seed inputs by file name: each built-in scenario as a
// file of its own, the whole catalog, and the broken files.
func corpus(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{"builtin-all": lockstep.Scenarios}
	text := string(lockstep.Scenarios)
	parts := strings.Split(text, "\n  - id: ")
	for i, p := range parts[1:] {
		out[fmt.Sprintf("builtin-%02d", i+1)] = []byte("scenarios:\n  - id: " + p)
	}
	bad, _ := filepath.Glob(filepath.Join("testdata", "bad", "*.yaml"))
	for _, p := range bad {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out["bad-"+strings.TrimSuffix(filepath.Base(p), ".yaml")] = b
	}
	return out
}
