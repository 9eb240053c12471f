package sim

import "time"

// itemKind says what a scheduled item does when its time comes.
type itemKind uint8

const (
	itemStart   itemKind = iota // a thread starts running
	itemWake                    // a sleeping (or paused) thread continues
	itemExec                    // a request reaches its node (node side)
	itemReply                   // a reply reaches its client
	itemTimeout                 // a client gives up on a request
	itemWorld                   // a world action: a timed fault, a resume, a restart
)

// item is one pending event of the world.
type item struct {
	t     time.Duration
	order uint64 // insertion order, to keep the heap stable
	kind  itemKind
	th    *thread  // the thread that acts (client-side items) or that sent req
	req   *request // for exec, reply and timeout
	fn    func()   // for itemWorld
	label string   // for itemWorld: what the action is
	timed bool     // for itemWorld: a fault the scenario set at a time (World.At)
}

// clientSide reports whether the item happens in a client process, and so
// waits while the process is paused and vanishes when it crashes.
func (it *item) clientSide() bool {
	return it.kind != itemExec && it.kind != itemWorld
}

// queue is a binary min-heap of items ordered by time, then insertion.
type queue struct {
	items []*item
	next  uint64
}

func (q *queue) less(i, j int) bool {
	a, b := q.items[i], q.items[j]
	if a.t != b.t {
		return a.t < b.t
	}
	return a.order < b.order
}

func (q *queue) len() int { return len(q.items) }

func (q *queue) push(it *item) {
	q.next++
	it.order = q.next
	q.items = append(q.items, it)
	q.up(len(q.items) - 1)
}

// repush puts back an item taken out without changing its place in line.
func (q *queue) repush(it *item) {
	q.items = append(q.items, it)
	q.up(len(q.items) - 1)
}

func (q *queue) peek() *item {
	if len(q.items) == 0 {
		return nil
	}
	return q.items[0]
}

func (q *queue) pop() *item {
	n := len(q.items) - 1
	q.items[0], q.items[n] = q.items[n], q.items[0]
	it := q.items[n]
	q.items[n] = nil
	q.items = q.items[:n]
	if n > 0 {
		q.down(0)
	}
	return it
}

// earliest is the first in line of the items match accepts (by time, then
// insertion), or nil when there is none.
func (q *queue) earliest(match func(*item) bool) *item {
	var best *item
	for _, it := range q.items {
		if match(it) && (best == nil || it.t < best.t || it.t == best.t && it.order < best.order) {
			best = it
		}
	}
	return best
}

// remove takes out every item for which drop returns true, in queue order.
func (q *queue) remove(drop func(*item) bool) []*item {
	var out, keep []*item
	for _, it := range q.items {
		if drop(it) {
			out = append(out, it)
		} else {
			keep = append(keep, it)
		}
	}
	if len(out) == 0 {
		return nil
	}
	q.items = keep
	for i := len(q.items)/2 - 1; i >= 0; i-- {
		q.down(i)
	}
	sortItems(out)
	return out
}

func sortItems(its []*item) {
	for i := 1; i < len(its); i++ {
		for j := i; j > 0 && (its[j].t < its[j-1].t || its[j].t == its[j-1].t && its[j].order < its[j-1].order); j-- {
			its[j], its[j-1] = its[j-1], its[j]
		}
	}
}

func (q *queue) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !q.less(i, p) {
			return
		}
		q.items[i], q.items[p] = q.items[p], q.items[i]
		i = p
	}
}

func (q *queue) down(i int) {
	n := len(q.items)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && q.less(r, l) {
			m = r
		}
		if !q.less(m, i) {
			return
		}
		q.items[i], q.items[m] = q.items[m], q.items[i]
		i = m
	}
}
