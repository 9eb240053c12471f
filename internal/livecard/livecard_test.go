package livecard

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/lockstep/lockstep/internal/report"
	"github.com/lockstep/lockstep/internal/sim"
)

var (
	update = flag.Bool("update", false, "run the live rows and write them into docs/choosing-a-lock.json and .md")
	runs   = flag.Int("runs", DefaultRuns, "with -update: real-time runs a cell")
)

// docs is where the stored card lives.
var docs = filepath.Join("..", "..", "docs")

// TestLiveRows holds the card's stored live rows to the code by shape and
// verdict class: a row for each of Rows, a cell for each column, n/a
// exactly where the code says, and DefaultRuns fresh runs of every other
// cell (DefaultParallel at once) ending in the stored cell's class, and the class
// argued for it in the code, in all but at most one. A live server's
// milliseconds differ from run to run; its verdicts, with these margins,
// do not. With -update it runs the rows (-runs a cell) and writes them
// into the stored card instead.
func TestLiveRows(t *testing.T) {
	if testing.Short() {
		t.Skip("real-time runs on live servers: about 40 s")
	}
	if raceEnabled {
		t.Skip("real-time runs under the race detector (race_test.go): scripts/test.sh runs them without it")
	}
	js, err := os.ReadFile(filepath.Join(docs, "choosing-a-lock.json"))
	if err != nil {
		t.Fatal(err)
	}
	card, err := report.Decode(js)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		writeRows(t, card)
		return
	}
	if len(card.Live) != len(Rows) {
		t.Fatalf("the stored card has %d live rows, the code %d: go test ./internal/livecard -run TestLiveRows -update", len(card.Live), len(Rows))
	}
	for i, r := range Rows {
		checkShape(t, card.Live[i], &r)
	}
	t0 := time.Now()
	fresh, err := Build(context.Background(), Options{Runs: DefaultRuns})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("fresh runs: %s", time.Since(t0).Round(time.Second))
	for i, r := range fresh {
		stored := card.Live[i]
		for j, c := range r.Cells {
			checkClass(t, &Rows[i], stored.Cells[j], c)
		}
	}
}

// checkShape holds a stored live row to its row of the code.
func checkShape(t *testing.T, got *report.Row, want *Row) {
	t.Helper()
	if got.Algorithm != want.Algorithm || got.Variant != want.Variant || got.Storage != want.Storage {
		t.Fatalf("stored live row %s, the code's %s (%s): go test ./internal/livecard -run TestLiveRows -update", got.Name(), want.Algorithm, want.Variant)
	}
	for j, col := range Columns() {
		c, spec := got.Cells[j], want.Cells[col]
		if (c.Kind == report.NA) != (spec.NA != nil) {
			t.Errorf("%s/%s: stored %s, the code says n/a: %v", got.Name(), col, c.Kind, spec.NA != nil)
		}
		if spec.NA != nil && (c.Why.En != spec.NA.En || c.Why.Zh != spec.NA.Zh) {
			t.Errorf("%s/%s: the stored reason is not the code's", got.Name(), col)
		}
		if spec.NA == nil && c.Kind != report.Unsearched && (c.Placement == nil || c.Placement.En != spec.Placement.En || c.Placement.Zh != spec.Placement.Zh) {
			t.Errorf("%s/%s: the stored placement is not the code's", got.Name(), col)
		}
	}
}

// checkClass holds a fresh cell to the stored one and to its argued
// class: all but at most one of its runs in that class.
func checkClass(t *testing.T, r *Row, stored, fresh *report.Cell) {
	t.Helper()
	spec := r.Cells[fresh.Column]
	name := r.Algorithm + " (" + r.Variant + ")/" + fresh.Column
	switch {
	case spec.NA != nil:
		if fresh.Kind != report.NA {
			t.Errorf("%s: %s, want n/a", name, fresh.Kind)
		}
		return
	case fresh.Kind == report.Unsearched || stored.Kind == report.Unsearched:
		t.Logf("%s: not run here or when stored (%s / %s)", name, fresh.Kind, stored.Kind)
		return
	}
	if stored.Kind != spec.Argued {
		t.Errorf("%s: stored %s, argued %s", name, stored.Kind, spec.Argued)
	}
	agree := fresh.Broken
	if spec.Argued == report.Unbroken {
		agree = fresh.Runs - fresh.Broken
	}
	if agree < fresh.Runs-1 {
		t.Errorf("%s: %d of %d fresh runs in the argued class %s (tally %v)", name, agree, fresh.Runs, spec.Argued, fresh.Tally)
	}
}

// writeRows runs the live rows and writes them into the stored card.
func writeRows(t *testing.T, card *report.Card) {
	t.Helper()
	rows, err := Build(context.Background(), Options{Runs: *runs, Progress: func(r *report.Row, c *report.Cell) {
		t.Logf("%s/%s: %s %v", r.Name(), c.Column, c.Mark(), c.Tally)
	}})
	if err != nil {
		t.Fatal(err)
	}
	card.Live = rows
	js, err := card.JSON()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := report.Decode(js); err != nil {
		t.Fatalf("the card with its live rows does not read back: %v", err)
	}
	for name, text := range map[string]string{"choosing-a-lock.json": string(js), "choosing-a-lock.md": card.Markdown()} {
		if err := os.WriteFile(filepath.Join(docs, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestTally: a storage row's run with two inside at once did not break
// it; a plain row's did; the verdict is the one most breaking runs had.
func TestTally(t *testing.T) {
	me := []string{sim.VerdictMutualExclusion}
	both := []string{sim.VerdictMutualExclusion, sim.VerdictStaleWrite}
	safe := []string{sim.VerdictSafe}
	c := Tally(true, "pause", sim.Text{}, [][]string{me, me, safe})
	if c.Kind != report.Unbroken || c.Broken != 0 || c.Mark() != "✓ 0/3 "+report.Clock {
		t.Errorf("at a storage: %s %d %q, want unbroken", c.Kind, c.Broken, c.Mark())
	}
	c = Tally(false, "pause", sim.Text{}, [][]string{both, me, safe, both})
	if c.Kind != report.Broke || c.Broken != 3 || c.Verdict != sim.VerdictMutualExclusion || c.Mark() != "✗ 3/4 "+report.Clock {
		t.Errorf("plain: %s %d %s %q, want broke 3 mutual-exclusion", c.Kind, c.Broken, c.Verdict, c.Mark())
	}
	if len(c.Tally) != 3 || c.Tally[0].Runs != 2 || !slices.Equal(c.Tally[0].Verdicts, both) {
		t.Errorf("tally %v, want both ×2 first", c.Tally)
	}
}
