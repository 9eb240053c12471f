package scenario

import (
	"fmt"
	"sort"
	"strings"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/sim"
)

// Error is one problem found in a scenario file, at a 1-based line and
// column, in English (Msg) and Chinese (Zh). It marshals to JSON as
// {file, line, col, message, zh} for the browser editor.
type Error struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
	Msg  string `json:"message"`
	Zh   string `json:"zh,omitempty"`
}

// Error formats the problem as FILE:LINE:COL: message.
func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

// Errors is every problem found in one file, in file order. Parse returns it
// as its error.
type Errors []*Error

// Error writes one problem per line.
func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap gives the single problems, for errors.Is and errors.As.
func (es Errors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// report collects problems for one file.
type report struct {
	file string
	errs []*Error
	seen map[string]bool // line:col:msg already reported
}

// add records a problem at a 1-based position, in both languages.
// Callers with no position (a problem of the whole file) give 1, 1.
func (r *report) add(line, col int, t sim.Text) {
	msg := t.En
	key := fmt.Sprintf("%d:%d:%s", line, col, msg)
	if r.seen == nil {
		r.seen = map[string]bool{}
	}
	if r.seen[key] {
		return
	}
	r.seen[key] = true
	r.errs = append(r.errs, &Error{File: r.file, Line: line, Col: col, Msg: msg, Zh: t.Zh})
}

// sorted gives the problems in file order (stable for equal positions).
func (r *report) sorted() []*Error {
	sort.SliceStable(r.errs, func(i, j int) bool {
		a, b := r.errs[i], r.errs[j]
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	return r.errs
}

// capped gives the first MaxReported problems in file order and, when there
// are more, one last problem that counts the rest: a file with thousands
// of mistakes answers with a page, not a megabyte.
func (r *report) capped() []*Error {
	errs := r.sorted()
	if len(errs) <= MaxReported {
		return errs
	}
	next := errs[MaxReported]
	out := append([]*Error(nil), errs[:MaxReported]...)
	more := fact.Say("scenario.more-problems", len(errs)-MaxReported, MaxReported)
	return append(out, &Error{File: r.file, Line: next.Line, Col: next.Col, Msg: more.En, Zh: more.Zh})
}
