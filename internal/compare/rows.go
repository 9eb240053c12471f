package compare

import (
	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/sim"
)

// Rows are the events of a log that a comparison lines up: all but the
// narration.
func Rows(log []*sim.Event) []*sim.Event {
	out := make([]*sim.Event, 0, len(log))
	for _, e := range log {
		if e.Kind != sim.KindSay {
			out = append(out, e)
		}
	}
	return out
}

// RowNumbers maps each row's sequence number to its row number, from 1.
func RowNumbers(rows []*sim.Event) map[int]int {
	out := make(map[int]int, len(rows))
	for i, e := range rows {
		out[e.Seq] = i + 1
	}
	return out
}

// Cite is t with each event it cites (its Cites: "B entered at #23") named
// by its row instead ("row 21" in English), as rowOf (RowNumbers) gives
// it; an event that is no row keeps its number.
func Cite(t sim.Text, rowOf map[int]int) sim.Text {
	return t.Cite(func(seq int) (string, string, bool) {
		n, ok := rowOf[seq]
		row := fact.Say("compare.row", n)
		return row.En, row.Zh, ok
	})
}

// Texts gives each row the text two rows are compared by (see RowText).
func Texts(rows []*sim.Event) []string {
	rowOf := RowNumbers(rows)
	out := make([]string, len(rows))
	for i, e := range rows {
		out[i] = RowText(e, rowOf)
	}
	return out
}

// RowText is the text two rows are compared by: the event's canonical line
// without its sequence number and the list of events it points at (Line),
// and with each event its note cites ("B entered at #23") named by its row
// ("row 21") as rowOf gives it (Cite): sequence numbers differ between two
// logs as soon as one has an event more (narration, say), rows do not.
func RowText(e *sim.Event, rowOf map[int]int) string {
	return e.Line(Cite(e.Note(), rowOf).En)
}

// divergeSides is the index of the first row where two sides differ, up
// to the order of rows at one instant. Clients that start or send at the
// same instant are ordered by the engine's tie-break and, on the right,
// by the left's winners first (race): that order alone says nothing about
// the locks, and a first difference marked at "start bob" against "start
// alice" would hide the one that does. So where both sides reach a
// virtual instant with the same rows so far, the rows of that instant are
// compared as a bag: the first difference is the first row of either side
// (by index) that the other side's rows of that instant lack. In that
// comparison a row's citations name the cited rows by what they say, not
// by number: "carol entered (row 102)" on one side is "(row 103)" on the
// other when the rows before it came in another order.
func divergeSides(l, r Side) int {
	a, b := l.Texts, r.Texts
	var ka, kb []string
	for i := 0; i < min(len(a), len(b)); {
		if a[i] == b[i] {
			i++
			continue
		}
		if l.Rows[i].T != r.Rows[i].T {
			return i
		}
		ga, ea := instant(l.Rows, i)
		gb, eb := instant(r.Rows, i)
		if ga != gb {
			return i
		}
		if ka == nil {
			ka, kb = bagKeys(l.Rows), bagKeys(r.Rows)
		}
		if d := lacking(ka[ga:ea], kb[gb:eb]); d >= 0 {
			return max(i, ga+d)
		}
		if ea != eb {
			return min(ea, eb)
		}
		i = ea
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

// bagKeys are the rows' texts with each citation of a row replaced by
// that row's own line (its note uncited).
func bagKeys(rows []*sim.Event) []string {
	bySeq := make(map[int]*sim.Event, len(rows))
	for _, e := range rows {
		bySeq[e.Seq] = e
	}
	out := make([]string, len(rows))
	for i, e := range rows {
		note := e.Note().Cite(func(seq int) (string, string, bool) {
			c, ok := bySeq[seq]
			if !ok {
				return "", "", false
			}
			line := "[" + c.Line(c.Note().En) + "]"
			return line, line, true
		})
		out[i] = e.Line(note.En)
	}
	return out
}

// instant is the run of rows at row i's virtual time: [from, to).
func instant(rows []*sim.Event, i int) (from, to int) {
	from, to = i, i+1
	for from > 0 && rows[from-1].T == rows[i].T {
		from--
	}
	for to < len(rows) && rows[to].T == rows[i].T {
		to++
	}
	return from, to
}

// lacking is the first index at which a row of a or of b is one the other
// lacks (counting repeats: a text twice in a and once in b is lacking the
// second time), or -1 when both hold the same texts as many times.
func lacking(a, b []string) int {
	first := func(x, y []string) int {
		n := map[string]int{}
		for _, t := range y {
			n[t]++
		}
		for i, t := range x {
			if n[t] == 0 {
				return i
			}
			n[t]--
		}
		return -1
	}
	da, db := first(a, b), first(b, a)
	switch {
	case da < 0:
		return db
	case db < 0:
		return da
	}
	return min(da, db)
}
