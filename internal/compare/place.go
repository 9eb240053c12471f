package compare

import (
	"fmt"
	"time"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// How says how the right run finds the point where the left took a fault.
type How string

// The ways a fault of the left is placed on the right (see the package doc).
const (
	// Verbatim: both sides run the same code, so the left's recording
	// (its faults and hand moves at their steps) is the right's too.
	Verbatim How = "same-code"
	// Instant: at the same virtual moment (an at: fault, or a fault on a
	// node or the network recorded at a step).
	Instant How = "instant"
	// Trigger: the left's own trigger, kept: it names a moment every
	// algorithm has (a client's mark, an expiry, another fault).
	Trigger How = "trigger"
	// AtPlace: at the same point of a client's progress (Place).
	AtPlace How = "place"
)

// Place is a point in a client's progress that means the same for every
// algorithm: right at the Nth time a thread of Client reports Mark (K 0),
// or at its K-th event of Kind after that mark and before its next one
// ("the first command A executes after it leaves its critical section":
// the first of its release). Mark "" counts from the thread's start.
type Place struct {
	Client, Thread string
	Mark           string
	Nth            int
	Kind           sim.Kind
	K              int
}

// progress follows each client thread's place as events come: its last
// mark, how many times it reported each mark, and its events of each kind
// since its last mark.
type progress struct {
	marks map[string]map[string]int   // thread key -> mark -> count
	last  map[string]string           // thread key -> last mark
	since map[string]map[sim.Kind]int // thread key -> kind -> count since the last mark
	at    map[string]Place            // thread key -> its place after its last event
	byCli map[string]Place            // client -> the place of its latest event (any thread)
}

func newProgress() *progress {
	return &progress{marks: map[string]map[string]int{}, last: map[string]string{},
		since: map[string]map[sim.Kind]int{}, at: map[string]Place{}, byCli: map[string]Place{}}
}

// placed reports whether an event is part of a client's progress: its
// moves and marks, not narration, verdicts or faults.
func placed(e *sim.Event) bool {
	switch e.Kind {
	case sim.KindStart, sim.KindSend, sim.KindExec, sim.KindReply, sim.KindLost, sim.KindTimeout, sim.KindMark, sim.KindDone:
		return e.Client != ""
	}
	return false
}

// see takes an event into account and returns the place it is (ok false
// for an event that is no client's progress).
func (p *progress) see(e *sim.Event) (Place, bool) {
	if !placed(e) {
		return Place{}, false
	}
	th := e.Thread
	if th == "" {
		th = "main"
	}
	key := e.Client + "/" + th
	var pl Place
	if e.Kind == sim.KindMark {
		if p.marks[key] == nil {
			p.marks[key] = map[string]int{}
		}
		p.marks[key][e.Name]++
		p.last[key] = e.Name
		p.since[key] = map[sim.Kind]int{}
		pl = Place{Client: e.Client, Thread: th, Mark: e.Name, Nth: p.marks[key][e.Name]}
	} else {
		if p.since[key] == nil {
			p.since[key] = map[sim.Kind]int{}
		}
		p.since[key][e.Kind]++
		m := p.last[key]
		pl = Place{Client: e.Client, Thread: th, Mark: m, Nth: p.marks[key][m], Kind: e.Kind, K: p.since[key][e.Kind]}
	}
	p.at[key], p.byCli[e.Client] = pl, pl
	return pl, true
}

// wire reports whether a trigger names a command or the wire (what two
// algorithms do differently), so that the right places it by its point in
// the client's progress rather than keeping it.
func wire(m *scenario.Match) bool {
	switch sim.Kind(m.Kind) {
	case sim.KindMark, sim.KindExpire, sim.KindFault, sim.KindStart, sim.KindDone:
		return m.Cmd != ""
	}
	return true
}

// Phrase says a place in words, in both languages: "as W1 enters its
// critical section (the 1st time)", "at A's 2nd command executed after it
// leaves its critical section".
func (p Place) Phrase() sim.Text {
	who := p.Client
	if p.Thread != "" && p.Thread != "main" {
		who += "/" + p.Thread
	}
	mark := sim.MarkPhrase(p.Mark, who)
	var nth sim.Text
	if p.Nth > 1 {
		nth = fact.Say("compare.place.nth", nthWords(p.Nth))
	}
	if p.K == 0 {
		return fact.Say("compare.place.at-mark", mark, nth)
	}
	k := kindWords(p.Kind)
	if p.Mark == "" {
		return fact.Say("compare.place.before-any-step", who, nthWords(p.K), k)
	}
	return fact.Say("compare.place.after-mark", who, nthWords(p.K), k, afterWords(p.Mark), nth)
}

// nthWords is a count as each language says which one: "2nd" in English,
// the bare number in Chinese, whose sentence puts its own word around it.
func nthWords(n int) sim.Text {
	return sim.Text{En: ordinal(n), Zh: fmt.Sprint(n)}
}

// afterWords says a mark as the moment after which a place counts: "it
// leaves its critical section".
func afterWords(name string) sim.Text {
	switch name {
	case sim.MarkEnter:
		return fact.Say("compare.after.enter")
	case sim.MarkAcquired:
		return fact.Say("compare.after.acquired")
	case sim.MarkLeave:
		return fact.Say("compare.after.leave")
	case sim.MarkReleased:
		return fact.Say("compare.after.released")
	}
	return fact.Say("compare.after.mark", name)
}

func kindWords(k sim.Kind) sim.Text {
	switch k {
	case sim.KindSend:
		return fact.Say("compare.kind.send")
	case sim.KindExec:
		return fact.Say("compare.kind.exec")
	case sim.KindReply:
		return fact.Say("compare.kind.reply")
	case sim.KindLost:
		return fact.Say("compare.kind.lost")
	case sim.KindTimeout:
		return fact.Say("compare.kind.timeout")
	case sim.KindStart:
		return fact.Say("compare.kind.start")
	case sim.KindDone:
		return fact.Say("compare.kind.done")
	}
	return sim.Text{En: string(k), Zh: string(k)}
}

func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprintf("%d%s", n, suffix)
}

// FaultWords names a fault in both languages: "pause W1 for 2s".
func FaultWords(f scenario.Fault) sim.Text {
	zh := sim.ZhName(f.Do)
	target := f.Client
	if f.Node != "" {
		if target != "" {
			target += "–" + f.Node
		} else {
			target = f.Node
		}
	}
	en, zt := f.Do+" "+target, target+" "+zh
	if d := f.Size().D(); d != 0 {
		en += " (" + sim.FormatTime(d) + ")"
		zt += "（" + sim.FormatTime(d) + "）"
	}
	return sim.Text{En: en, Zh: zt}
}

// instantWords says a virtual moment: "at 1.2s".
func instantWords(t time.Duration) sim.Text {
	return fact.Say("compare.at-instant", sim.FormatTime(t))
}
