package report

import (
	"fmt"
	"io/fs"

	"github.com/lockstep/lockstep/internal/gosrc"
	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/scenario"
)

// Snippet is one piece of a lock's code as the card shows it: a Go
// function, a script, or a declared lock's step, with the file and line
// it starts at.
type Snippet struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Text string `json:"text"`
}

// StepCode is a lock's acquire and release as code, for What to use
// instead to set beside the user's: a catalog lock's as its Steps
// declare them (lock.StepsOf), read from the source compiled into the
// program; a lock the user's scenario declares as its own steps, as
// written.
type StepCode struct {
	Algorithm string    `json:"algorithm"`
	Acquire   []Snippet `json:"acquire"`
	Release   []Snippet `json:"release"`
}

// CodeOf is the acquire and release of lock id: the scenario's own lock
// of that name (sc may be nil), else the catalog's.
func CodeOf(sc *scenario.Scenario, id string) (*StepCode, error) {
	if sc != nil {
		if own, ok := sc.Own(id); ok {
			sp := own.Spec()
			at := func(step string) []Snippet {
				text, line := sp.StepCode(step)
				return []Snippet{{File: sp.File(), Line: line, Text: text}}
			}
			return &StepCode{Algorithm: id, Acquire: at("acquire"), Release: at("release")}, nil
		}
	}
	st, ok := lock.StepsOf(id)
	if !ok {
		return nil, fmt.Errorf("report: %s declares no acquire and release code (lock.Steps)", id)
	}
	out := &StepCode{Algorithm: id}
	var err error
	if out.Acquire, err = snippets(st.Acquire); err != nil {
		return nil, fmt.Errorf("report: %s's acquire: %w", id, err)
	}
	if out.Release, err = snippets(st.Release); err != nil {
		return nil, fmt.Errorf("report: %s's release: %w", id, err)
	}
	return out, nil
}

// snippets reads pieces from lock.Source.
func snippets(pieces []lock.Piece) ([]Snippet, error) {
	var out []Snippet
	for _, p := range pieces {
		b, err := fs.ReadFile(lock.Source(), p.File)
		if err != nil {
			return nil, err
		}
		if p.Name == "" {
			out = append(out, Snippet{File: p.File, Line: 1, Text: string(b)})
			continue
		}
		text, line, err := gosrc.Decl(p.File, b, p.Name)
		if err != nil {
			return nil, err
		}
		out = append(out, Snippet{File: p.File, Line: line, Text: text})
	}
	return out, nil
}

// stepCode gives the card the acquire and release of the user's first
// lock (its first row marked Yours) and of each alternative. A lock whose
// code cannot be read keeps none (TestEveryLockShowsTheCodeThatRuns holds
// every catalog lock to having it).
func (card *SetupCard) stepCode(sc *scenario.Scenario) {
	for _, r := range card.Rows {
		if r.Yours {
			card.Yours, _ = CodeOf(sc, r.Algorithm)
			break
		}
	}
	for i := range card.Instead {
		card.Instead[i].Code, _ = CodeOf(sc, card.Instead[i].Algorithm)
	}
}
