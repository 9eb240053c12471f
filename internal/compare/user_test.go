package compare

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// testdata/three-buyers.yaml was not tuned to the comparison (visualizer
// compare's tests read it too): three clients with the GET-then-DEL lock
// (1s TTL, 900ms of work) and a 500ms pause of A at 800ms, in the middle
// of its work.
//
// Worked out before running: A takes the lock at once and reads the stock;
// the pause at 800ms holds A's wake-up (due at ~903ms) until 1.3s; A's
// lease ends at ~1.001s, and B or C, retrying every 100ms, takes the lock
// and reads the stock A has not written yet. A wakes inside with the other,
// both write the same stock: mutual-exclusion and lost-update, on both
// sides, for the pause is a lease problem no release can fix. A then
// releases first (the other works until ~1.9s): on the left GET lock finds
// another's value and deletes nothing; on the right the script refuses. So
// the verdicts agree and the runs part at A's release: GET vs EVALSHA.
func TestUserScenarioThreeClientsPause(t *testing.T) {
	f, err := scenario.Load("testdata/three-buyers.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sc := &f.Scenarios[0]
	res := compareWith(t, f, sc, "lua-compare-delete")
	want := []string{"lost-update", "mutual-exclusion"}
	if !slices.Equal(sorted(res.Left.Verdicts), want) || !slices.Equal(sorted(res.Right.Verdicts), want) {
		t.Errorf("verdicts: left %v, right %v, want %v on both", res.Left.Verdicts, res.Right.Verdicts, want)
	}
	if res.Same() {
		t.Fatal("the two runs are the same, want them to part at A's release")
	}
	l, r := res.Left.Texts[res.Diverge], res.Right.Texts[res.Diverge]
	if !strings.HasSuffix(l, "send A -> redis: GET lock") || !strings.Contains(r, "send A -> redis: EVALSHA compare_and_delete.lua") {
		t.Errorf("row %d:\n left: %s\nright: %s\nwant A's GET lock against A's script", res.Diverge+1, l, r)
	}
	if len(res.Faults) != 1 || res.Faults[0].How != Instant || !res.Fair() {
		t.Fatalf("faults %+v, notes %v: want A's pause at its instant on both sides", res.Faults, res.Notes)
	}
}

// recorded is a run saved from the page: B made the first move by hand and
// a pause of A was injected at step 6; a trigger fires in a step of the
// world's own (a pause of B when A's lock expires).
const recorded = `scenarios:
  - id: recorded
    title: {en: "A recording", zh: "一段录制"}
    seed: 3
    horizon: 20s
    data: {stock: "10"}
    clients:
      - {name: A, algorithm: owner-check-get-del, params: {ttl: 1s, retry: 200ms}, work: 1500ms}
      - {name: B, algorithm: owner-check-get-del, params: {ttl: 1s, retry: 200ms}, work: 300ms}
    faults:
      - {on: {kind: expire, key: lock}, do: pause, client: B, for: 700ms}
    schedule:
      - {step: 0, do: step, client: B}
      - {step: 6, do: pause, client: A, for: 400ms}
    expect: [safe]
`

// A recording replays on both sides: compared with itself it is the same,
// every hand move and fault in its place (the fault of the world's step
// included); compared with Lua, the left is the recording as the page
// replays it, the recorded pause of A lands at A's point of progress when
// it was injected, the expiry's trigger is kept, and B's hand move, which
// has no equivalent in other code, is said in a note (B still starts
// first: B took the lock first on the left, so B wins the race at 0s).
func TestRecordingsReplay(t *testing.T) {
	f, err := scenario.Parse("recorded.yaml", []byte(recorded))
	if err != nil {
		t.Fatal(err)
	}
	sc := &f.Scenarios[0]
	same, err := Compare(sc, sc, sc.Seed)
	if err != nil {
		t.Fatal(err)
	}
	if !same.Same() {
		d := same.Diverge
		t.Fatalf("the recording against itself parts at row %d: %q vs %q", d+1, same.Left.Texts[d], same.Right.Texts[d])
	}
	pauses := 0
	for _, tx := range same.Right.Texts {
		if strings.Contains(tx, " fault ") && strings.Contains(tx, "pause --") {
			pauses++
		}
	}
	if pauses != 2 {
		t.Errorf("want both pauses (the recorded one and the expiry's) on the right, got %d", pauses)
	}
	res := compareWith(t, f, sc, "lua-compare-delete")
	if got := res.Right.Texts[1]; !strings.HasSuffix(got, "start B") {
		t.Errorf("row 2 on the right is %q, want B's start", got)
	}
	if res.Hand != 1 || len(res.Notes) != 1 || !strings.Contains(res.Notes[0].En, "The left's move made by hand is not carried over") {
		t.Errorf("hand %d, notes %v", res.Hand, res.Notes)
	}
	hows := map[How]int{}
	for _, f := range res.Faults {
		hows[f.How]++
	}
	if hows[AtPlace] != 1 || hows[Trigger] != 1 {
		t.Errorf("faults %+v: want the recorded pause at a place and the expiry's trigger kept", res.Faults)
	}
}

// A verdict's sentence cites events by sequence number, and carries those
// citations as data: each verdict row's text names the events it cites by
// their rows, where the sentence cites them, and no sequence number is
// left.
func TestVerdictRowsCiteRows(t *testing.T) {
	f, err := scenario.Load("testdata/three-buyers.yaml")
	if err != nil {
		t.Fatal(err)
	}
	res := compareWith(t, f, &f.Scenarios[0], "lua-compare-delete")
	n := 0
	for _, sd := range []Side{res.Left, res.Right} {
		rowOf := RowNumbers(sd.Rows)
		for i, e := range sd.Rows {
			if e.Kind != sim.KindVerdict || e.Say == nil {
				continue
			}
			for _, c := range e.Say.Cites {
				n++
				if want := fmt.Sprintf("row %d", rowOf[c.Seq]); !c.Zh && !strings.Contains(sd.Texts[i], want) {
					t.Errorf("%s's verdict cites #%d, its row text does not say %q: %s", sd.Scenario.ID, c.Seq, want, sd.Texts[i])
				}
			}
			if strings.Contains(sd.Texts[i], "#") {
				t.Errorf("%s's verdict row keeps a sequence number: %s", sd.Scenario.ID, sd.Texts[i])
			}
		}
	}
	if n == 0 {
		t.Fatal("no verdict cites an event: the test checks nothing")
	}
}

// A row's text names by row only the events its note cites: a value that
// reads like a citation ("#2") is a value, and stays as it is.
func TestRowTextCitesOnlyWhatTheNoteCites(t *testing.T) {
	rows := []*sim.Event{
		{Seq: 2, Kind: sim.KindStart, Client: "A"},
		{Seq: 5, Kind: sim.KindExec, Client: "A", Node: "redis", Cmd: []string{"SET", "lock", "#2"}, Reply: "OK",
			Keys: []sim.KeyState{{Key: "lock", Type: "string", Value: "#2", TTL: -1}}},
	}
	say := fact.Cited(fmt.Sprintf("A started at #%d", fact.Seq(2)), fmt.Sprintf("A 在 #%d 启动", fact.Seq(2)))
	rows = append(rows, &sim.Event{Seq: 9, Kind: sim.KindVerdict, Name: "safe", Say: &say, Refs: []int{2}})
	got := Texts(rows)
	if !strings.Contains(got[1], `SET lock "#2"`) && !strings.Contains(got[1], "SET lock #2") {
		t.Errorf("the exec's row text is %q: its value was taken for a citation", got[1])
	}
	if !strings.HasSuffix(got[2], "-- A started at row 1") {
		t.Errorf("the verdict's row text is %q, want it to cite row 1", got[2])
	}
	if c := Cite(say, RowNumbers(rows)); c.Zh != "A 在 第 1 行 启动" {
		t.Errorf("Zh = %q", c.Zh)
	}
}
