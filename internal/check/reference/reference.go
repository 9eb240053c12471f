package reference

import (
	"strconv"
	"strings"
	"time"

	"github.com/lockstep/lockstep/internal/check"
	"github.com/lockstep/lockstep/internal/sim"
)

// Verdict is one verdict the spec defines: its name, the events that prove
// it (sorted, each once) and the seq of the event right after which it is
// reported (0 for a verdict reported at the horizon).
type Verdict struct {
	Name  string
	Refs  []int
	After int
}

// String is the verdict as name[#refs]@after, for test messages.
func (v Verdict) String() string {
	var b strings.Builder
	b.WriteString(v.Name + "[")
	for i, r := range v.Refs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString("#" + strconv.Itoa(r))
	}
	b.WriteString("]")
	if v.After > 0 {
		b.WriteString("@#" + strconv.Itoa(v.After))
	} else {
		b.WriteString("@end")
	}
	return b.String()
}

// The verdict names of docs/verdicts.md, spelt here once more on purpose:
// the reference shares only Options with the production checker.
const (
	mutualExclusion = "mutual-exclusion"
	foreignUnlock   = "foreign-unlock"
	deadlock        = "deadlock"
	starvation      = "starvation"
	staleWrite      = "stale-write"
	noProgress      = "no-progress"
	oversell        = "oversell"
	lostUpdate      = "lost-update"
	safe            = "safe"
)

// starveAfter is how long a thread must have found its lock held by others.
const starveAfter = 10 * time.Second

// Check replays a finished log and returns the verdicts docs/verdicts.md
// defines, in the order they are reported. Verdict and say events in the
// log are ignored (their seqs still count: refs are seqs of log).
func Check(log []sim.Event, opt check.Options) []Verdict {
	m := newModel(opt)
	for i := range log {
		e := &log[i]
		if e.Kind == sim.KindVerdict || e.Kind == sim.KindSay {
			continue
		}
		m.event(e)
	}
	return append(m.found, m.horizon()...)
}
