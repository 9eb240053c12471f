package compare

// Side by side with a lesson that runs in real time on a live server
// (internal/live: etcd, ZooKeeper). Such a run cannot be replayed under
// another run's schedule, nor its faults moved to another run's
// equivalent points: its clients are not the engine's to hold. So a
// comparison with one lines up two runs as they are, each with the faults
// its own lesson declares, and says what can be compared: the verdicts,
// and whether each fault of the left met its like on the right at the
// same point of its client's progress (a pause as A enters beside a pause
// as A enters); not the milliseconds. Rows line up by the clients' marks,
// not by time: the live side's time is its server's wall clock, the
// other's the engine's virtual clock (or another server's).

import (
	"fmt"
	"github.com/lockstep/lockstep/internal/fact"
	"slices"

	"github.com/lockstep/lockstep/internal/check"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// Alike are lessons that teach the same workload under different locks:
// the same clients doing the same work, the same fault at the same point
// of the same client's progress (a pause as A enters, longer than its
// lease or session). Each set holds lessons of embedded Redis and of the
// live services; Like gives a lesson's others.
var Alike = [][]string{
	// A pauses inside, past its lease: the next holder enters beside it.
	{"etcd-pause-past-lease", "zookeeper-frozen-holder", "lease-pause-stale-write"},
	// The same pause, and the stale holder writes unchecked: it lands.
	{"etcd-plain-put", "zookeeper-frozen-holder", "lease-pause-stale-write"},
	// The same pause, and the store checks the holder's token: refused.
	{"etcd-guarded-write", "zookeeper-czxid-fencing", "fencing-token-rejects-stale"},
	// Two workers take turns, no fault.
	{"etcd-two-workers", "zookeeper-two-workers"},
}

// Like are the lessons alike to id (Alike), each once, in the order the
// sets give them; none when id is in no set.
func Like(id string) []string {
	var out []string
	for _, set := range Alike {
		if !slices.Contains(set, id) {
			continue
		}
		for _, o := range set {
			if o != id && !slices.Contains(out, o) {
				out = append(out, o)
			}
		}
	}
	return out
}

// Alone plays sc from seed to its end, as it is (its own faults, its
// recorded schedule), held to b: one side of a comparison with a run in
// real time. Each row's moment is its step, as the session counts them.
func Alone(sc *scenario.Scenario, seed int64, b Bounds) (Side, error) {
	rec, err := play(sc, seed, b, nil, nil, nil)
	if err != nil {
		return Side{}, err
	}
	defer rec.run.Close()
	return side(sc, rec.run, func(e *sim.Event) int { return e.Step }), nil
}

// Recorded is one side from a run's recorded log (a run in real time on a
// live server): each row's moment is its sequence number, which is how
// far a viewer of that log has stepped when it is shown; sections is who
// came into or left a critical section with an event (live.Run.Sections).
func Recorded(sc *scenario.Scenario, evs []sim.Event, sections func(seq int) check.SectionChange) Side {
	log := make([]*sim.Event, len(evs))
	for i := range evs {
		e := evs[i]
		log[i] = &e
	}
	rows := Rows(log)
	at := make([]int, len(rows))
	cs := make([]check.SectionChange, len(rows))
	var verdicts []string
	for i, e := range rows {
		at[i], cs[i] = e.Seq, sections(e.Seq)
		if e.Kind == sim.KindVerdict && !slices.Contains(verdicts, e.Name) {
			verdicts = append(verdicts, e.Name)
		}
	}
	return Side{Scenario: sc, Log: log, Rows: rows, Verdicts: verdicts, Texts: Texts(rows), At: at, Sections: cs}
}

// Met is a fault one side took, said in words, where it took it (the
// point of its client's progress), and whether the other side took a
// fault of the same kind on the same client at the same point.
type Met struct {
	Fault, Where sim.Text
	Placed       bool
}

// Beside lines up two runs that each ran as they are (one of them, or
// both, in real time): the right's rows are reached when the left
// reaches the mark they lead up to (the same client's same mark, the same
// time), the rows after the last such mark when the left ends. It gives
// the left's faults, each with whether the right met it alike, and sets
// Diverge.
func Beside(left, right Side) (Result, []Met) {
	res := Result{Left: left, Right: right}
	res.Right.At = slices.Clone(right.At)
	byMark := map[markAt]int{}
	seen := map[markAt]int{}
	for i, e := range left.Rows {
		if p, ok := markOf(e, seen); ok {
			byMark[p] = left.At[i]
		}
	}
	end := 0
	if n := len(left.At); n > 0 {
		end = left.At[n-1]
	}
	clear(seen)
	marks := make([]int, len(right.Rows)) // the left's moment of each right row's own mark; -1: none
	for i, e := range right.Rows {
		marks[i] = -1
		if p, ok := markOf(e, seen); ok {
			if at, ok := byMark[p]; ok {
				marks[i] = at
			}
		}
	}
	next := end
	for i := len(right.Rows) - 1; i >= 0; i-- {
		if marks[i] >= 0 {
			next = min(marks[i], next)
		}
		res.Right.At[i] = next
	}
	for i := 1; i < len(res.Right.At); i++ {
		res.Right.At[i] = max(res.Right.At[i], res.Right.At[i-1])
	}
	res.Diverge = divergeSides(res.Left, res.Right)
	lf, rf := faultsAt(left.Rows), faultsAt(right.Rows)
	met := make([]Met, 0, len(lf))
	for _, f := range lf {
		met = append(met, Met{Fault: f.words, Where: f.place.Phrase(), Placed: slices.ContainsFunc(rf, func(o takenAt) bool {
			return o.kind == f.kind && o.place == f.place
		})})
	}
	for _, m := range met {
		if !m.Placed {
			res.Unplaced++
		}
	}
	return res, met
}

// markAt is a client's n-th report of one mark.
type markAt struct {
	client, mark string
	nth          int
}

// lockSteps are the marks every lock reports, whatever its service: a
// run's progress is counted in these (a fencing token, a read or a write
// is a mark of some locks or tasks only).
var lockSteps = []string{sim.MarkAcquired, sim.MarkEnter, sim.MarkLeave, sim.MarkReleased}

// markOf is e's place in its client's progress when e is one of the
// lockSteps, counted in seen.
func markOf(e *sim.Event, seen map[markAt]int) (markAt, bool) {
	if e.Kind != sim.KindMark || e.Client == "" || !slices.Contains(lockSteps, e.Name) {
		return markAt{}, false
	}
	key := markAt{client: e.Client, mark: e.Name}
	seen[key]++
	key.nth = seen[key]
	return key, true
}

// takenAt is a fault a side took after its client's latest mark.
type takenAt struct {
	kind  string
	words sim.Text
	place Place
}

// faultsAt are the faults among rows that start one (not a resume or a
// heal), each at its client's latest mark before it.
func faultsAt(rows []*sim.Event) []takenAt {
	seen := map[markAt]int{}
	last := map[string]markAt{}
	var out []takenAt
	for _, e := range rows {
		if p, ok := markOf(e, seen); ok {
			last[e.Client] = p
			continue
		}
		if e.Kind != sim.KindFault || !e.Applied() || e.Name == sim.ResumeEvent || e.Name == string(sim.FaultHeal) {
			continue
		}
		words := sim.Text{En: fmt.Sprintf("%s %s", e.Name, e.Client), Zh: fmt.Sprintf("%s %s", e.Client, sim.ZhName(e.Name))}
		if e.Fact != nil {
			words = e.Words()
		}
		p := last[e.Client]
		out = append(out, takenAt{kind: e.Name, words: words, place: Place{Client: e.Client, Mark: p.mark, Nth: p.nth}})
	}
	return out
}

// RealTime says what a comparison with a run on a live server can
// compare, in both languages: service names that side's server ("etcd"),
// side which side it is ("left", "right"). A side in real time is the
// log its run recorded: the same schedule gives the same verdict, not the
// same milliseconds.
func RealTime(service, side string) sim.Text {
	which := fact.Say("compare.the-left")
	if side == "right" {
		which = fact.Say("compare.the-right")
	}
	return fact.Say("compare.ran-in-real-time", which, service)
}

// ByMarks says how the rows of a comparison with a run in real time line
// up, in both languages.
func ByMarks() sim.Text {
	return fact.Say("compare.rows-line-up-by-marks")
}
