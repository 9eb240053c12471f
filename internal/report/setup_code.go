package report

import (
	"io/fs"

	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/scenario"
)

// LockCode is a lock's code as a reader would copy it, for the card's
// export: a lock the user's scenario declares as its declaration
// (locks/NAME.yaml, its steps and scripts as written), a catalog lock as
// the Go file its acquire and release are in (lock.SourceOf), as
// compiled into the program.
type LockCode struct {
	Algorithm string `json:"algorithm"`
	File      string `json:"file"`
	Text      string `json:"text"`
}

// setupCode is the code the card's export shows: the user's locks and
// the first lock of What to use instead, in that order.
func setupCode(sc *scenario.Scenario, card *SetupCard) []LockCode {
	var out []LockCode
	add := func(id string) {
		for _, c := range out {
			if c.Algorithm == id {
				return
			}
		}
		if own, ok := sc.Own(id); ok {
			sp := own.Spec()
			out = append(out, LockCode{Algorithm: id, File: sp.File(), Text: sp.Code()})
			return
		}
		if f := lock.SourceOf(id); f != "" {
			if b, err := fs.ReadFile(lock.Source(), f); err == nil {
				out = append(out, LockCode{Algorithm: id, File: f, Text: string(b)})
			}
		}
	}
	for _, r := range card.Rows {
		if r.Yours {
			add(r.Algorithm)
		}
	}
	if len(card.Instead) > 0 {
		add(card.Instead[0].Algorithm)
	}
	return out
}
