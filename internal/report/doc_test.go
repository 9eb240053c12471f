package report

import (
	"context"
	"flag"
	"os"
	"path/filepath"
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
func TestChoosingALockDoc(t *testing.T) {
	if raceEnabled {
		t.Skip("the card is checked without -race: go test ./internal/report -run TestChoosingALockDoc")
	}
	card, err := Build(context.Background(), Options{})
	if err != nil {
		t.Fatal(err)
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
}
