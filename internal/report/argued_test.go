package report

import (
	"context"
	"slices"
	"testing"

	"github.com/lockstep/lockstep/internal/explore"
)

// arguedCells are cells the card once got wrong, each with the verdict
// argued from the lock's code and the column's rule before the search
// ran. kind NotFound here means "not Fails": the search may cover every
// schedule (✓) or only sample them (~), and neither may break the lock.
var arguedCells = []struct {
	lock, column  string
	kind, verdict string
	why           string
}{
	{"setnx-then-expire", "crash", Fails, "deadlock",
		"the column crashes a client at its lock's flaw point too, right after its SETNX ran and before its EXPIRE: " +
			"the key has no TTL, the card's clients run without 003's repair, the other client retries until the horizon " +
			"and nobody will ever free it: deadlock (the one flaw this lock is known for, which a crash at acquired or enter, after the EXPIRE, never tries)"},
	{"setnx-getset-timestamp", "crash", Holds, "",
		"the lease is the value, now + 1s: if the first holder crashes, the other client (retrying every 100ms, its " +
			"acquire timeout 10s past the horizon) reads the stamp, waits for it to pass and takes the key over with GETSET; " +
			"if the second crashes after the first is done, its stamp passes 1s later and any client that comes takes it over " +
			"by design: a lease in the value is no deadlock, as a TTL is none. A crashed holder sends nothing, so nobody " +
			"is inside beside it and no stale DEL frees another's lock: every schedule is safe, and two clients with one " +
			"crash have few enough for the exhaustive search to cover them all"},
	{"setnx-getset-timestamp", "partition", NotFound, "",
		"a client cut off before it acquires never gets the lock (its requests time out) while the other takes it and " +
			"releases it; one cut off while it holds works 500ms, under its 1s stamp, and its DEL is refused, not late: " +
			"the stamp stays and passes, and the other takes it over (no deadlock, the lease is the value); one whose SETNX " +
			"ran but whose reply was cut never enters. No partition puts two inside or makes a DEL land late: safe"},
	{"setnx-getset-timestamp", "failover", Fails, "mutual-exclusion",
		"the replica is 200ms behind: a failover within 200ms of A's SETNX promotes a replica without A's key, B's SETNX " +
			"on the new master succeeds while A works its 500ms: two inside at once. (The deadlock the card once reported " +
			"was a stale stamp left on the promoted replica, which the next client takes over)"},
}

// Each cell of arguedCells, decided by the card's own search; a ✗ replays
// to its verdict.
func TestArguedCells(t *testing.T) {
	for _, tc := range arguedCells {
		t.Run(tc.lock+"/"+tc.column, func(t *testing.T) {
			row, c, err := ComputeCell(context.Background(), tc.lock, tc.column)
			if err != nil {
				t.Fatal(err)
			}
			ok := c.Kind == tc.kind && c.Verdict == tc.verdict
			if tc.kind == NotFound {
				ok = c.Kind == NotFound || c.Kind == Holds
			}
			if !ok {
				t.Fatalf("got %s %q (%s), want %s %q: %s", c.Kind, c.Verdict, c.Text(row).En, tc.kind, tc.verdict, tc.why)
			}
			if c.Kind != Fails {
				return
			}
			s, err := explore.Replay(c.Counterexample)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if got := s.Run().Verdicts(); !slices.Contains(got, tc.verdict) {
				t.Errorf("the counterexample replays to %v, want %s", got, tc.verdict)
			}
		})
	}
}
