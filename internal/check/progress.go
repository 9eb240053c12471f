package check

import (
	"slices"
	"sort"
	"time"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/sim"
)

// progressRule: a lock must let someone in. A run in which no thread ever
// acquired a lock or entered a critical section, though a thread kept trying to take a lock
// for at least StarveAfter (its first try to its last), made no progress:
// every key it got it gave back, or it found others holding it (a WAIT
// that always times out, a Redlock that never reaches its quorum). A try
// is an exec of the thread's that made it a holder of a lock key, or that
// found one held by others (a refused attempt). A run with a deadlock or a
// starvation is not reported again: those name who blocks the progress.
type progressRule struct {
	dl      *deadlockRule
	st      *starvationRule
	entered bool
	tries   map[thread]*tries
}

// tries are a thread's tries to take a lock key: the first, the last and
// how many.
type tries struct {
	th           thread
	first, last  int
	firstT, ends time.Duration
	n            int
}

func newProgressRule(dl *deadlockRule, st *starvationRule) *progressRule {
	return &progressRule{dl: dl, st: st, tries: map[thread]*tries{}}
}

func (r *progressRule) observe(e *sim.Event, chs []change, m *model) []claimed {
	if e.Kind == sim.KindMark && (e.Name == sim.MarkEnter || e.Name == sim.MarkAcquired) {
		r.entered = true
	}
	if e.Kind != sim.KindExec || e.Client == "" {
		return nil
	}
	t := m.threadOf(e)
	if !slices.ContainsFunc(chs, func(ch change) bool {
		return m.locks[ch.slot.lock] && came(t, ch) || refused(t, ch.slot, m)
	}) {
		return nil
	}
	tr := r.tries[t]
	if tr == nil {
		tr = &tries{th: t, first: e.Seq, firstT: e.T}
		r.tries[t] = tr
	}
	tr.last, tr.ends = e.Seq, e.T
	tr.n++
	return nil
}

func (r *progressRule) finish(*model) []claimed {
	if r.entered || r.st.starved || len(r.dl.stuck) > 0 {
		return nil
	}
	var ts []*tries
	for _, tr := range r.tries {
		if tr.ends-tr.firstT >= StarveAfter {
			ts = append(ts, tr)
		}
	}
	if len(ts) == 0 {
		return nil
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i].first < ts[j].first })
	tr := ts[0]
	span := tr.ends - tr.firstT
	claims := []Claim{{Kind: ClaimNoEntry}, tr.th.claim(ClaimTried, Claim{At: tr.first, Until: tr.last, N: int64(tr.n)})}
	en := fact.Say("check.nobody-acquired-lock-or-entered", tr.th.who(), tr.n, fact.Seq(tr.first), fact.Seq(tr.last), sim.FormatTime(span)).En
	zh := fact.Say("check.nobody-acquired-lock-or-entered", tr.th.who(), tr.n, fact.Seq(tr.first), fact.Seq(tr.last), sim.FormatTime(span)).Zh
	return []claimed{verdict(NoProgress, []int{tr.first, tr.last}, en, zh, claims...)}
}
