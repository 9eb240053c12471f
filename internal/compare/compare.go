package compare

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// Errors of a comparison's arguments.
var (
	ErrUnknown = errors.New("compare: unknown algorithm or scenario")
	ErrClients = errors.New("compare: the clients do not match")
	ErrNoPair  = errors.New("compare: no canonical pair")
	ErrTooLong = errors.New("compare: a run goes past the step cap")
)

// Side is one run of a comparison.
type Side struct {
	Scenario *scenario.Scenario // what ran (the right side: as run, under the left's schedule)
	Log      []*sim.Event       // every event, narration included
	Rows     []*sim.Event       // the events that are rows: the log without narration
	Verdicts []string           // the checker's verdicts at the end
	Void     int                // schedule entries that were no move on this side (0 on the left)
	Texts    []string           // each row's text (RowText)
	At       []int              // each row's moment in the schedule: the step of the left run it belongs to (see Result)
}

// Result is two runs under one schedule, lined up row by row. A viewer
// stepping through the left run to its step n has reached, on each side,
// the rows whose At is n or less: on the left the rows of its first n
// steps, on the right the rows its replay of those steps' entries made.
type Result struct {
	Left, Right Side
	Schedule    Schedule // the left run's moves and faults, which the right replayed
	Diverge     int      // the index in Rows of the first row that differs; -1: none
}

// Same reports whether the two runs are the same, row for row.
func (r *Result) Same() bool { return r.Diverge < 0 }

// Compare runs left from seed as it is (with its recorded schedule, if any)
// and right from the same seed under left's schedule, and lines the two
// logs up. right is taken as it is given: its faults, schedule and
// narration are replaced here by the left's schedule (build it with
// Against, or give any scenario with the same clients).
func Compare(left, right *scenario.Scenario, seed int64) (*Result, error) {
	return Within(left, right, seed, 0)
}

// Within is Compare with each run held to maxSteps engine steps (0: the
// engine's own cap): a side that would take more is an error (ErrTooLong),
// before the rest of it is run.
func Within(left, right *scenario.Scenario, seed int64, maxSteps int) (*Result, error) {
	if err := sameClients(left, right); err != nil {
		return nil, err
	}
	lr, sched, err := record(left, seed, maxSteps)
	if err != nil {
		return nil, err
	}
	defer lr.Close()
	under := underSchedule(left, right)
	rr, void, at, err := replay(under, seed, sched, maxSteps)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", right.ID, err)
	}
	defer rr.Close()
	res := &Result{Schedule: sched,
		Left:  side(left, lr, 0, func(e *sim.Event) int { return e.Step }),
		Right: side(under, rr, void, func(e *sim.Event) int { return at[e.Seq] }),
	}
	res.Diverge = Diverge(res.Left.Texts, res.Right.Texts)
	return res, nil
}

func side(sc *scenario.Scenario, r *lesson.Run, void int, moment func(*sim.Event) int) Side {
	log := slices.Clone(r.World.Log())
	rows := Rows(log)
	at := make([]int, len(rows))
	for i, e := range rows {
		at[i] = moment(e)
	}
	return Side{Scenario: sc, Log: log, Rows: rows, Verdicts: r.Verdicts(), Void: void, Texts: Texts(rows), At: at}
}

// underSchedule is right as it runs under left's schedule: its own faults,
// recorded schedule and narration give way to left's; left's at: faults
// are declared on both sides.
func underSchedule(left, right *scenario.Scenario) *scenario.Scenario {
	out := *right
	out.Faults, out.Schedule, out.Narration = nil, nil, nil
	for _, f := range left.Faults {
		if f.At != nil {
			out.Faults = append(out.Faults, f)
		}
	}
	return &out
}

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

// seqRef is an event's sequence number as a note cites it: "#12".
var seqRef = regexp.MustCompile(`#[0-9]+`)

// RowNumbers maps each row's sequence number to its row number, from 1.
func RowNumbers(rows []*sim.Event) map[int]int {
	out := make(map[int]int, len(rows))
	for i, e := range rows {
		out[e.Seq] = i + 1
	}
	return out
}

// Cite names each event s cites by its sequence number ("B entered at
// #23") by its row instead, written with format ("row %d"), as rowOf
// (RowNumbers) gives it; an event that is no row keeps its number.
func Cite(s string, rowOf map[int]int, format string) string {
	return seqRef.ReplaceAllStringFunc(s, func(ref string) string {
		if seq, err := strconv.Atoi(ref[1:]); err == nil {
			if n, ok := rowOf[seq]; ok {
				return fmt.Sprintf(format, n)
			}
		}
		return ref
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
// without its sequence number and the list of events it points at, and
// with each event its note cites ("B entered at #23") named by its row
// ("row 21") as rowOf gives it (Cite): sequence numbers differ between two
// logs as soon as one has an event more (narration, say), rows do not.
func RowText(e *sim.Event, rowOf map[int]int) string {
	s := e.String()
	if _, rest, ok := strings.Cut(s, " "); ok {
		s = rest
	}
	if len(e.Refs) > 0 {
		if i := strings.LastIndex(s, " ["); i >= 0 {
			s = s[:i]
		}
	}
	return Cite(s, rowOf, "row %d")
}

// Diverge is the index of the first row where two lists of row texts
// differ: the first whose texts differ, or the first that one side lacks.
// It is -1 when they are the same.
func Diverge(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

// Against gives the scenario to compare sc with. with names an algorithm
// (every client of sc runs it, keeping the parameters it accepts) or, when
// no algorithm has that id, a scenario among others with the same clients;
// empty, sc's canonical partner (Partner).
func Against(sc *scenario.Scenario, with string, others []scenario.Scenario) (*scenario.Scenario, error) {
	if with == "" {
		p, ok := Partner(sc.ID)
		if !ok {
			return nil, fmt.Errorf("%w for %s: name an algorithm or a scenario with the same clients to compare it with", ErrNoPair, sc.ID)
		}
		with = p
	}
	if algo, ok := lock.Lookup(with); ok {
		return withAlgorithm(sc, algo)
	}
	for i := range others {
		if others[i].ID == with {
			o := &others[i]
			if err := sameClients(sc, o); err != nil {
				return nil, err
			}
			return o, nil
		}
	}
	return nil, fmt.Errorf("%w %q: give an algorithm (%s) or a scenario id with the same clients as %s",
		ErrUnknown, with, strings.Join(lock.IDs(), ", "), sc.ID)
}

// withAlgorithm is sc with every client running algo. A parameter algo does
// not take is dropped; the rest are checked as algo's own.
func withAlgorithm(sc *scenario.Scenario, algo *lock.Info) (*scenario.Scenario, error) {
	out := *sc
	out.ID = sc.ID + "+" + algo.ID
	out.Title = sim.Text{En: sc.Title.En + " — with " + algo.ID, Zh: sc.Title.Zh + " —— 换成 " + algo.ID}
	out.Clients = slices.Clone(sc.Clients)
	for i := range out.Clients {
		c := &out.Clients[i]
		c.Algorithm = algo.ID
		kept := map[string]any{}
		for k, v := range c.Params {
			if _, ok := algo.Param(k); ok {
				kept[k] = v
			}
		}
		c.Params = kept
		if _, err := algo.Decode(c.Params); err != nil {
			return nil, fmt.Errorf("compare: client %s with %s: %w", c.Name, algo.ID, err)
		}
	}
	return &out, nil
}

// sameClients checks that two scenarios name the same clients.
func sameClients(a, b *scenario.Scenario) error {
	na, nb := clientNames(a), clientNames(b)
	if !slices.Equal(na, nb) {
		return fmt.Errorf("%w: %s has clients %s, %s has %s", ErrClients, a.ID, strings.Join(na, ", "), b.ID, strings.Join(nb, ", "))
	}
	return nil
}

func clientNames(sc *scenario.Scenario) []string {
	out := make([]string, len(sc.Clients))
	for i, c := range sc.Clients {
		out[i] = c.Name
	}
	slices.Sort(out)
	return out
}
