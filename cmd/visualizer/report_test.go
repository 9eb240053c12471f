package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/lockstep/lockstep/internal/scenario"
)

// One cell of the card on the command line: the watchdog under a pause
// longer than its lease breaks (the watchdog stops with its process), and
// the counterexample it prints is a scenario file that visualizer run
// replays to the same verdict.
func TestReportCellReplays(t *testing.T) {
	r := visualizer(t, "report", "--cell", "watchdog/pause")
	r.expect(t, "report --cell watchdog/pause", 0)
	first, _, _ := strings.Cut(r.stdout, "\n")
	if !strings.HasPrefix(first, "# watchdog/pause: ✗ mutual-exclusion") {
		t.Fatalf("first line %q, want the cell's ✗ mutual-exclusion", first)
	}
	path := writeFile(t, "cell.yaml", r.stdout)
	out, err := combined(t, "run", "--file", path, "card-watchdog-pause-explored")
	if err != nil || !strings.HasPrefix(lastLine(out), "verdict: mutual-exclusion") {
		t.Fatalf("the counterexample replays to %q (%v), want mutual-exclusion", lastLine(out), err)
	}
	// A ✓ cell states its bound and prints no schedule.
	r = visualizer(t, "report", "--cell", "lua-compare-delete/lost-reply")
	r.expect(t, "report --cell lua-compare-delete/lost-reply", 0)
	if !strings.Contains(r.stdout, "✓ no violation in any of") || !strings.Contains(r.stdout, "within the bound") || strings.Contains(r.stdout, "scenarios:") {
		t.Errorf("the ✓ cell prints %q: want its count and bound, and no scenario", r.stdout)
	}
	r = visualizer(t, "report", "--cell", "lua-compare-delete/lost-reply", "--lang", "zh")
	if !strings.Contains(r.stdout, "在界限内的全部") {
		t.Errorf("in 中文 the ✓ cell prints %q", r.stdout)
	}
}

// Bad command lines: 2 for what cannot be read, 1 for a lock or column
// the card does not have, each with the list to choose from.
func TestReportBadUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"report", "extra"}, 2, "report takes no arguments"},
		{[]string{"report", "--lang", "fr"}, 2, "--lang is en or zh"},
		{[]string{"report", "--json", "--markdown"}, 2, "at most one of"},
		{[]string{"report", "--cell", "watchdog"}, 2, "LOCK/COLUMN"},
		{[]string{"report", "--cell", "nolock/pause"}, 1, "the locks: no-lock, local-mutex"},
		{[]string{"report", "--cell", "watchdog/gc"}, 1, "the columns: contention, lost-reply, pause"},
		{[]string{"report", "--only", "nolock"}, 1, "--only: no lock \"nolock\""},
	} {
		visualizer(t, tc.args...).expect(t, strings.Join(tc.args, " "), tc.code, tc.want)
	}
}

// --only and --json: the SQL lock's row, every column a cell, the
// faults its database cannot be given n/a with the reason, the crash
// that leaves its row for ever a ✗ with a counterexample.
func TestReportOnlyJSON(t *testing.T) {
	r := visualizer(t, "report", "--only", "mysql-unique-key", "--json")
	r.expect(t, "report --only mysql-unique-key --json", 0)
	var card struct {
		Bound struct{ En, Zh string }
		Rows  []struct {
			Algorithm string
			Probe     struct{ Acquire, Release int }
			Advice    struct{ En, Zh string }
			Cells     []struct {
				Column, Kind, Verdict string
				Why                   *struct{ En, Zh string }
				Counterexample        *scenario.Scenario
			}
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &card); err != nil {
		t.Fatal(err)
	}
	if len(card.Rows) != 1 || len(card.Rows[0].Cells) != 8 {
		t.Fatalf("want one row of 8 cells, got %+v", card)
	}
	// Every ✓ and ~ is stated within a bound: the JSON says which.
	if !strings.Contains(card.Bound.En, "engine steps a schedule") || card.Bound.Zh == "" {
		t.Errorf("the card's bound: %+v", card.Bound)
	}
	row := card.Rows[0]
	kinds := map[string]string{}
	for _, c := range row.Cells {
		kinds[c.Column] = c.Kind
		if c.Kind == "n/a" && (c.Why == nil || c.Why.En == "" || c.Why.Zh == "") {
			t.Errorf("%s: n/a without a reason", c.Column)
		}
		if c.Kind == "fails" && c.Counterexample == nil {
			t.Errorf("%s: ✗ without a counterexample", c.Column)
		}
	}
	if kinds["crash"] != "fails" || kinds["partition"] != "n/a" || kinds["contention"] != "holds" {
		t.Errorf("cells %v: want the crash ✗ (a row without expiry), the partition n/a, contention ✓", kinds)
	}
	if row.Probe.Acquire != 1 || row.Probe.Release != 1 || row.Advice.En == "" || row.Advice.Zh == "" {
		t.Errorf("row %+v: want 1 round trip each way and a sentence in both languages", row)
	}
}

// Every counterexample of docs/choosing-a-lock.md replays on the command
// line to the verdicts it expects.
func TestChoosingALockReplays(t *testing.T) {
	path := filepath.Join("..", "..", "docs", "choosing-a-lock.yaml")
	f, err := scenario.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Scenarios) < 40 {
		t.Fatalf("%s holds %d scenarios; the card has far more ✗ cells", path, len(f.Scenarios))
	}
	out, err := combined(t, "test", "--file", path)
	if err != nil || !strings.Contains(out, fmt.Sprintf("%d passed, 0 failed", len(f.Scenarios))) {
		t.Fatalf("visualizer test --file %s: %v\n%s", path, err, out)
	}
}

// A card runs with the collector set for it (collect at 9x the live heap,
// a soft limit of 256 MiB) unless the environment sets it, and the process
// gets its own settings back after (a test binary, a server that renders a
// card, run more after it).
func TestCardGCIsSetForTheCardAndRestored(t *testing.T) {
	before, beforeLimit := debug.SetGCPercent(-1), debug.SetMemoryLimit(-1)
	debug.SetGCPercent(before)
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }

	restore := cardGC(getenv)
	gc, limit := debug.SetGCPercent(-1), debug.SetMemoryLimit(-1)
	debug.SetGCPercent(gc)
	restore()
	if gc != cardGCPercent || limit != cardMemLimit {
		t.Errorf("during a card: GOGC %d, limit %d; want %d, %d", gc, limit, cardGCPercent, cardMemLimit)
	}
	if got := debug.SetGCPercent(before); got != before || debug.SetMemoryLimit(-1) != beforeLimit {
		t.Errorf("after a card: GOGC %d, want %d back", got, before)
	}

	env["GOGC"], env["GOMEMLIMIT"] = "100", "1GiB"
	restore = cardGC(getenv)
	gc = debug.SetGCPercent(-1)
	debug.SetGCPercent(gc)
	limit = debug.SetMemoryLimit(-1)
	restore()
	if gc != before || limit != beforeLimit {
		t.Errorf("with GOGC and GOMEMLIMIT set: GOGC %d, limit %d; want the environment's (%d, %d)", gc, limit, before, beforeLimit)
	}
}
