package explore

import (
	"math/rand/v2"
	"sort"

	"github.com/lockstep/lockstep/internal/sim"
)

// firstDecider takes the first option everywhere: the clients in their
// order, no fault. It gives the neutral schedule.
type firstDecider struct{}

func (firstDecider) choose(*decision) int   { return 0 }
func (firstDecider) stepped(*sim.Move) bool { return true }

// planned is one budgeted fault a random schedule places at or after an
// engine step.
type planned struct {
	step   int
	budget int
	done   bool
}

// randomDecider is one schedule of the random walk or of PCT: moves are
// chosen uniformly (random) or by priority (PCT), and each budgeted fault
// is planned at a uniformly drawn step of the neutral schedule's length,
// placed on an actor of the first step from then on that has one, with a
// size drawn from the quarters of its max (shrinking then finds the
// smallest size that still breaks the lock).
type randomDecider struct {
	rng    *rand.Rand
	b      bounds
	plan   []planned
	pct    bool
	prio   map[string]int // PCT: client priority, higher moves first
	change []int          // PCT: the steps at which the mover's priority drops
	depth  int
}

// newRandomDecider draws one schedule's plan from rng. length is the
// neutral schedule's number of steps; clients the scenario's clients.
func newRandomDecider(rng *rand.Rand, b bounds, length int, clients []string, pct bool, depth int) *randomDecider {
	if length < 1 {
		length = 1
	}
	d := &randomDecider{rng: rng, b: b, pct: pct}
	for i, bu := range b.budget {
		for range bu.Count {
			d.plan = append(d.plan, planned{step: 1 + rng.IntN(length), budget: i})
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

func (d *randomDecider) stepped(*sim.Move) bool { return true }

func (d *randomDecider) choose(dc *decision) int {
	if dc.moves {
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
	for k := range d.plan {
		p := &d.plan[k]
		if p.done || p.step > dc.step {
			continue
		}
		var fit []int
		for i, o := range dc.opts {
			if i > 0 && o.budget == p.budget {
				fit = append(fit, i)
			}
		}
		if len(fit) == 0 {
			continue
		}
		p.done = true
		i := fit[d.rng.IntN(len(fit))]
		return i
	}
	return 0
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
