package server

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/lockstep/lockstep/internal/compare"
	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// compareRows is the most rows a side may have to be sent to the page.
const compareRows = 5000

// compareTime is the most a comparison may take on the server, its waits
// for the engine's slots included.
const compareTime = 10 * time.Second

// compareRow is one row of a side as the page draws it: the event, as the
// main timeline gets it (wireEvent), numbered by its row (Seq is the row's
// number from 1; Req and Refs name rows too), with the row's text
// (compare.RowText, the canonical line rows are compared by) and the step
// of the session's run at which the row has happened (compare.Side.At).
// The page draws each side with the main timeline's renderer.
type compareRow struct {
	wireEvent
	At int `json:"at"`
}

// compareSide is one side of a comparison on the wire.
type compareSide struct {
	ID       string       `json:"id"`
	Title    sim.Text     `json:"title"`
	Verdicts []wireEvent  `json:"verdicts"` // each verdict's first event, with its sentence in both languages
	Rows     []compareRow `json:"rows"`
}

// compareFault is a fault the left took, as the page says it: what, where
// the right placed it (in words), how, and whether the right got there.
type compareFault struct {
	Fault  sim.Text `json:"fault"`
	Where  sim.Text `json:"where"`
	How    string   `json:"how"`
	Placed bool     `json:"placed"`
}

// compareAnswer is the compare field of a compare message. With no With (no
// canonical pair and none named), it only lists what may be compared.
type compareAnswer struct {
	With       string          `json:"with,omitempty"`    // what the loaded run was compared with
	Partner    string          `json:"partner,omitempty"` // the canonical pair's other side, if any
	Algorithms []string        `json:"algorithms"`
	Groups     []compare.Group `json:"groups"` // the algorithms by family, for the picker
	Seed       int64           `json:"seed"`
	Actions    int             `json:"actions"` // the recorded actions the left side replayed
	Moves      int             `json:"moves"`   // the left's moves made by hand
	Faults     []compareFault  `json:"faults"`
	Notes      []sim.Text      `json:"notes"`   // what the right could not face as the left did (compare.Result.Notes)
	Fair       bool            `json:"fair"`    // every fault placed at its equivalent point (compare.Result.Fair)
	Diverge    int             `json:"diverge"` // the index of the first row that differs; -1: none
	// Alike are the lessons that teach the left's workload under other
	// locks, live ones among them (compare.Like); Live says what a
	// comparison with a run in real time can compare (comparelive.go).
	Alike []string     `json:"alike,omitempty"`
	Live  []sim.Text   `json:"live,omitempty"`
	Left  *compareSide `json:"left,omitempty"`
	Right *compareSide `json:"right,omitempty"`
}

// compareRun compares the session's run (its scenario, seed and recorded
// actions, as the page shows it) with r.With: an algorithm swapped into
// its clients or a lesson with the same clients (docs/compare.md); with
// none, the canonical pair's other side. Both runs go to their end on
// embedded Redis, under the left's schedule, each within the session's
// step cap. A student who follows a class holds no world: the run
// compared is the class's, as she is shown it (the two runs are made
// afresh either way).
func (s *session) compareRun(r *Request) (*Message, error) {
	if s.srv.opts.Servers != nil {
		return nil, coded("compare-real", nil, "compare: runs side by side on embedded Redis only, not on real servers")
	}
	left, seed := s.compareLeft()
	ans := compareAnswer{Algorithms: left.AlgorithmIDs(), Groups: compare.Groups(), Seed: seed, Actions: len(left.Schedule), Diverge: -1}
	ans.Partner, _ = compare.Partner(left.ID)
	ans.Alike = compare.Like(left.ID)
	with := r.With
	if with == "" && ans.Partner == "" {
		return &Message{Type: "compare", Compare: &ans}, nil
	}
	if ll, ok := s.srv.lives[with]; ok { // a lesson in real time on a live server
		return s.compareWithLive(ans, &left, seed, ll)
	}
	var others []scenario.Scenario
	if s.srv.opts.Catalog != nil {
		others = append(others, s.srv.opts.Catalog.Scenarios...)
	}
	if s.srv.opts.Labs != nil {
		others = append(others, s.srv.opts.Labs.Scenarios...)
	}
	right, err := compare.Against(&left, with, others)
	if err != nil {
		return nil, compareError(err, left.ID, with)
	}
	if err := s.srv.checkCaps(right); err != nil {
		return nil, err
	}
	if err := s.srv.checkBudget(right); err != nil {
		return nil, err
	}
	lim := s.srv.limits.MaxSteps
	res, err := s.compareSliced(&left, right, seed, lim)
	var ce *codedError
	if errors.As(err, &ce) {
		return nil, err
	}
	if errors.Is(err, compare.ErrTooLong) {
		return nil, coded("step-cap", map[string]any{"max": lim},
			"compare: the runs go past the session's cap of %d steps: compare them with visualizer compare", lim)
	}
	if err != nil {
		return nil, compareError(err, left.ID, with)
	}
	if n := max(len(res.Left.Rows), len(res.Right.Rows)); n > compareRows {
		return nil, coded("compare-big", map[string]any{"n": n, "max": compareRows},
			"compare: the runs have %d rows, over the view's %d: compare them with visualizer compare", n, compareRows)
	}
	ans.With = with
	if with == "" {
		ans.With = ans.Partner
	}
	ans.Moves, ans.Diverge, ans.Fair, ans.Notes = res.Hand, res.Diverge, res.Fair(), res.Notes
	if ans.Notes == nil {
		ans.Notes = []sim.Text{}
	}
	ans.Faults = []compareFault{}
	for _, t := range res.Faults {
		ans.Faults = append(ans.Faults, compareFault{Fault: compare.FaultWords(t.Fault), Where: t.Where(), How: string(t.How), Placed: t.Right >= 0})
	}
	if !s.hold.bulkTurnUnless(s.quit, func() { ans.Left, ans.Right = wireSide(res.Left), wireSide(res.Right) }) {
		return nil, errEnded()
	}
	return &Message{Type: "compare", Compare: &ans}, nil
}

// compareLeft is the run a comparison's left side replays: the session's
// own, or the class's run it is shown without holding it; its scenario
// with the run's recorded actions as its schedule, and its seed.
func (s *session) compareLeft() (scenario.Scenario, int64) {
	if s.ls == nil {
		left := *s.shown.Scenario
		left.Schedule = slices.Clone(s.shown.Actions)
		return left, s.shown.Seed
	}
	left := *s.ls.Scenario()
	left.Schedule = append([]scenario.Action(nil), s.ls.Actions()...)
	return left, s.ls.Seed()
}

// compareSliced compares left with right as long work, as a search runs:
// holding a bulk slot and an engine slot for slices of at most sliceTime
// (slicer), so that other sessions' requests wait a slice at most, not a
// pair of runs. It stops between slices at compareTime, when the session
// ends, or when its runs would hold more than a session's memory budget;
// what they hold counts in the server's total meanwhile.
func (s *session) compareSliced(left, right *scenario.Scenario, seed int64, lim int) (*compare.Result, error) {
	var res *compare.Result
	err := s.sliced(func(b compare.Bounds) error {
		var err error
		b.MaxSteps = lim
		res, err = compare.Within(left, right, seed, b)
		return err
	})
	return res, err
}

// sliced runs f, a comparison's engine work, as compareSliced says: its
// bounds yield to the slicer and hold its runs to the memory budget.
func (s *session) sliced(f func(compare.Bounds) error) error {
	ctx, cancel := s.workContext(compareTime)
	defer cancel()
	sl := &slicer{srv: s.srv, ctx: ctx}
	defer sl.release()
	held := &workCost{srv: s.srv}
	defer held.set(0)
	err := f(compare.Bounds{Yield: func(runs []*lesson.Run) error {
		if err := held.check(runs); err != nil {
			return err
		}
		return sl.yield()
	}})
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.DeadlineExceeded):
		return coded("compare-time", map[string]any{"max": int(compareTime / time.Second)},
			"compare: the runs took more than %d s on this server (busy, or long runs): try again shortly, or compare them with visualizer compare", int(compareTime/time.Second))
	case errors.Is(err, context.Canceled):
		return coded("evicted", nil, "this session ended while comparing: reload the page")
	}
	return err
}

// compareError is why two runs cannot be compared, as a code the page
// says: an unknown algorithm or scenario, no canonical pair, clients that
// differ, or another error in its words.
func compareError(err error, id, with string) error {
	switch {
	case errors.Is(err, compare.ErrUnknown):
		return coded("compare-unknown", map[string]any{"with": with}, "%s", err.Error())
	case errors.Is(err, compare.ErrNoPair):
		return coded("compare-no-pair", map[string]any{"id": id}, "%s", err.Error())
	case errors.Is(err, compare.ErrClients):
		return coded("compare-clients", map[string]any{"id": id, "with": with}, "%s", err.Error())
	}
	return coded("compare", map[string]any{"detail": fact.Error(err).Render()}, "%s", err.Error())
}

func wireSide(sd compare.Side) *compareSide {
	out := &compareSide{ID: sd.Scenario.ID, Title: sd.Scenario.Title,
		Verdicts: []wireEvent{}, Rows: make([]compareRow, len(sd.Rows))}
	// A verdict's sentence cites events by sequence number; the view
	// numbers rows, so it cites their rows.
	row := compare.RowNumbers(sd.Rows)
	seen := map[string]bool{}
	for i, e := range sd.Rows {
		ev := *e
		ev.Seq, ev.Req, ev.Refs = row[e.Seq], row[e.Req], nil
		for _, ref := range e.Refs {
			if n, ok := row[ref]; ok {
				ev.Refs = append(ev.Refs, n)
			}
		}
		if e.Kind == sim.KindVerdict && e.Say != nil {
			say := compare.Cite(*e.Say, row)
			ev.Say = &say
		}
		out.Rows[i] = compareRow{wireEvent: toWire(&ev), At: sd.At[i]}
		out.Rows[i].Text = sd.Texts[i]
		if e.Fact != nil {
			note := compare.Cite(e.Words(), row)
			out.Rows[i].Note = &note
		}
		if i < len(sd.Sections) && (sd.Sections[i].Enter != nil || sd.Sections[i].Leave != nil) {
			out.Rows[i].Sections = &sd.Sections[i]
		}
		if e.Kind == sim.KindVerdict && !seen[e.Name] {
			seen[e.Name] = true
			v := *e
			v.Refs = nil
			if v.Say != nil {
				say := compare.Cite(*v.Say, row)
				v.Say = &say
			}
			wv := toWire(&v)
			wv.Text, wv.Note = "", nil
			out.Verdicts = append(out.Verdicts, wv)
		}
	}
	return out
}
