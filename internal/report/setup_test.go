package report

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lockstep/lockstep/internal/explore"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// setupOf loads scenario id of a file and builds its card with small
// budgets: only the rows and columns named.
func setupOf(t *testing.T, path, id string, only, columns []string) *SetupCard {
	t.Helper()
	f, err := scenario.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	sc, ok := f.Find(id)
	if !ok {
		t.Fatalf("no scenario %s in %s", id, path)
	}
	card, err := BuildSetup(context.Background(), sc, SetupOptions{File: path, Workers: 2, Algorithms: only, Columns: columns,
		Steps: 4000, Random: 1000})
	if err != nil {
		t.Fatal(err)
	}
	return card
}

// expectCells holds each named cell to its kind and, for ✗, its verdict.
func expectCells(t *testing.T, card *SetupCard, want map[string]string) {
	t.Helper()
	for key, kind := range want {
		algorithm, column, _ := strings.Cut(key, "/")
		var got *Cell
		for _, r := range card.Rows {
			if r.Algorithm != algorithm {
				continue
			}
			for _, c := range r.Cells {
				if c.Column == column {
					got = c
				}
			}
		}
		if got == nil {
			t.Errorf("%s: no such cell", key)
			continue
		}
		k, verdict, _ := strings.Cut(kind, " ")
		if got.Kind != k || verdict != "" && got.Verdict != verdict {
			t.Errorf("%s: want %s, got %s %s (%s)", key, kind, got.Kind, got.Verdict, got.Text(nil).En)
		}
	}
}

// replays holds a ✗ cell's counterexample to the verdicts it expects.
func replays(t *testing.T, c *Cell) {
	t.Helper()
	rec := c.Counterexample
	if rec == nil {
		t.Fatalf("%s: no counterexample", c.Column)
	}
	s, err := explore.Replay(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := s.Run().Verdicts(); !slices.Equal(got, rec.Expect) || !slices.Contains(got, c.Verdict) {
		t.Errorf("%s replays to %v, expects %v, the cell says %s", rec.ID, got, rec.Expect, c.Verdict)
	}
	if len(rec.Locks) == 0 && strings.Contains(rec.ID, "plain-del") {
		t.Errorf("%s: the user's lock is not declared in its counterexample: it would not run on its own", rec.ID)
	}
}

// The blind-DEL lock of labs/your-lock.yaml in its own workload, where
// A works 1.5s under a 1s lease. Argued before it was run: under
// contention alone A is still inside when its key expires at 1s and B,
// retrying every 100ms, takes it: plain-del ✗ mutual-exclusion. The
// catalog's Lua compare-and-delete fails the same way: its release is
// safer, but the lease still ends in the middle of A's work. The
// watchdog renews the lease every ttl/3 while A works, so B waits: ✓.
// What to use instead is then the watchdog alone.
func TestSetupCardWorkLongerThanTheLease(t *testing.T) {
	card := setupOf(t, "../../labs/your-lock.yaml", "your-lock-unconditional-del",
		[]string{"lua-compare-delete", "watchdog"}, []string{"contention"})
	if !card.Rows[0].Yours || card.Rows[0].Algorithm != "plain-del" {
		t.Fatalf("the first row is %s (yours: %v), not the user's plain-del", card.Rows[0].Algorithm, card.Rows[0].Yours)
	}
	expectCells(t, card, map[string]string{
		"plain-del/contention":          Fails + " " + sim.VerdictMutualExclusion,
		"lua-compare-delete/contention": Fails + " " + sim.VerdictMutualExclusion,
		"watchdog/contention":           Holds,
	})
	replays(t, card.Rows[0].Cells[0])
	if len(card.Instead) != 1 || card.Instead[0].Algorithm != "watchdog" || !card.Instead[0].Everywhere {
		t.Errorf("what to use instead: want the watchdog alone, got %+v", card.Instead)
	}
	if card.Lease.D().String() != "1s" {
		t.Errorf("the setup's lease is %v, the lock declares ttl: 1s", card.Lease.D())
	}
}

// The same blind-DEL lock where the work fits the lease (2.5s under 3s;
// testdata/blind-del.yaml). Argued before it was run: under contention
// alone every lock here is ✓ (each worker waits its turn). A pause
// before the release breaks the blind DEL: B leaves at ~5.1s and stalls;
// its lease ends at ~5.6s and C takes the key at ~5.7s; B's DEL then
// deletes C's key: foreign-unlock. Lua compare-and-delete holds there
// (B's script finds C's token and deletes nothing), as do the watchdog
// (the same release) and the fencing token (judged at its storage: B had
// written before its stall). What to use instead: the two that need
// nothing beyond the node, one round trip each way, by catalog row
// (lua-compare-delete, then watchdog), then fencing-token, which needs a
// storage that checks its tokens.
func TestSetupCardBlindDelWithinItsLease(t *testing.T) {
	card := setupOf(t, "testdata/blind-del.yaml", "blind-del-fits-its-lease",
		[]string{"lua-compare-delete", "watchdog", "fencing-token"}, []string{"contention", "pause-release"})
	expectCells(t, card, map[string]string{
		"plain-del/contention":             Holds,
		"plain-del/pause-release":          Fails + " " + sim.VerdictForeignUnlock,
		"lua-compare-delete/contention":    Holds,
		"lua-compare-delete/pause-release": Holds,
	})
	replays(t, card.Rows[0].Cells[1])
	var got []string
	for _, a := range card.Instead {
		got = append(got, a.Algorithm)
	}
	if want := []string{"lua-compare-delete", "watchdog", "fencing-token"}; !slices.Equal(got, want) {
		t.Errorf("what to use instead: want %v, got %v", want, got)
	}
	d := card.Instead[0].Difference.En
	if !strings.Contains(d, "release sends EVALSHA where yours sends DEL") {
		t.Errorf("the difference from the user's code does not name the release: %s", d)
	}
	for _, lang := range []string{"en", "zh"} {
		text := card.Text(lang)
		if !strings.Contains(text, "lease 3s") && !strings.Contains(text, "租约 3s") {
			t.Errorf("%s: no ✓ states its bound (lease 3s) beside it:\n%s", lang, text)
		}
	}
}

// The ranking of What to use instead, on rows made by hand: a lock that
// fails a column comes after every lock that holds in all; among those,
// fewer needs beyond one node first, then fewer round trips, then more
// ✓; a row with an unsearched cell (?) is never proposed.
func TestInsteadRanking(t *testing.T) {
	row := func(id string, p Probe, kinds ...string) *Row {
		r := &Row{Algorithm: id, Probe: &p}
		for i, k := range kinds {
			r.Cells = append(r.Cells, &Cell{Column: Columns[i].ID, Kind: k})
		}
		return r
	}
	plain := Probe{Locks: true, Network: true, Acquire: 1, Release: 1}
	two := Probe{Locks: true, Network: true, Acquire: 1, Release: 2}
	fenced := Probe{Locks: true, Network: true, Acquire: 1, Release: 1, Tokens: true}
	mine := row("mine", plain, Fails, Fails)
	mine.Yours = true
	rows := []*Row{
		mine,
		row("fenced", fenced, Holds, Holds),
		row("two-trips", two, Holds, Holds),
		row("sampled", plain, Holds, NotFound),
		row("proven", plain, Holds, Holds),
		row("fails", plain, Holds, Fails),
		row("unsearched", plain, Holds, Unsearched),
	}
	var got []string
	for _, a := range Instead(rows) {
		got = append(got, a.Algorithm)
	}
	if want := []string{"proven", "sampled", "two-trips", "fenced"}; !slices.Equal(got, want) {
		t.Errorf("want %v, got %v", want, got)
	}
	// None holds everywhere: the closest, fewest failing columns first.
	rows = []*Row{mine, row("one", plain, Holds, Fails), row("both", plain, Fails, Fails), row("fenced-one", fenced, Fails, Holds)}
	got = nil
	for _, a := range Instead(rows) {
		got = append(got, a.Algorithm)
	}
	if want := []string{"one", "fenced-one", "both"}; !slices.Equal(got, want) {
		t.Errorf("closest: want %v, got %v", want, got)
	}
}

// A lock a column's fault could not be put on (n/a: an SQL lock under a
// node fault) is not proven there: it never holds "everywhere", and among
// the closest it comes before one that failed a column, and says so.
func TestInsteadNotApplicableComesLater(t *testing.T) {
	row := func(id string, kinds ...string) *Row {
		r := &Row{Algorithm: id, Probe: &Probe{Locks: true, Network: true, Acquire: 1, Release: 1}}
		for i, k := range kinds {
			r.Cells = append(r.Cells, &Cell{Column: Columns[i].ID, Kind: k})
		}
		return r
	}
	alts := Instead([]*Row{row("na", Holds, NA), row("held", Holds, Holds)})
	if len(alts) != 1 || alts[0].Algorithm != "held" {
		t.Errorf("want held alone (n/a is no proof); got %+v", alts)
	}
	alts = Instead([]*Row{row("na", Holds, NA), row("fails", Fails, Holds)})
	if len(alts) != 2 || alts[0].Algorithm != "na" || alts[0].Everywhere || len(alts[0].NA) != 1 {
		t.Errorf("want na among the closest with its n/a column, then fails; got %+v", alts)
	}
}

// A card whose time runs out returns at once with the cells it did not
// search marked ?, says so, and proposes nothing from them; a cancelled
// card likewise.
func TestSetupCardStopsAtItsLimit(t *testing.T) {
	f, err := scenario.Load("../../labs/your-lock.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sc, _ := f.Find("your-lock-get-compare-del")
	for name, opt := range map[string]SetupOptions{
		"limit":     {Workers: 1, Limit: time.Nanosecond},
		"cancelled": {Workers: 1},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		if name == "cancelled" {
			cancel()
		}
		opt.Algorithms, opt.Columns = []string{"lua-compare-delete"}, []string{"contention", "pause-release"}
		start := time.Now()
		card, err := BuildSetup(ctx, sc, opt)
		cancel()
		if card == nil || err == nil {
			t.Fatalf("%s: card %v, error %v: want the card and the context's error", name, card, err)
		}
		if d := time.Since(start); d > 20*time.Second {
			t.Errorf("%s: took %v after its end", name, d)
		}
		for _, r := range card.Rows {
			for _, c := range r.Cells {
				if c.Kind != Unsearched || c.Why == nil {
					t.Errorf("%s: %s/%s is %s, want unsearched with why", name, r.Algorithm, c.Column, c.Kind)
				}
			}
		}
		if card.Unsearched == nil || len(card.Instead) != 0 {
			t.Errorf("%s: the card's note %v, alternatives %+v: want the note and none", name, card.Unsearched, card.Instead)
		}
	}
}
