package lesson

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

var update = flag.Bool("update", false, "rewrite the golden event logs in testdata/golden")

func catalog(t *testing.T) *scenario.File {
	t.Helper()
	f, err := scenario.ParseBuiltin("scenarios.yaml", lockstep.Scenarios)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// runLog runs a scenario to its end and returns its text log (with the
// verdict line the CLI prints) and its JSON Lines.
func runLog(t *testing.T, sc *scenario.Scenario, seed int64) (string, string) {
	t.Helper()
	r, err := New(sc, cfg(seed))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := r.RunToEnd(); err != nil {
		t.Fatal(err)
	}
	var txt, js bytes.Buffer
	enc := json.NewEncoder(&js)
	for _, e := range r.World.Log() {
		txt.WriteString(e.String() + "\n")
		if err := enc.Encode(e); err != nil {
			t.Fatal(err)
		}
	}
	for _, k := range r.Checker.Kept() {
		txt.WriteString("kept: " + k.Say.En + "\n")
	}
	txt.WriteString("verdict: " + strings.Join(r.Verdicts(), ", ") + "\n")
	return txt.String(), js.String()
}

// Every built-in scenario ends with the verdicts it promises. (That every
// line of its narration is said, and true, is story_test.go's.)
func TestCatalogVerdicts(t *testing.T) {
	for _, sc := range catalog(t).Scenarios {
		t.Run(sc.ID, func(t *testing.T) {
			r, err := New(&sc, cfg(sc.Seed))
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if err := r.RunToEnd(); err != nil {
				t.Fatal(err)
			}
			if got := r.Verdicts(); !SameVerdicts(got, sc.Expect) {
				t.Errorf("verdicts = %v, want %v", got, sc.Expect)
			}
		})
	}
}

// Every built-in scenario's event log is the reviewed one in
// testdata/golden (go test ./internal/lesson -update rewrites them; review
// the diff).
func TestGoldenLogs(t *testing.T) {
	for _, sc := range catalog(t).Scenarios {
		t.Run(sc.ID, func(t *testing.T) {
			got, _ := runLog(t, &sc, sc.Seed)
			path := filepath.Join("testdata", "golden", sc.ID+".txt")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("no golden log (run: go test ./internal/lesson -run TestGoldenLogs -update, then review it): %v", err)
			}
			if got != string(want) {
				t.Fatalf("event log differs from %s (rerun with -update and review the diff)\n%s", path, firstDiff(string(want), got))
			}
		})
	}
}

func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return "line " + strconv.Itoa(i+1) + ":\nwant: " + a + "\n got: " + b
		}
	}
	return ""
}

// The same scenario and seed give the same event log, text and JSON, byte
// for byte, 50 times over.
func TestSameSeedSameLog(t *testing.T) {
	f := catalog(t)
	for _, id := range []string{"no-lock-oversell", "blind-del-slow-release"} {
		sc, _ := f.Find(id)
		txt0, js0 := runLog(t, sc, 1)
		for i := 0; i < 50; i++ {
			txt, js := runLog(t, sc, 1)
			if txt != txt0 || js != js0 {
				t.Fatalf("%s run %d differs from run 0:\n%s", id, i, firstDiff(txt0, txt))
			}
		}
	}
}

// With the second buyer 2ms behind the first, no think time between GET
// and SET, and a jittery network, the seed decides the interleaving: different seeds reach different orders of
// the four commands, and some of them sell the item twice while others do
// not.
func TestSeedsReachOtherInterleavings(t *testing.T) {
	sc := *builtin(t, "no-lock-oversell")
	sc.Clients = append([]scenario.Client(nil), sc.Clients...)
	sc.Clients[1].Start = scenario.Duration(2 * time.Millisecond)
	sc.Clients[0].Work, sc.Clients[1].Work = 0, 0
	sc.Network.Jitter = scenario.Duration(3 * time.Millisecond)
	orders := map[string]bool{}
	verdicts := map[string]bool{}
	for seed := int64(1); seed <= 40; seed++ {
		r, err := New(&sc, cfg(seed))
		if err != nil {
			t.Fatal(err)
		}
		if err := r.RunToEnd(); err != nil {
			t.Fatal(err)
		}
		var order []string
		for _, e := range r.World.Log() {
			if e.Kind == "exec" {
				order = append(order, e.Client+":"+e.Cmd[0])
			}
		}
		orders[strings.Join(order, " ")] = true
		verdicts[strings.Join(r.Verdicts(), ",")] = true
		r.Close()
	}
	if len(orders) < 3 {
		t.Fatalf("40 seeds reached %d interleavings, want at least 3: %v", len(orders), orders)
	}
	if !verdicts["oversell"] || !verdicts["safe"] {
		t.Fatalf("verdicts over 40 seeds = %v, want both oversell and safe", verdicts)
	}
}

// Every algorithm of the lesson catalog (internal/lock checks that there
// is one per row) has at least one scenario that shows it.
func TestEveryRowHasAScenario(t *testing.T) {
	f := catalog(t)
	for _, a := range lock.Algorithms {
		shown := false
		for _, sc := range f.Scenarios {
			shown = shown || slices.Contains(sc.Catalog, a.Row)
		}
		if !shown {
			t.Errorf("catalog row %d (%s) has no scenario", a.Row, a.ID)
		}
	}
}

// Every verdict of the vocabulary is one some lesson expects, and
// TestCatalogVerdicts holds each lesson to its expectation: a verdict
// declared in sim.Verdicts whose rule is missing from the checker (or
// never fires) fails here or there.
func TestEveryVerdictIsTaught(t *testing.T) {
	taught := map[string]bool{}
	for _, sc := range catalog(t).Scenarios {
		for _, v := range sc.Expect {
			taught[v] = true
		}
	}
	for _, v := range sim.Verdicts {
		if !taught[v] {
			t.Errorf("no lesson expects %s: add one that shows it (docs/architecture.md, Adding a verdict)", v)
		}
	}
}
