package report

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/lockstep/lockstep/internal/scenario"
)

var update = flag.Bool("update", false, "rewrite docs/choosing-a-lock.md, .yaml and .json")

// docs/choosing-a-lock.md is the card as visualizer report --markdown
// prints it, docs/choosing-a-lock.yaml every counterexample of it, and
// docs/choosing-a-lock.json the whole card, which the server answers
// "Which lock?" with (the binary carries it) and Decode reads back: a
// change to a lock, to the engine or to the card's templates that changes
// a cell makes this test fail until both are generated again (-update).
// The card is the same with the race detector on, which only makes it
// take ten times as long; it is checked without it.
//
// Building the card takes a minute or more of CPU. docs/choosing-a-lock.sum
// holds a hash of everything it is computed from (inputsHash: the source
// and embedded files of every package Build runs, the module's go.sum,
// the Go version); while the code hashes the same, the card cannot have
// changed, and the test only checks that the three files are one card
// (the JSON reads back to the Markdown and the counterexamples written).
// When the hash differs, the card is built and compared, as -update
// writes it with its hash.
func TestChoosingALockDoc(t *testing.T) {
	if raceEnabled {
		t.Skip("the card is checked without -race: go test ./internal/report -run TestChoosingALockDoc")
	}
	sumPath := filepath.Join("..", "..", "docs", "choosing-a-lock.sum")
	sum, hashErr := inputsHash()
	if stored, err := os.ReadFile(sumPath); !*update && hashErr == nil && err == nil && strings.TrimSpace(string(stored)) == sum {
		checkStoredCard(t)
		return
	} else if hashErr != nil {
		t.Logf("building the card: its inputs cannot be hashed: %v", hashErr)
	}
	card, err := Build(context.Background(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The live rows (etcd, ZooKeeper) are real-time runs Build does not
	// compute: they are carried over from the stored card, and
	// internal/livecard's TestLiveRows holds them to the code.
	if js, err := os.ReadFile(filepath.Join("..", "..", "docs", "choosing-a-lock.json")); err == nil {
		if stored, err := Decode(js); err == nil {
			card.Live = stored.Live
		}
	}
	yml, err := scenario.Marshal(card.Counterexamples())
	if err != nil {
		t.Fatal(err)
	}
	js, err := card.JSON()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Decode(js)
	if err != nil {
		t.Fatalf("the card does not read back: %v", err)
	}
	if back.Markdown() != card.Markdown() {
		t.Fatalf("the card read back from its JSON says something else than the card")
	}
	for _, f := range []struct{ name, text string }{
		{"choosing-a-lock.md", card.Markdown()},
		{"choosing-a-lock.yaml", YAMLHead + string(yml)},
		{"choosing-a-lock.json", string(js)},
	} {
		path := filepath.Join("..", "..", "docs", f.name)
		if *update {
			if err := os.WriteFile(path, []byte(f.text), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != f.text {
			t.Errorf("docs/%s is stale: regenerate it with go test ./internal/report -run TestChoosingALockDoc -update", f.name)
		}
	}
	if *update && hashErr == nil {
		if err := os.WriteFile(sumPath, []byte(sum+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// checkStoredCard holds docs/choosing-a-lock.md and .yaml to the card of
// docs/choosing-a-lock.json.
func checkStoredCard(t *testing.T) {
	t.Helper()
	dir := filepath.Join("..", "..", "docs")
	js, err := os.ReadFile(filepath.Join(dir, "choosing-a-lock.json"))
	if err != nil {
		t.Fatal(err)
	}
	card, err := Decode(js)
	if err != nil {
		t.Fatalf("docs/choosing-a-lock.json does not read back: %v", err)
	}
	md, err := os.ReadFile(filepath.Join(dir, "choosing-a-lock.md"))
	if err != nil {
		t.Fatal(err)
	}
	if string(md) != card.Markdown() {
		t.Errorf("docs/choosing-a-lock.md is not the card of docs/choosing-a-lock.json: regenerate them with go test ./internal/report -run TestChoosingALockDoc -update")
	}
	// The counterexamples, compared as data: a number the JSON read back
	// as a float (redsync's tries: 1000) is written 1000.0 in YAML.
	yml, err := os.ReadFile(filepath.Join(dir, "choosing-a-lock.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := scenario.Parse("choosing-a-lock.yaml", yml)
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(f.Scenarios)
	if err != nil {
		t.Fatal(err)
	}
	want, err := json.Marshal(card.Counterexamples().Scenarios)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(yml), YAMLHead) || string(got) != string(want) {
		t.Errorf("docs/choosing-a-lock.yaml is not the card of docs/choosing-a-lock.json: regenerate them with go test ./internal/report -run TestChoosingALockDoc -update")
	}
}

// inputsHash is a hash of what the card is computed from: the Go and
// embedded files of every package of this repository that Build runs
// (go list -deps: the engine, the locks, the checker, the search, the
// vendored libraries and miniredis), the module's go.mod and go.sum (the
// versions of the rest), and the Go version and platform.
func inputsHash() (string, error) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.Dir}}\t{{join .GoFiles \",\"}}\t{{join .EmbedFiles \",\"}}", ".").Output()
	if err != nil {
		return "", fmt.Errorf("go list: %w", err)
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		return "", err
	}
	files := []string{filepath.Join(root, "go.mod"), filepath.Join(root, "go.sum")}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		dir, rest, _ := strings.Cut(line, "\t")
		if !strings.HasPrefix(dir, root+string(filepath.Separator)) {
			continue // the standard library and modules outside: Go's version and go.sum
		}
		gofiles, embeds, _ := strings.Cut(rest, "\t")
		for _, list := range []string{gofiles, embeds} {
			for _, f := range strings.Split(list, ",") {
				if f != "" {
					files = append(files, filepath.Join(dir, f))
				}
			}
		}
	}
	sort.Strings(files)
	h := sha256.New()
	fmt.Fprintf(h, "%s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		rel, _ := filepath.Rel(root, f)
		fmt.Fprintf(h, "%s %d\n", filepath.ToSlash(rel), len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
