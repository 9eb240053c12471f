package explore

import (
	"math"
	"math/rand/v2"
	"sort"

	"github.com/lockstep/lockstep/internal/sim"
)

// firstDecider takes the first option everywhere: the clients in their
// order, no fault. It gives the neutral schedule.
type firstDecider struct{}

func (firstDecider) choose(*decision) int   { return 0 }
func (firstDecider) stepped(*sim.Move) bool { return true }

// planned is one budgeted fault a random schedule places at the first
// decision point, at or after an engine step or a protocol moment, that
// offers a fault of its budget entry.
type planned struct {
	step   int // the engine step (when moment is 0)
	moment int // the protocol moment, counted from 1 (the start)
	budget int
	done   bool
}

// due reports whether the plan may be placed at decision d.
func (p *planned) due(d *decision) bool {
	if p.moment > 0 {
		return d.moments >= p.moment
	}
	return d.step >= p.step
}

// randomDecider is one schedule of the random walk or of PCT: moves are
// chosen uniformly (random) or by priority (PCT), and each budgeted fault
// is planned at a moment drawn from the neutral schedule (see plan), on a
// target and with a size drawn uniformly from those its decision point
// offers (the quarters of its max: shrinking then finds the smallest size
// that still breaks the lock).
type randomDecider struct {
	rng    *rand.Rand
	b      bounds
	plan   []planned
	pct    bool
	prio   map[string]int // PCT: client priority, higher moves first
	change []int          // PCT: the steps at which the mover's priority drops
	depth  int
}

// newRandomDecider draws one schedule's plan from rng. neutral is the
// neutral schedule's outcome (its length in steps and in protocol
// moments); clients the scenario's clients.
func newRandomDecider(rng *rand.Rand, b bounds, neutral *outcome, clients []string, pct bool, depth int) *randomDecider {
	length := max(neutral.steps, 1)
	d := &randomDecider{rng: rng, b: b, pct: pct}
	for i, bu := range b.budget {
		for range bu.Count {
			d.plan = append(d.plan, plan(rng, bu.Do, length, max(neutral.moments, 1), i))
		}
	}
	sort.SliceStable(d.plan, func(i, j int) bool { return d.plan[i].step < d.plan[j].step })
	if pct {
		if depth < 1 {
			depth = 1
		}
		d.depth = depth
		d.prio = map[string]int{}
		for i, k := range rng.Perm(len(clients)) {
			d.prio[clients[i]] = depth + k
		}
		for range depth - 1 {
			d.change = append(d.change, 1+rng.IntN(length))
		}
		sort.Ints(d.change)
	}
	return d
}

// plan draws where one fault of budget entry i goes, in a schedule whose
// neutral run has length steps and moments protocol moments. Three rules,
// equally likely: a step drawn uniformly; a step drawn log-uniformly (as
// likely among the first 10 steps as among the next 90: a run's protocol
// is densest at its beginning, its retries come later); or one of the
// protocol moments (the start, and every step where a client marked
// acquired, enter, leave...), drawn uniformly, which are where lesson
// authors place their faults. A partition (a link fault) goes to the start half the time:
// a cut link is mostly the network's shape, not a moment.
func plan(rng *rand.Rand, do string, length, moments, i int) planned {
	if action(do).Target == sim.TargetLink && rng.IntN(2) == 0 {
		return planned{step: 0, budget: i}
	}
	switch rng.IntN(3) {
	case 0:
		return planned{step: 1 + rng.IntN(length), budget: i}
	case 1:
		s := int(math.Exp(rng.Float64() * math.Log(float64(length)+1)))
		return planned{step: min(max(s, 1), length), budget: i}
	default:
		return planned{moment: 1 + rng.IntN(moments), budget: i}
	}
}

func (d *randomDecider) stepped(*sim.Move) bool { return true }

// stacks: every plan due at a point is placed there (each plan once, so
// the asking ends).
func (d *randomDecider) stacks() bool { return true }

func (d *randomDecider) choose(dc *decision) int {
	if dc.moves {
		return d.chooseMove(dc)
	}
	for k := range d.plan {
		p := &d.plan[k]
		if p.done || !p.due(dc) {
			continue
		}
		if i, ok := d.place(p, dc); ok {
			return i
		}
	}
	return 0
}

// chooseMove picks a move: at random, or, for PCT, the move of the client
// with the highest priority, lowering it at the plan's change points.
func (d *randomDecider) chooseMove(dc *decision) int {
	if !d.pct {
		return d.rng.IntN(len(dc.opts))
	}
	best := 0
	for i, o := range dc.opts {
		if d.prio[o.move.Client] > d.prio[dc.opts[best].move.Client] {
			best = i
		}
	}
	for len(d.change) > 0 && d.change[0] <= dc.step {
		d.change = d.change[1:]
		d.prio[dc.opts[best].move.Client] = len(d.change) + 1 // below every initial priority
	}
	return best
}

// place picks an option that places plan p's fault, if the decision has
// one, and marks the plan done.
func (d *randomDecider) place(p *planned, dc *decision) (int, bool) {
	var fit, near []int
	for i, o := range dc.opts {
		if i > 0 && o.budget == p.budget {
			fit = append(fit, i)
			if o.fault.Client != "" && containsStr(dc.actors, o.fault.Client) {
				near = append(near, i)
			}
		}
	}
	if len(fit) == 0 {
		return 0, false
	}
	p.done = true
	// Half the time a client fault hits a client that has just acted:
	// the one at the moment the plan chose.
	if len(near) > 0 && d.rng.IntN(2) == 0 {
		fit = near
	}
	return fit[d.rng.IntN(len(fit))], true
}

// frame is one decision point on the exhaustive search's current path.
type frame struct {
	moves    bool
	opts     []option
	sleepIn  []option // moves asleep on arrival (the same move explored in a sibling branch)
	explored []int    // options taken so far, the current one last
}

// current is the option taken at the frame.
func (f *frame) current() int { return f.explored[len(f.explored)-1] }

// asleep reports whether option i is in the frame's sleep set.
func (f *frame) asleep(i int) bool {
	if !f.moves {
		return false
	}
	for _, s := range f.sleepIn {
		if s.move.Client == f.opts[i].move.Client {
			return true
		}
	}
	return false
}

// dfsDecider replays the path of frames, then takes the first option not
// asleep at every new decision point, adding frames. Sleep sets (Godefroid
// 1996): after a move m is explored at a point, m sleeps in the branches
// of its later siblings for as long as the moves they take commute with
// it; a schedule that reaches a point where every move sleeps, or where
// the engine's only move sleeps, repeats one already covered and is
// abandoned. A step whose move is not known (an expiry, a world action)
// and any fault wake every sleeper: a conservative reading that keeps the
// reduction sound.
type dfsDecider struct {
	noSleep bool // visit every order, commuting or not (to test the reduction)
	path    []*frame
	depth   int
	sleep   []option
}

// stepped keeps the sleepers that commute with the move the engine took,
// and abandons the schedule if that move was asleep; a step whose move is
// not known wakes every sleeper.
func (d *dfsDecider) stepped(m *sim.Move) bool {
	if m == nil {
		d.sleep = d.sleep[:0]
		return true
	}
	next := d.sleep[:0]
	for _, s := range d.sleep {
		if s.move.Client == m.Client {
			return false
		}
		if s.move.Commutes(*m) {
			next = append(next, s)
		}
	}
	d.sleep = next
	return true
}

func (d *dfsDecider) choose(dc *decision) int {
	var f *frame
	if d.depth < len(d.path) {
		f = d.path[d.depth]
	} else {
		f = &frame{moves: dc.moves, opts: dc.opts}
		if dc.moves && !d.noSleep {
			f.sleepIn = append([]option(nil), d.sleep...)
		}
		first := -1
		for i := range dc.opts {
			if !f.asleep(i) {
				first = i
				break
			}
		}
		if first < 0 {
			return -1
		}
		f.explored = []int{first}
		d.path = append(d.path, f)
	}
	d.depth++
	c := f.current()
	if !dc.moves {
		if c > 0 {
			d.sleep = d.sleep[:0]
		}
		return c
	}
	if d.noSleep {
		return c
	}
	m := dc.opts[c].move
	next := d.sleep[:0:0]
	for _, s := range f.sleepIn {
		if s.move.Commutes(m) {
			next = append(next, s)
		}
	}
	for _, e := range f.explored[:len(f.explored)-1] {
		if s := f.opts[e]; s.move.Commutes(m) {
			next = append(next, s)
		}
	}
	d.sleep = next
	return c
}

// backtrack moves the path to the next unexplored branch: the deepest
// frame with an option neither taken nor asleep takes it, and the frames
// below it go. It returns false when every branch has been explored.
func (d *dfsDecider) backtrack() bool {
	for len(d.path) > 0 {
		f := d.path[len(d.path)-1]
		for i := range f.opts {
			if f.asleep(i) || containsInt(f.explored, i) {
				continue
			}
			f.explored = append(f.explored, i)
			d.depth, d.sleep = 0, nil
			return true
		}
		d.path = d.path[:len(d.path)-1]
	}
	return false
}

// truncate drops the frames past the depth the last schedule reached (it
// was abandoned there), so that backtracking resumes from its last frame.
func (d *dfsDecider) truncate() { d.path = d.path[:d.depth] }

func containsInt(list []int, x int) bool {
	for _, y := range list {
		if y == x {
			return true
		}
	}
	return false
}
