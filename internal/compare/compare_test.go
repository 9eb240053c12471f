package compare

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

func catalog(t *testing.T) *scenario.File {
	t.Helper()
	f, err := scenario.ParseBuiltin("scenarios.yaml", lockstep.Scenarios)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func lessonOf(t *testing.T, f *scenario.File, id string) *scenario.Scenario {
	t.Helper()
	sc, ok := f.Find(id)
	if !ok {
		t.Fatalf("no lesson %q", id)
	}
	return sc
}

// compareWith runs the comparison as the CLI and the browser do.
func compareWith(t *testing.T, f *scenario.File, sc *scenario.Scenario, with string) *Result {
	t.Helper()
	right, err := Against(sc, with, f.Scenarios)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Compare(sc, right, sc.Seed)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func sorted(v []string) []string {
	v = slices.Clone(v)
	slices.Sort(v)
	return v
}

// A lesson compared with itself is the same run twice: the replay of its
// schedule takes every move the engine took, in the same order, so every
// row matches, no entry is void and both sides end with the lesson's
// expected verdicts. This is what makes "the same schedule" trustworthy.
func TestEveryLessonAgainstItself(t *testing.T) {
	f := catalog(t)
	for i := range f.Scenarios {
		sc := &f.Scenarios[i]
		t.Run(sc.ID, func(t *testing.T) {
			res, err := Compare(sc, sc, sc.Seed)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Same() {
				d := res.Diverge
				row := func(s Side) string {
					if d < len(s.Texts) {
						return s.Texts[d]
					}
					return "(no row)"
				}
				t.Fatalf("row %d differs:\n left: %s\nright: %s", d+1, row(res.Left), row(res.Right))
			}
			// Each row is reached at the same step on both sides; only the
			// final verdicts of the replay come after its last entry.
			for i, e := range res.Right.Rows {
				l, r := res.Left.At[i], res.Right.At[i]
				if l != r && !(r == l+1 && e.Kind == "verdict") {
					t.Fatalf("row %d (%s) is at step %d on the left, %d on the right", i+1, res.Right.Texts[i], l, r)
				}
			}
			if !res.SameCode || !res.Fair() {
				t.Errorf("a lesson against itself: same code %v, notes %v", res.SameCode, res.Notes)
			}
			if want := sorted(sc.Expect); !slices.Equal(sorted(res.Left.Verdicts), want) || !slices.Equal(sorted(res.Right.Verdicts), want) {
				t.Errorf("verdicts: left %v, right %v, want %v on both", res.Left.Verdicts, res.Right.Verdicts, sc.Expect)
			}
		})
	}
}

// The canonical pairs. Each expectation (the divergent rows, the verdicts)
// was worked out from the lessons' timings and the rule in doc.go before
// the comparison was first run; where the run took another path to the
// same result, the note after "Ran:" says so.
//
//   - blind DEL vs compare-and-delete (two lessons, same clients, same
//     pause on A's leave mark): both acquire with the same SET NX, so the
//     runs agree until A wakes from its stall and releases. There the left
//     sends DEL lock and the right its script. Left: mutual-exclusion,
//     foreign-unlock, lost-update (the lesson's); right: safe.
//   - GET-then-DEL vs Lua (the algorithm swapped into the same clients):
//     the same acquire and work; the first difference is A's release, GET
//     lock on the left, the compare-and-delete script on the right. The
//     left's pause fires on A's GET exec, placed by meaning (doc.go) at
//     A's 1st command executed after it leaves its critical section: on
//     the right, the script, which runs before the stall, while A still
//     holds the lock. Left foreign-unlock, mutual-exclusion, lost-update;
//     right safe.
//   - no fencing vs fencing (two lessons): the fencing lock acquires with
//     a script, so A's very first command differs (SET vs EVALSHA
//     fencing_lock.lua). The pause as A enters its critical section lands
//     as A enters on both sides, whatever A's lock did to get in: B takes
//     the expired lock with a larger token and writes; A wakes and writes
//     with token 1. Left mutual-exclusion, stale-write; right
//     mutual-exclusion only (A still believed it held the lock), the
//     storage refusing A's write (TestNoFencingVsFencingRefusesAWrite).
//   - failover without and with WAIT (two lessons): the left's failover at
//     100ms is the right's too (its own fault, on A's replicated mark, is
//     dropped). Both take the SET on the master alike; after A's OK the
//     left marks acquired and the right sends WAIT. The master dies before
//     the replica has A's lock, so A's WAIT cannot be confirmed, and the
//     new master has no replica: no one counts a lock, no one enters. Left
//     mutual-exclusion, lost-update; right safe.
//   - thread id vs uuid:thread (two lessons): the owner is in A's first
//     command (the hash field), so the runs differ from A's first send.
//     Left mutual-exclusion, lost-update; right safe.
func TestCanonicalPairs(t *testing.T) {
	f := catalog(t)
	cases := []struct {
		left, with          string
		leftRow, rightRow   string // what the divergent rows say
		leftWant, rightWant []string
	}{
		{"blind-del-slow-release", "lua-cad-slow-release", "send A -> redis: DEL lock", "send A -> redis: EVALSHA compare_and_delete.lua",
			[]string{"foreign-unlock", "lost-update", "mutual-exclusion"}, []string{"safe"}},
		{"owner-check-expire-between", "lua-compare-delete", "send A -> redis: GET lock", "send A -> redis: EVALSHA compare_and_delete.lua",
			[]string{"foreign-unlock", "lost-update", "mutual-exclusion"}, []string{"safe"}},
		{"lease-pause-stale-write", "fencing-token-rejects-stale", "send A -> redis: SET lock", "send A -> redis: EVALSHA fencing_lock.lua",
			[]string{"mutual-exclusion", "stale-write"}, []string{"mutual-exclusion"}},
		{"failover-lost-lock", "failover-wait-replica", "mark A acquired lock", "send A -> master: WAIT 1",
			[]string{"lost-update", "mutual-exclusion"}, []string{"safe"}},
		{"thread-id-two-instances", "thread-id-uuid-fix", "send A -> redis: EVALSHA", "send A -> redis: EVALSHA",
			[]string{"lost-update", "mutual-exclusion"}, []string{"safe"}},
	}
	if len(cases) != len(Pairs) {
		t.Fatalf("%d cases for %d canonical pairs", len(cases), len(Pairs))
	}
	for i, c := range cases {
		if Pairs[i].Left != c.left || Pairs[i].With != c.with {
			t.Fatalf("pair %d is %s with %s, the case is %s with %s", i, Pairs[i].Left, Pairs[i].With, c.left, c.with)
		}
		t.Run(c.left, func(t *testing.T) {
			res := compareWith(t, f, lessonOf(t, f, c.left), c.with)
			if res.Same() {
				t.Fatal("the two runs are the same, want them to part")
			}
			d := res.Diverge
			l, r := res.Left.Texts[d], res.Right.Texts[d]
			if !strings.Contains(l, c.leftRow) || !strings.Contains(r, c.rightRow) {
				t.Errorf("row %d:\n left: %s (want %q)\nright: %s (want %q)", d+1, l, c.leftRow, r, c.rightRow)
			}
			if l == r {
				t.Errorf("row %d is the same on both sides: %s", d+1, l)
			}
			for j := range d {
				if res.Left.Texts[j] != res.Right.Texts[j] {
					t.Fatalf("row %d differs before the divergence row %d", j+1, d+1)
				}
			}
			if got := sorted(res.Left.Verdicts); !slices.Equal(got, c.leftWant) {
				t.Errorf("left verdicts %v, want %v", got, c.leftWant)
			}
			if got := sorted(res.Right.Verdicts); !slices.Equal(got, c.rightWant) {
				t.Errorf("right verdicts %v, want %v", got, c.rightWant)
			}
		})
	}
}

// Unknown names and clients that do not match are refused with errors
// that say which.
func TestAgainstErrors(t *testing.T) {
	f := catalog(t)
	sc := lessonOf(t, f, "blind-del-slow-release")
	_, err := Against(sc, "no-such-lock", f.Scenarios)
	if !errors.Is(err, ErrUnknown) || !strings.Contains(err.Error(), "no-such-lock") || !strings.Contains(err.Error(), "lua-compare-delete") {
		t.Errorf("unknown name: got %v", err)
	}
	_, err = Against(sc, "no-lock-oversell", f.Scenarios)
	if !errors.Is(err, ErrClients) || !strings.Contains(err.Error(), "A, B, C") || !strings.Contains(err.Error(), "has A, B") {
		t.Errorf("other clients: got %v", err)
	}
	if _, err := Compare(sc, lessonOf(t, f, "no-lock-oversell"), 1); !errors.Is(err, ErrClients) {
		t.Errorf("Compare with other clients: got %v", err)
	}
}

// Every canonical pair names lessons and algorithms that exist, and each
// side finds the other as its partner.
func TestPairsResolve(t *testing.T) {
	f := catalog(t)
	for _, p := range Pairs {
		sc := lessonOf(t, f, p.Left)
		if _, err := Against(sc, p.With, f.Scenarios); err != nil {
			t.Errorf("%s with %s: %v", p.Left, p.With, err)
		}
		if p.Title.En == "" || p.Title.Zh == "" {
			t.Errorf("pair %s has no title in both languages", p.Left)
		}
		if w, ok := Partner(p.Left); !ok || w != p.With {
			t.Errorf("Partner(%s) = %q, want %q", p.Left, w, p.With)
		}
		if _, isLesson := f.Find(p.With); isLesson {
			if w, ok := Partner(p.With); !ok || w != p.Left {
				t.Errorf("Partner(%s) = %q, want %q", p.With, w, p.Left)
			}
		}
	}
}

// The same comparison twice gives the same rows, byte for byte.
func TestDeterministic(t *testing.T) {
	f := catalog(t)
	sc := lessonOf(t, f, "owner-check-expire-between")
	a, b := compareWith(t, f, sc, "lua-compare-delete"), compareWith(t, f, sc, "lua-compare-delete")
	text := func(s Side) string {
		var out []string
		for _, e := range s.Log {
			out = append(out, e.String())
		}
		return strings.Join(out, "\n")
	}
	if text(a.Left) != text(b.Left) || text(a.Right) != text(b.Right) || a.Diverge != b.Diverge {
		t.Fatal("two comparisons of the same pair differ")
	}
}

// Within holds each side to a number of steps: a lesson compared with
// itself takes as many steps on both sides, the length of its schedule;
// a cap of that many is enough, one fewer is ErrTooLong.
func TestWithinHoldsTheRunsToTheCap(t *testing.T) {
	f := catalog(t)
	sc := lessonOf(t, f, "blind-del-slow-release")
	full, err := Compare(sc, sc, sc.Seed)
	if err != nil {
		t.Fatal(err)
	}
	n := 0 // the steps the run took (its final verdicts come after the last)
	for _, e := range full.Left.Rows {
		if e.Kind != sim.KindVerdict {
			n = max(n, e.Step)
		}
	}
	if n < 10 {
		t.Fatalf("a schedule of %d steps", n)
	}
	res, err := Within(sc, sc, sc.Seed, Bounds{MaxSteps: n})
	if err != nil || !res.Same() {
		t.Fatalf("within %d steps, the lesson's own length: %v", n, err)
	}
	if _, err := Within(sc, sc, sc.Seed, Bounds{MaxSteps: n - 1}); !errors.Is(err, ErrTooLong) || !strings.Contains(err.Error(), "cap of "+strconv.Itoa(n-1)+" steps") {
		t.Errorf("within %d steps: got %v, want ErrTooLong", n-1, err)
	}
}

// The picker's groups hold every algorithm once, in catalog order, each
// family with a title in both languages.
func TestGroupsHoldEveryAlgorithm(t *testing.T) {
	var got []string
	for _, g := range Groups() {
		if g.Title.En == "" || g.Title.Zh == "" || len(g.IDs) == 0 {
			t.Errorf("group %+v", g)
		}
		got = append(got, g.IDs...)
	}
	if want := lock.IDs(); !slices.Equal(sorted(got), sorted(want)) {
		t.Errorf("groups hold %v, want every algorithm %v", got, want)
	}
	if g := Groups()[0]; g.IDs[0] != "no-lock" {
		t.Errorf("first group %+v, want the catalog's first row first", g)
	}
}

// A comparison yields as it runs, as a server slices it on its CPUs: every
// few steps of the left's run with that run, then of the right's with
// both. Yielding changes nothing of the result, and an error from Yield
// stops the comparison with that error.
func TestWithinYieldsWithoutChangingTheRuns(t *testing.T) {
	f := catalog(t)
	sc := lessonOf(t, f, "failover-lost-lock") // a pair of different code: the right's faults placed by meaning
	right, err := Against(sc, "failover-wait-replica", f.Scenarios)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := Compare(sc, right, sc.Seed)
	if err != nil {
		t.Fatal(err)
	}
	calls := map[int]int{} // runs held -> calls
	yielded, err := Within(sc, right, sc.Seed, Bounds{Yield: func(runs []*lesson.Run) error { calls[len(runs)]++; return nil }})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(plain.Left.Texts, yielded.Left.Texts) || !slices.Equal(plain.Right.Texts, yielded.Right.Texts) ||
		!slices.Equal(plain.Right.At, yielded.Right.At) || plain.Diverge != yielded.Diverge {
		t.Error("the comparison differs when it yields")
	}
	// Each run yields before its first step and every 16 steps after.
	steps := func(s Side) int { return s.Rows[len(s.Rows)-1].Step }
	if calls[1] < steps(plain.Left)/16 || calls[1] == 0 || calls[2] < steps(plain.Right)/16 {
		t.Errorf("yields with the left's run, then with both: %v (runs of %d and %d steps)", calls, steps(plain.Left), steps(plain.Right))
	}
	stop := errors.New("the session ended")
	_, err = Within(sc, right, sc.Seed, Bounds{Yield: func(runs []*lesson.Run) error {
		if len(runs) == 2 {
			return stop
		}
		return nil
	}})
	if !errors.Is(err, stop) {
		t.Errorf("a yield that says stop in the right's run: got %v, want %v", err, stop)
	}
}
