package report

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/lockstep/lockstep/internal/lock"
)

// Decode reads a whole card that Build made and encoding/json wrote: the
// build's own, docs/choosing-a-lock.json, which a test holds equal to
// what Build computes from this code (TestChoosingALockDoc), so that a
// server can answer with the card at once instead of computing it for
// every process. Its columns are taken from the code (a column's search
// settings are not written); a card whose columns or locks are not the
// code's, or with a cell not decided, is refused as not this build's.
func Decode(b []byte) (*Card, error) {
	var card Card
	if err := json.Unmarshal(b, &card); err != nil {
		return nil, fmt.Errorf("report: the stored card: %w", err)
	}
	if len(card.Columns) != len(Columns) {
		return nil, fmt.Errorf("report: the stored card has %d columns, the code %d", len(card.Columns), len(Columns))
	}
	for i, c := range card.Columns {
		if c.ID != Columns[i].ID || c.Title.En != Columns[i].Title.En || c.Title.Zh != Columns[i].Title.Zh || c.What.En != Columns[i].What.En || c.What.Zh != Columns[i].What.Zh {
			return nil, fmt.Errorf("report: the stored card's column %d is %q, the code's %q", i+1, c.ID, Columns[i].ID)
		}
	}
	card.Columns = slices.Clone(Columns)
	if len(card.Rows) != len(lock.Algorithms) {
		return nil, fmt.Errorf("report: the stored card has %d locks, the code %d", len(card.Rows), len(lock.Algorithms))
	}
	for i, r := range card.Rows {
		if r.Algorithm != lock.Algorithms[i].ID || r.Probe == nil || len(r.Cells) != len(Columns) {
			return nil, fmt.Errorf("report: the stored card's row %d (%s) is not the code's %s", i+1, r.Algorithm, lock.Algorithms[i].ID)
		}
		for j, c := range r.Cells {
			if c == nil || c.Column != Columns[j].ID || c.Kind == "" || c.Stopped {
				return nil, fmt.Errorf("report: the stored card's cell %s/%s is not decided", r.Algorithm, Columns[j].ID)
			}
		}
	}
	if err := checkLive(card.Live); err != nil {
		return nil, err
	}
	return &card, nil
}

// JSON is the card as Decode reads it back, indented (one field a line,
// so that a change to a cell reads as a small diff).
func (card *Card) JSON() ([]byte, error) {
	b, err := json.MarshalIndent(card, "", " ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
