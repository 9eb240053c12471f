package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lockstep/lockstep/internal/embedded"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
)

// Two buyers without a lock oversell in their own schedule: explore finds
// it in schedule 1 and prints a scenario file with nothing to schedule.
func TestExploreNoLock(t *testing.T) {
	r := visualizer(t, "explore", "no-lock-oversell", "--neutral")
	r.expect(t, "explore no-lock-oversell --neutral", 0)
	out := r.stdout
	for _, want := range []string{"found oversell in schedule 1 of 1", "the recording replays to: oversell", "id: no-lock-oversell-explored"} {
		if !strings.Contains(out, want) {
			t.Errorf("want %q in the output:\n%s", want, out)
		}
	}
}

const cadFile = `scenarios:
  - id: cad-two
    title: {en: "Lua compare-and-delete, two clients"}
    seed: 1
    horizon: 20s
    data: {stock: "10"}
    clients:
      - {name: A, algorithm: lua-compare-delete, params: {ttl: 3s, retry: 500ms}, work: 2500ms}
      - {name: B, algorithm: lua-compare-delete, params: {ttl: 3s, retry: 500ms}, work: 2500ms, start: 100ms}
    expect: [safe]
    explore:
      faults: [{do: pause, max: 5s}]
`

// The exhaustive search of a compare-and-delete lock with a pause budget
// covers every schedule, finds the lease problem and never a foreign
// unlock; the scenario it prints replays through lesson.Session (the path
// of recordings) to the verdict it names.
func TestExploreExhaustiveFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cad.yaml")
	if err := os.WriteFile(path, []byte(cadFile), 0o644); err != nil {
		t.Fatal(err)
	}
	r := visualizer(t, "explore", "--file", path, "--strategy", "exhaustive", "--time", "10m")
	r.expect(t, "explore --file cad.yaml --strategy exhaustive --time 10m", 0)
	out := r.stdout
	if !strings.Contains(out, "verdicts over ") || !strings.Contains(out, "found mutual-exclusion") || strings.Contains(out, "foreign-unlock") {
		t.Fatalf("want every schedule covered, mutual-exclusion found, no foreign-unlock:\n%s", out)
	}
	_, yml, ok := strings.Cut(out, "# replay: visualizer run --file FILE cad-two-explored\n")
	if !ok {
		t.Fatalf("no scenario in the output:\n%s", out)
	}
	f, err := scenario.Parse("out.yaml", []byte(yml))
	if err != nil {
		t.Fatalf("the printed scenario does not parse: %v\n%s", err, yml)
	}
	sc := &f.Scenarios[0]
	if len(sc.Schedule)+len(sc.Faults) == 0 {
		t.Fatalf("want the pause, in the schedule or on a mark, got none:\n%s", yml)
	}
	s, err := lesson.NewSession(sc, lesson.Config{Seed: sc.Seed, Servers: embedded.Servers{}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Seek(1 << 30); err != nil {
		t.Fatal(err)
	}
	if got := s.Run().Verdicts(); !lesson.SameVerdicts(got, sc.Expect) {
		t.Fatalf("replayed to %v, the file expects %v", got, sc.Expect)
	}
}

// "None" says how much it covers. Two clients of a compare-and-delete
// lock with no fault to place are safe in every order of their moves: the
// exhaustive search covers every schedule and says so, with its bound; a
// random search of 3 schedules has only sampled, and says "not a proof"
// (it never says "within the bound", which reads as one).
func TestExploreNoneSaysWhatItCovered(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cad.yaml")
	safe := strings.Replace(cadFile, "faults: [{do: pause, max: 5s}]", "faults: []", 1)
	if err := os.WriteFile(path, []byte(safe), 0o644); err != nil {
		t.Fatal(err)
	}
	r := visualizer(t, "explore", "--file", path, "--strategy", "exhaustive", "--time", "10m")
	r.expect(t, "explore --strategy exhaustive", 0)
	if !strings.Contains(r.stdout, "none within the bound: no violation in any of") ||
		!strings.Contains(r.stdout, "bound: no fault (the budget is empty)") {
		t.Errorf("the exhaustive search should state its bound:\n%s", r.stdout)
	}
	r = visualizer(t, "explore", "--file", path, "--strategy", "random", "--runs", "3")
	r.expect(t, "explore --strategy random --runs 3", 0)
	if !strings.Contains(r.stdout, "none found in 3 sampled schedules (random search") ||
		!strings.Contains(r.stdout, "not a proof") || strings.Contains(r.stdout, "within the bound") {
		t.Errorf("a sample should say it is not a proof:\n%s", r.stdout)
	}
}

// explore's failures: a budget, strategy or wanted verdict it does not
// know, a scenario that is not there. Each ends with status 1 and says
// what was wrong; a budget the scenario can take runs.
func TestExploreErrors(t *testing.T) {
	for args, want := range map[string]string{
		"explore no-lock-oversell --budget pause":  "pause needs a largest size",
		"explore no-lock-oversell --strategy dfs":  "unknown strategy",
		"explore no-lock-oversell --want oversold": `unknown violation "oversold"`,
		"explore nope": `no scenario "nope"`,
		"explore no-lock-oversell --budget clock-jump:1s,crash": "", // a budget the scenario can take
	} {
		r := visualizer(t, strings.Fields(args)...)
		if want == "" {
			r.expect(t, args, 0)
			continue
		}
		r.expect(t, args, 1, "visualizer: ", want)
	}
}

// Every schedule the lessons table found (docs/explore-found.yaml) replays
// on the command line to the verdicts it was found with: visualizer test
// passes the file, and visualizer run of each scenario ends with its
// expected verdicts. Each names a violation the lesson it came from expects
// (or, for a safe lesson, any violation: the table says which).
func TestExploreFoundSchedulesReplay(t *testing.T) {
	path := filepath.Join("..", "..", "docs", "explore-found.yaml")
	f, err := scenario.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Scenarios) < 20 {
		t.Fatalf("%s holds %d scenarios; the table finds a violation in far more lessons", path, len(f.Scenarios))
	}
	out, err := combined(t, "test", "--file", path)
	if err != nil || !strings.Contains(out, fmt.Sprintf("%d passed, 0 failed", len(f.Scenarios))) {
		t.Fatalf("visualizer test --file %s: %v\n%s", path, err, out)
	}
	for _, sc := range f.Scenarios {
		if slices.Contains(sc.Expect, "safe") || len(sc.Expect) == 0 {
			t.Errorf("%s expects %v: a found schedule names a violation", sc.ID, sc.Expect)
		}
		out, err := combined(t, "run", "--file", path, sc.ID)
		if err != nil {
			t.Fatalf("run %s: %v\n%s", sc.ID, err, out)
		}
		if want := "verdict: " + strings.Join(sc.Expect, ", "); !strings.HasSuffix(strings.TrimSpace(out), want) {
			t.Errorf("run %s ends %q, want %q", sc.ID, lastLine(out), want)
		}
	}
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	return s[strings.LastIndex(s, "\n")+1:]
}
