package server

import (
	"errors"

	"github.com/lockstep/lockstep/internal/compare"
	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// compareRows is the most rows a side may have to be sent to the page.
const compareRows = 5000

// compareRow is one row of a side as the page draws it: the row's text
// (compare.RowText), its actor, and the step of the session's run at which
// the row has happened (compare.Side.At).
type compareRow struct {
	At     int    `json:"at"`
	T      int64  `json:"t"`
	Kind   string `json:"kind"`
	Client string `json:"client,omitempty"`
	Node   string `json:"node,omitempty"`
	Text   string `json:"text"`
}

// compareSide is one side of a comparison on the wire.
type compareSide struct {
	ID       string       `json:"id"`
	Title    sim.Text     `json:"title"`
	Verdicts []*sim.Event `json:"verdicts"` // each verdict's first event, with its sentence in both languages
	Rows     []compareRow `json:"rows"`
	Void     int          `json:"void"`
}

// compareAnswer is the compare field of a compare message. With no With (no
// canonical pair and none named), it only lists what may be compared.
type compareAnswer struct {
	With       string       `json:"with,omitempty"`    // what the loaded run was compared with
	Partner    string       `json:"partner,omitempty"` // the canonical pair's other side, if any
	Algorithms []string     `json:"algorithms"`
	Seed       int64        `json:"seed"`
	Actions    int          `json:"actions"` // the recorded actions the left side replayed
	Moves      int          `json:"moves"`
	Diverge    int          `json:"diverge"` // the index of the first row that differs; -1: none
	Left       *compareSide `json:"left,omitempty"`
	Right      *compareSide `json:"right,omitempty"`
}

// compareRun compares the session's run (its scenario, seed and recorded
// actions, as the page shows it) with r.With: an algorithm swapped into
// its clients or a lesson with the same clients (docs/compare.md); with
// none, the canonical pair's other side. Both runs go to their end on
// embedded Redis, under the left's schedule, each within the session's
// step cap.
func (s *session) compareRun(r *Request) (*Message, error) {
	if s.srv.opts.Servers != nil {
		return nil, coded("compare-real", nil, "compare: runs side by side on embedded Redis only, not on real servers")
	}
	left := *s.ls.Scenario()
	left.Schedule = append([]scenario.Action(nil), s.ls.Actions()...)
	ans := compareAnswer{Algorithms: lock.IDs(), Seed: s.ls.Seed(), Actions: len(left.Schedule), Diverge: -1}
	ans.Partner, _ = compare.Partner(left.ID)
	with := r.With
	if with == "" && ans.Partner == "" {
		return &Message{Type: "compare", Compare: &ans}, nil
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
		return nil, coded("compare", map[string]any{"detail": err.Error()}, "%s", err.Error())
	}
	if err := s.srv.checkCaps(right); err != nil {
		return nil, err
	}
	if err := s.srv.checkBudget(right); err != nil {
		return nil, err
	}
	var res *compare.Result
	lim := s.srv.limits.MaxSteps
	s.bulkTurn(func() { res, err = compare.Within(&left, right, s.ls.Seed(), lim) })
	if errors.Is(err, compare.ErrTooLong) {
		return nil, coded("step-cap", map[string]any{"max": lim},
			"compare: the runs go past the session's cap of %d steps: compare them with visualizer compare", lim)
	}
	if err != nil {
		return nil, coded("compare", map[string]any{"detail": err.Error()}, "%s", err.Error())
	}
	if n := max(len(res.Left.Rows), len(res.Right.Rows)); n > compareRows {
		return nil, coded("compare-big", map[string]any{"n": n, "max": compareRows},
			"compare: the runs have %d rows, over the view's %d: compare them with visualizer compare", n, compareRows)
	}
	ans.With = with
	if with == "" {
		ans.With = ans.Partner
	}
	ans.Moves, ans.Diverge = res.Schedule.ClientMoves(), res.Diverge
	ans.Left, ans.Right = wireSide(res.Left), wireSide(res.Right)
	return &Message{Type: "compare", Compare: &ans}, nil
}

func wireSide(sd compare.Side) *compareSide {
	out := &compareSide{ID: sd.Scenario.ID, Title: sd.Scenario.Title, Void: sd.Void,
		Verdicts: []*sim.Event{}, Rows: make([]compareRow, len(sd.Rows))}
	// A verdict's sentence cites events by sequence number; the view
	// numbers rows, so it cites their rows.
	row := compare.RowNumbers(sd.Rows)
	seen := map[string]bool{}
	for i, e := range sd.Rows {
		out.Rows[i] = compareRow{At: sd.At[i], T: int64(e.T), Kind: string(e.Kind), Client: e.Client, Node: e.Node, Text: sd.Texts[i]}
		if e.Kind == sim.KindVerdict && !seen[e.Name] {
			seen[e.Name] = true
			v := *e
			v.Refs = nil
			if v.Say != nil {
				v.Say = &sim.Text{En: compare.Cite(v.Say.En, row, "row %d"), Zh: compare.Cite(v.Say.Zh, row, "第 %d 行")}
			}
			out.Verdicts = append(out.Verdicts, &v)
		}
	}
	return out
}
