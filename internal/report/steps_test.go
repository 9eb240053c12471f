package report

import (
	"strings"
	"testing"

	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/sim"
)

// TestEveryLockShowsTheCodeThatRuns holds What to use instead's code to
// the catalog: every lock declares an acquire and a release (lock.Steps),
// each piece is in the source compiled into the program, and every
// command a run of the lock alone sends in its second acquire and its
// second release was sent from a declared piece of that step (a frame of
// its call stack is one). A lock that forgets its steps, names code that
// is not there, or sends from code the card would not show, fails here.
func TestEveryLockShowsTheCodeThatRuns(t *testing.T) {
	if len(lock.Algorithms) != 19 {
		t.Fatalf("expected the catalog's 19 locks, got %d", len(lock.Algorithms))
	}
	for _, a := range lock.Algorithms {
		st, ok := lock.StepsOf(a.ID)
		if !ok || len(st.Acquire) == 0 || len(st.Release) == 0 {
			t.Errorf("%s: declares no acquire or no release (lock.steps): %+v", a.ID, st)
			continue
		}
		code, err := CodeOf(nil, a.ID)
		if err != nil {
			t.Errorf("%s: %v", a.ID, err)
			continue
		}
		for _, s := range append(code.Acquire, code.Release...) {
			if strings.TrimSpace(s.Text) == "" || s.Line < 1 {
				t.Errorf("%s: %s shows nothing (line %d)", a.ID, s.File, s.Line)
			}
		}
		p, err := RunProbe(a)
		if err != nil {
			t.Fatalf("%s: %v", a.ID, err)
		}
		if p.Network && p.Locks && (len(p.AcquireSrc) == 0 || len(p.ReleaseSrc) == 0) {
			t.Errorf("%s: a lock over the network whose run shows no acquire or release sent (%d, %d)", a.ID, len(p.AcquireSrc), len(p.ReleaseSrc))
		}
		for _, c := range []struct {
			step   string
			pieces []lock.Piece
			sent   []string
			src    []*sim.Source
		}{{"acquire", st.Acquire, p.AcquireSent, p.AcquireSrc}, {"release", st.Release, p.ReleaseSent, p.ReleaseSrc}} {
			for i, src := range c.src {
				if src == nil && p.SQL {
					continue // the engine records no call site of an SQL statement
				}
				if !sentFrom(src, c.pieces) {
					t.Errorf("%s: its %s sent %s from %s, none of the code it declares (%v)", a.ID, c.step, c.sent[i], frames(src), c.pieces)
				}
			}
		}
	}
}

// sentFrom reports whether a frame of src is in one of pieces: the
// function itself, or a function literal within it (F.func1).
func sentFrom(src *sim.Source, pieces []lock.Piece) bool {
	if src == nil {
		return false
	}
	for _, s := range append([]sim.Site{src.Site}, src.Via...) {
		for _, p := range pieces {
			if p.Name != "" && s.File == p.File && (s.Func == p.Name || strings.HasPrefix(s.Func, p.Name+".func")) {
				return true
			}
		}
	}
	return false
}

// frames writes src's call sites for a failure's message.
func frames(src *sim.Source) string {
	if src == nil {
		return "nowhere traced"
	}
	var out []string
	for _, s := range append([]sim.Site{src.Site}, src.Via...) {
		out = append(out, s.File+":"+s.Func)
	}
	return strings.Join(out, " < ")
}
