package report

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lockstep/lockstep/internal/scenario"
)

// sizeRange is the size a column's sized fault has, as its text states
// it: exactly its max for an exact column ("2× the lease (2s)"), else
// from a quarter of its max to its max ("100ms to 400ms later").
func sizeRange(col *Column) (do string, least, most time.Duration) {
	for _, b := range col.Budget {
		if b.Max > 0 {
			most = b.Max.D()
			least = most / 4
			if col.Exact {
				least = most
			}
			return b.Do, least, most
		}
	}
	return "", 0, 0
}

// Every sized column says its size in both languages, the size the
// search tries and the shrinking keeps.
func TestColumnsStateTheirSizes(t *testing.T) {
	for i := range Columns {
		col := &Columns[i]
		_, least, most := sizeRange(col)
		if most == 0 {
			continue
		}
		var en, zh string
		if least == most {
			en = fmt.Sprintf("(%s)", scenario.Duration(most))
			zh = fmt.Sprintf("（%d 秒）", most/time.Second)
		} else {
			en = fmt.Sprintf("%dms to %dms", least.Milliseconds(), most.Milliseconds())
			zh = fmt.Sprintf("%d 到 %d 毫秒", least.Milliseconds(), most.Milliseconds())
		}
		if !strings.Contains(col.What.En, en) || !strings.Contains(col.What.Zh, zh) {
			t.Errorf("%s says %q / %q: want %q / %q", col.ID, col.What.En, col.What.Zh, en, zh)
		}
	}
	// "Longer than the lease" in the pause column's title.
	if _, least, _ := sizeRange(mustColumn(t, "pause")); least <= Lease {
		t.Errorf("the pause column's pause %s is not longer than the lease %s", least, Lease)
	}
}

// Every ✗ of the card (docs/choosing-a-lock.yaml, which
// TestChoosingALockDoc keeps equal to the card) has a counterexample
// whose fault is the one its column defines: a pause of 2s where the
// column promises a pause of 2× the lease, a restart 100ms to 400ms later
// where it promises that. The shrinker may drop a fault's entries and
// the moves around it, not make the fault smaller than the column's.
func TestCounterexamplesKeepTheirColumnsSize(t *testing.T) {
	f, err := scenario.Load(filepath.Join("..", "..", "docs", "choosing-a-lock.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	sized := 0
	for _, sc := range f.Scenarios {
		id, ok := strings.CutSuffix(sc.ID, "-explored")
		if !ok {
			continue
		}
		var col *Column
		for i := range Columns {
			if strings.HasSuffix(id, "-"+Columns[i].ID) {
				col = &Columns[i]
			}
		}
		if col == nil {
			t.Errorf("%s: no column", sc.ID)
			continue
		}
		do, least, most := sizeRange(col)
		// the faults the shrink left at a step (schedule) and those it
		// recorded on an event (faults)
		faults := make([]*scenario.Fault, 0, len(sc.Schedule)+len(sc.Faults))
		for i := range sc.Schedule {
			faults = append(faults, &sc.Schedule[i].Fault)
		}
		for i := range sc.Faults {
			faults = append(faults, &sc.Faults[i])
		}
		for _, a := range faults {
			if a.Do == "" || a.Do == "step" { // a move the search ordered
				continue
			}
			if a.Do != do {
				if most > 0 {
					t.Errorf("%s: a %s in the %s column", sc.ID, a.Do, col.ID)
				}
				continue
			}
			sized++
			if d := a.Size().D(); d < least || d > most {
				t.Errorf("%s: %s of %s, but the column %q says %s to %s", sc.ID, a.Do, scenario.Duration(d), col.What.En,
					scenario.Duration(least), scenario.Duration(most))
			}
		}
	}
	if sized == 0 {
		t.Errorf("no sized fault in any counterexample: nothing checked")
	}
}

func mustColumn(t *testing.T, id string) *Column {
	t.Helper()
	c, ok := ColumnByID(id)
	if !ok {
		t.Fatalf("no column %s", id)
	}
	return c
}
