package compare

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/lockstep/lockstep/internal/check"
	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/lesson"
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
	Scenario *scenario.Scenario // what ran (the right side: as run, with the left's faults)
	Log      []*sim.Event       // every event, narration included
	Rows     []*sim.Event       // the events that are rows: the log without narration
	Verdicts []string           // the checker's verdicts at the end
	Texts    []string           // each row's text (RowText)
	At       []int              // each row's moment: the step of the left run a viewer has reached when it happened (see Result)
	// Sections are what each row did to who is inside a critical section,
	// as the side's checker holds it (check.SectionChange): the drawn
	// timelines draw the critical sections and their overlaps from these.
	Sections []check.SectionChange
}

// Result is two runs that faced the same faults, lined up row by row. A
// viewer stepping through the left run to its step n has reached, on the
// left, the rows of its first n steps; on the right, the same rows up to
// the divergence, then the rows that happened by the virtual time the
// left's step n ends at (with the same code on both sides, the rows of the
// same steps).
type Result struct {
	Left, Right Side
	// Faults are the faults the left took, each with how the right placed
	// it and where it landed there.
	Faults []Taken
	// Hand is the number of the left's moves made by hand (its recording's
	// step actions).
	Hand int
	// SameCode: both sides run the same code, so the right replays the
	// left's recording step for step.
	SameCode bool
	// Notes say in words (in every language) what the right could not
	// face as the left did: a fault with no equivalent point there, one it
	// refused, hand moves not carried over. With any, the right's verdict does not
	// answer the left's question, and the views say so beside it.
	Notes []sim.Text
	// Unplaced counts the notes about faults: those the right did not face
	// at their equivalent point (the others say what else differs).
	Unplaced int
	Diverge  int // the index in Rows of the first row that differs; -1: none
}

// Same reports whether the two runs are the same, row for row.
func (r *Result) Same() bool { return r.Diverge < 0 }

// Fair reports whether the right faced every fault the left did, each at
// its equivalent point, and took every step of the left's recording.
func (r *Result) Fair() bool { return r.Unplaced == 0 }

// Compare runs left from seed as it is (with its recorded schedule, if any)
// and right from the same seed with left's faults, each placed by meaning
// (see the package doc), and lines the two logs up. right is taken as it is
// given: its own faults, schedule and narration are replaced by the left's
// faults (build it with Against, or give any scenario with the same
// clients).
func Compare(left, right *scenario.Scenario, seed int64) (*Result, error) {
	return Within(left, right, seed, Bounds{})
}

// Bounds hold a comparison's two runs.
type Bounds struct {
	// MaxSteps caps each run's engine steps (0: the engine's own cap): a
	// side that would take more is an error (ErrTooLong), before the rest
	// of it is run.
	MaxSteps int
	// Yield, if set, is called every few engine steps of both runs (see
	// lesson.Config.Yield) with the runs the comparison holds so far: the
	// left's, then the left's and the right's. The caller may hand the CPU
	// to other work there, hold them to a memory budget, or stop the
	// comparison by returning an error, which Within returns.
	Yield func(runs []*lesson.Run) error
}

// Within is Compare held to b: each run to b.MaxSteps, both yielding to
// b.Yield.
func Within(left, right *scenario.Scenario, seed int64, b Bounds) (*Result, error) {
	if err := sameClients(left, right); err != nil {
		return nil, err
	}
	lrec, err := play(left, seed, b, nil, nil, nil)
	if err != nil {
		return nil, err
	}
	defer lrec.run.Close()
	leftLog := lrec.run.World.Log()
	res := &Result{Faults: lrec.taken, Hand: lrec.hand, SameCode: sameCode(left, right)}
	var under *scenario.Scenario
	var places []*Taken
	var prefer []string
	if res.SameCode {
		// Every step means the same on both sides: the left's recording
		// and faults are the right's, as they are.
		out := *right
		out.Faults, out.Schedule, out.Narration = faulty(left.Faults), left.Schedule, nil
		under = &out
		for i := range res.Faults {
			res.Faults[i].How, res.Faults[i].Right = Verbatim, res.Faults[i].Left
		}
	} else {
		under, places = translate(right, res.Faults)
		prefer = winners(leftLog)
	}
	rrec, err := play(under, seed, b, lrec.run, places, prefer)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", right.ID, err)
	}
	defer rrec.run.Close()
	rightLog := rrec.run.World.Log()
	moment := byTime(leftLog)
	if res.SameCode {
		moment = func(e *sim.Event) int { return e.Step }
	} else {
		landed(rightLog, res.Faults, leftLog)
		res.Notes = notes(res.Faults, res.Hand, right.ID, usedNodes(leftLog), usedNodes(rightLog))
		res.Unplaced = len(res.Notes)
	}
	res.Notes = append(res.Notes, dropped(left, under)...)
	if n, ok := unchecked(under, rightLog); ok {
		res.Notes = append(res.Notes, n)
	}
	res.Left = side(left, lrec.run, func(e *sim.Event) int { return e.Step })
	res.Right = side(under, rrec.run, moment)
	res.Diverge = divergeSides(res.Left, res.Right)
	// The rows before the divergence are the same rows: they happen at the
	// same moment on both sides. After it, the right's rows keep their
	// order (a row never comes before the one above it).
	same := len(res.Right.At)
	if res.Diverge >= 0 {
		same = res.Diverge
	}
	for i := range res.Right.At {
		switch {
		case i < same && i < len(res.Left.At):
			res.Right.At[i] = res.Left.At[i]
		case i > 0:
			res.Right.At[i] = max(res.Right.At[i], res.Right.At[i-1])
		}
	}
	return res, nil
}

// dropped are notes for the left's client parameters the right's clients
// do not take (the TTL of a lock with no expiry): the right runs with its
// own default there, which the reader should know before comparing the
// verdicts. One note per parameter and value. A lease carried under the
// right's own names (carry) is said too, with the names and values given.
func dropped(left, right *scenario.Scenario) []sim.Text {
	type pv struct{ key, val string }
	var order []pv
	who := map[pv][]string{}
	algo := map[pv]string{}
	for _, lc := range left.Clients {
		for _, rc := range right.Clients {
			if rc.Name != lc.Name || rc.Algorithm == lc.Algorithm {
				continue
			}
			var from map[string]any
			if ra, ok := right.Lookup(rc.Algorithm); ok {
				if given, f, ok := carry(left, lc, ra); ok && holds(rc.Params, given) {
					p := pv{"\x00" + said(f), said(given)}
					if who[p] == nil {
						order = append(order, p)
					}
					who[p], algo[p], from = append(who[p], lc.Name), rc.Algorithm, f
				}
			}
			for _, k := range slices.Sorted(maps.Keys(lc.Params)) {
				if _, ok := rc.Params[k]; ok || from[k] != nil {
					continue
				}
				p := pv{k, fmt.Sprint(lc.Params[k])}
				if who[p] == nil {
					order = append(order, p)
				}
				who[p], algo[p] = append(who[p], lc.Name), rc.Algorithm
			}
		}
	}
	var out []sim.Text
	for _, p := range order {
		names := listWords(strings.Join(who[p], ", "))
		if from, ok := strings.CutPrefix(p.key, "\x00"); ok {
			out = append(out, fact.Say("compare.note.carried-params", listWords(from), names, algo[p], listWords(p.val)))
			continue
		}
		out = append(out, fact.Say("compare.note.param-dropped", p.key, p.val, names, algo[p]))
	}
	return out
}

// listWords is a list said "a, b" as each language joins one: its ", "
// becomes the catalogue's list separator in each language.
func listWords(s string) sim.Text {
	sep := fact.Say("compare.list-separator")
	return sim.Text{En: strings.ReplaceAll(s, ", ", sep.En), Zh: strings.ReplaceAll(s, ", ", sep.Zh)}
}

// holds says whether params has every value of want.
func holds(params, want map[string]any) bool {
	for k, v := range want {
		got, ok := params[k]
		if !ok || fmt.Sprint(got) != fmt.Sprint(v) {
			return false
		}
	}
	return true
}

// said is params as "name: value, ...", the lease (ttl) first, then by
// name.
func said(params map[string]any) string {
	names := slices.Sorted(maps.Keys(params))
	if i := slices.Index(names, "ttl"); i > 0 {
		names = append(append([]string{"ttl"}, names[:i]...), names[i+1:]...)
	}
	parts := make([]string, 0, len(names))
	for _, k := range names {
		parts = append(parts, fmt.Sprintf("%s: %v", k, params[k]))
	}
	return strings.Join(parts, ", ")
}

// unchecked is a note when a side's lock hands out fencing tokens that
// nothing checks: its clients do not write to a storage that refuses an
// old token, so the tokens protect nothing there.
func unchecked(sc *scenario.Scenario, log []*sim.Event) (sim.Text, bool) {
	tokens := slices.ContainsFunc(log, func(e *sim.Event) bool { return e.Kind == sim.KindMark && e.Name == sim.MarkToken })
	writes := slices.ContainsFunc(sc.Clients, func(c scenario.Client) bool { return c.Task == "write" })
	if !tokens || writes && sc.Storage != nil && sc.Storage.Fencing {
		return sim.Text{}, false
	}
	return fact.Say("compare.note.unchecked-tokens"), true
}

func side(sc *scenario.Scenario, r *lesson.Run, moment func(*sim.Event) int) Side {
	log := slices.Clone(r.World.Log())
	rows := Rows(log)
	at := make([]int, len(rows))
	cs := make([]check.SectionChange, len(rows))
	for i, e := range rows {
		at[i] = moment(e)
		cs[i] = r.Checker.Sections(e.Seq)
	}
	return Side{Scenario: sc, Log: log, Rows: rows, Verdicts: r.Verdicts(), Texts: Texts(rows), At: at, Sections: cs}
}
