package lesson

import (
	"maps"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/lockstep/lockstep/internal/check/reference/gen"
	"github.com/lockstep/lockstep/internal/scenario"
)

// declaredAs names, for each catalog lock, its declared twin in
// testdata/declared-catalog.yaml.
var declaredAs = map[string]string{
	"set-nx-ex-blind-del": "my-blind-del",
	"lua-compare-delete":  "my-lua-cad",
	"setnx-then-expire":   "my-setnx-expire",
	"owner-check-get-del": "my-get-del",
	"watch-release":       "my-watch-release",
	"fencing-token":       "my-fencing",
}

// declaredLocks reads the declared twins.
func declaredLocks(t *testing.T) []scenario.Lock {
	t.Helper()
	text, err := os.ReadFile("testdata/declared-catalog.yaml")
	if err != nil {
		t.Fatal(err)
	}
	f, err := scenario.Parse("declared-catalog.yaml", text)
	if err != nil {
		t.Fatal(err)
	}
	return f.Scenarios[0].Locks
}

// asDeclared is sc with every client's catalog lock replaced by its
// declared twin, or false when a client runs another lock or sets a
// parameter the twin does not stand for (setnx-then-expire's repair; a
// TTL EXPIRE cannot take in whole seconds).
func asDeclared(sc *scenario.Scenario, locks []scenario.Lock) (*scenario.Scenario, bool) {
	out := *sc
	out.Clients = slices.Clone(sc.Clients)
	out.Locks = locks
	for i := range out.Clients {
		c := &out.Clients[i]
		twin, ok := declaredAs[c.Algorithm]
		if !ok {
			return nil, false
		}
		for k, v := range c.Params {
			if !slices.Contains([]string{"key", "ttl", "retry", "retry_jitter", "acquire_timeout"}, k) {
				return nil, false
			}
			if d, err := time.ParseDuration(asString(v)); k == "ttl" && c.Algorithm == "setnx-then-expire" && (err != nil || d%time.Second != 0) {
				return nil, false
			}
		}
		c.Algorithm = twin
		c.Params = maps.Clone(c.Params)
	}
	return &out, true
}

func asString(v any) string { s, _ := v.(string); return s }

// runVerdicts runs sc to its end.
func runVerdicts(t *testing.T, sc *scenario.Scenario) []string {
	t.Helper()
	r, err := New(sc, cfg(sc.Seed))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := r.RunToEnd(); err != nil {
		t.Fatal(err)
	}
	return r.Verdicts()
}

// The checker knows nothing of a declared lock beyond what its commands
// wrote and the replies it took for success: a declared twin of a catalog
// lock (blind DEL, Lua compare-and-delete, SETNX then EXPIRE, GET then DEL,
// WATCH release, fencing tokens drawn by its fencing: command) gets the catalog lock's verdicts on every catalog lesson
// of that lock and on generated scenarios (reference/gen), which were
// written for neither. Expected: equal verdicts everywhere, since each
// twin sends the same commands and takes the same replies for success; a
// twin whose ok: were ignored (a refused release taken as done, a failed
// SETNX taken as held) would differ on the lessons that teach the lock.
func TestDeclaredLocksJudgedAsTheCatalogs(t *testing.T) {
	locks := declaredLocks(t)
	var cases []*scenario.Scenario
	cat := catalog(t)
	for i := range cat.Scenarios {
		cases = append(cases, &cat.Scenarios[i])
	}
	const generated = 400
	for i := range generated {
		if g := gen.Generate(7, i); g.Scenario != nil {
			cases = append(cases, g.Scenario)
		}
	}
	ran, unsafe := map[string]int{}, 0
	for _, sc := range cases {
		twin, ok := asDeclared(sc, locks)
		if !ok {
			continue
		}
		want, got := runVerdicts(t, sc), runVerdicts(t, twin)
		if !SameVerdicts(got, want) {
			t.Errorf("%s: the declared twin got %v, the catalog's lock %v", sc.ID, got, want)
		}
		ran[sc.Clients[0].Algorithm]++
		if !slices.Equal(want, []string{"safe"}) {
			unsafe++
		}
	}
	for algo := range declaredAs {
		if ran[algo] == 0 {
			t.Errorf("no scenario ran %s: the comparison says nothing of its twin", algo)
		}
	}
	if unsafe == 0 {
		t.Error("every compared run was safe: the comparison never met a violation")
	}
	t.Logf("compared %v scenarios by first client's lock, %d of them unsafe", ran, unsafe)
}

// The in-house locks of labs/your-lock.yaml end with the verdicts their
// comments argued, like the built-in catalog; each scenario's clients run
// a lock the scenario declares, and each lock says where it comes from.
func TestYourLockLabScenarios(t *testing.T) {
	f, err := scenario.Load("../../labs/your-lock.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Scenarios) < 6 {
		t.Fatalf("labs/your-lock.yaml has %d scenarios, want at least six in-house locks", len(f.Scenarios))
	}
	for i := range f.Scenarios {
		sc := &f.Scenarios[i]
		for _, c := range sc.Clients {
			if _, own := sc.Own(c.Algorithm); !own {
				t.Errorf("%s: client %s runs %s, not a lock of the file", sc.ID, c.Name, c.Algorithm)
			}
		}
		if sc.Source == "" {
			t.Errorf("%s: no source: cite the thread the lock comes from", sc.ID)
		}
		got, err := replayVerdicts(sc, cfg(sc.Seed))
		if err != nil {
			t.Fatalf("%s: %v", sc.ID, err)
		}
		if !SameVerdicts(got, sc.Expect) {
			t.Errorf("%s: want %v, got %v", sc.ID, sc.Expect, got)
		}
	}
}
