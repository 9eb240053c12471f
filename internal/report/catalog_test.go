package report

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/explore"
	"github.com/lockstep/lockstep/internal/sim"
)

// catalogCells are the cells the lesson catalog already teaches. The
// expected cell is argued from the lock's code before the search runs:
var catalogCells = []struct {
	lock, column  string
	kind, verdict string
	slow          bool // a random search of Redlock: skipped under -race
	why           string
}{
	{"watchdog", "pause", Fails, "mutual-exclusion", false,
		"the watchdog is a thread of the paused process: a 2s stop of the world stops its renewals, the 1s lease runs out, B enters beside A (watchdog-process-pause)"},
	{"fencing-token", "pause", Holds, "", false,
		"A stops before its write; B takes the lapsed lock with a newer token and writes; the storage refuses A's older token whatever the order of moves (fencing-token-rejects-stale)"},
	{"redlock", "clock-jump", Fails, "mutual-exclusion", true,
		"when a split vote leaves A a bare majority, a jump of one of A's masters ends A's key there and B makes a majority with it (redlock-clock-jump)"},
	{"redlock", "restart", Fails, "mutual-exclusion", true,
		"the same with one of A's masters restarting empty (redlock-restart-empty)"},
	{"lua-compare-delete", "lost-reply", Holds, "", false,
		"a lost reply to SET NX makes A retry and find its own value held until the lease ends; a lost reply to the release leaves the key to expire; a lost reply never puts two clients inside (lua-cad-slow-release's release, safe)"},
	{"lua-compare-delete", "pause", Fails, "mutual-exclusion", false,
		"a pause inside the critical section outlasts the lease: B enters beside A; the script only protects the release (lease-pause-stale-write)"},
}

// Each cell of catalogCells, decided here by the card's own search.
func TestCellsTheCatalogTeaches(t *testing.T) {
	for _, tc := range catalogCells {
		t.Run(tc.lock+"/"+tc.column, func(t *testing.T) {
			if tc.slow && raceEnabled {
				t.Skip("a random search of Redlock; checked without -race")
			}
			row, c, err := ComputeCell(context.Background(), tc.lock, tc.column)
			if err != nil {
				t.Fatal(err)
			}
			if c.Kind != tc.kind || c.Verdict != tc.verdict {
				t.Fatalf("got %s %q (%s), want %s %q: %s", c.Kind, c.Verdict, c.Text(row).En, tc.kind, tc.verdict, tc.why)
			}
			switch c.Kind {
			case Fails:
				// The counterexample is a scenario that replays, through
				// the browser's own session, to the verdict.
				s, err := explore.Replay(c.Counterexample)
				if err != nil {
					t.Fatal(err)
				}
				defer s.Close()
				if got := s.Run().Verdicts(); !slices.Contains(got, tc.verdict) {
					t.Errorf("the counterexample replays to %v, want %s", got, tc.verdict)
				}
			case Holds:
				if !strings.Contains(c.Text(row).En, "within the bound") || c.Strategy != explore.Exhaustive {
					t.Errorf("a ✓ that does not state its bound, or not exhaustive: %q (%s)", c.Text(row).En, c.Strategy)
				}
			}
		})
	}
}

// The fencing lock's ✓ under the pause rests on what its storage does: the
// cell keeps a schedule where two clients were inside at once, and in its
// replay the storage refuses A's write with the older token.
func TestFencingCellShowsTheRefusedWrite(t *testing.T) {
	row, c, err := ComputeCell(context.Background(), "fencing-token", "pause")
	if err != nil {
		t.Fatal(err)
	}
	if c.Example == nil {
		t.Fatalf("no example of the refused write: %s", c.Text(row).En)
	}
	s, err := explore.Replay(c.Example)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var rejected, wrote []string
	for _, e := range s.Log() {
		if e.Kind == sim.KindMark && e.Name == MarkWriteRejected {
			rejected = append(rejected, e.Client)
		}
		if e.Kind == sim.KindMark && e.Name == "wrote" {
			wrote = append(wrote, e.Client)
		}
	}
	if len(rejected) != 1 || len(wrote) != 1 || rejected[0] == wrote[0] {
		t.Errorf("want one client's write accepted and the other's refused, got wrote %v, refused %v", wrote, rejected)
	}
	if v := s.Run().Verdicts(); slices.Contains(v, "stale-write") || !slices.Contains(v, "mutual-exclusion") {
		t.Errorf("the example ends %v: want two inside at once (mutual-exclusion) and no stale write", v)
	}
	if !strings.Contains(c.Text(row).En, "the storage refused the late write") {
		t.Errorf("the cell does not say the storage refused the write: %q", c.Text(row).En)
	}
	// The pause on A's enter mark alone lets B in beside A: the search's
	// moves, each at a step number, are not needed, and a real server,
	// whose steps are others, found A with no move to make at one of them.
	if len(c.Example.Schedule) != 0 {
		t.Errorf("the example keeps moves at step numbers it does not need: %+v", c.Example.Schedule)
	}
}

// The card the build carries (docs/choosing-a-lock.json, which
// TestChoosingALockDoc holds equal to what the code computes) says what
// the catalog teaches, every cell of catalogCells included: the two
// Redlock cells, which TestCellsTheCatalogTeaches searches only without
// the race detector, are checked here under it too, without a search.
func TestTheStoredCardTeachesTheCatalog(t *testing.T) {
	card, err := Decode(lockstep.Card)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range catalogCells {
		row, c := card.Find(tc.lock, tc.column)
		if c == nil {
			t.Errorf("%s/%s: not on the card", tc.lock, tc.column)
			continue
		}
		if c.Kind != tc.kind || c.Verdict != tc.verdict {
			t.Errorf("%s/%s: the stored card says %s %q (%s), want %s %q: %s", tc.lock, tc.column, c.Kind, c.Verdict, c.Text(row).En, tc.kind, tc.verdict, tc.why)
		}
		if c.Kind == Fails && c.Counterexample == nil {
			t.Errorf("%s/%s: a ✗ without its counterexample", tc.lock, tc.column)
		}
	}
}
