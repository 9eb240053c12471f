package check

import (
	"fmt"
	"strconv"

	"github.com/lockstep/lockstep/internal/sim"
)

// Verdict names.
const (
	MutualExclusion = "mutual-exclusion"
	Oversell        = "oversell"
	LostUpdate      = "lost-update"
	ForeignUnlock   = "foreign-unlock"
	Safe            = "safe"
)

// Options say what the checker watches.
type Options struct {
	StockKey string // the stock counter's key; "" checks no stock
}

// Checker is an incremental invariant checker: feed it every event with
// Observe, then call Finish once the run is over.
type Checker struct {
	opt      Options
	inside   []entry // clients in the critical section, in order of entry
	initial  int
	hasStock bool
	stock    *sim.KeyState
	deducts  []int
	locks    map[string]sim.KeyState // node/key -> last state of keys that had an owner
	found    []string
	finished bool
}

type entry struct {
	client string
	seq    int
}

// New makes a checker.
func New(opt Options) *Checker {
	return &Checker{opt: opt, locks: map[string]sim.KeyState{}}
}

// Verdicts are the verdict names found so far, in order of discovery; after
// Finish, "safe" when nothing was found.
func (c *Checker) Verdicts() []string { return c.found }

func (c *Checker) add(name string) {
	for _, f := range c.found {
		if f == name {
			return
		}
	}
	c.found = append(c.found, name)
}

func verdict(name string, refs []int, en, zh string) sim.Event {
	return sim.Event{Kind: sim.KindVerdict, Name: name, Refs: refs, Say: &sim.Text{En: en, Zh: zh}}
}

// Observe reads one event and returns the violations it reveals, as
// verdict events to be logged right after it.
func (c *Checker) Observe(e *sim.Event) []sim.Event {
	var out []sim.Event
	switch e.Kind {
	case sim.KindInit:
		for _, k := range e.Keys {
			if k.Key == c.opt.StockKey && c.opt.StockKey != "" {
				if n, err := strconv.Atoi(k.Value); err == nil {
					c.initial, c.hasStock = n, true
				}
			}
			c.track(e.Node, k)
		}
	case sim.KindMark:
		switch e.Name {
		case "enter":
			for _, in := range c.inside {
				if in.client != e.Client {
					c.add(MutualExclusion)
					out = append(out, verdict(MutualExclusion, []int{in.seq, e.Seq},
						fmt.Sprintf("%s entered the critical section (#%d) while %s, who entered at #%d, was still inside.", e.Client, e.Seq, in.client, in.seq),
						fmt.Sprintf("%s 进入临界区（#%d）时，%s（#%d 进入）仍在临界区内：互斥被打破。", e.Client, e.Seq, in.client, in.seq)))
					break
				}
			}
			c.inside = append(c.inside, entry{e.Client, e.Seq})
		case "leave":
			c.leave(e.Client)
		case "deduct":
			c.deducts = append(c.deducts, e.Seq)
		}
	case sim.KindFault:
		if e.Name == string(sim.FaultCrash) {
			c.leave(e.Client)
		}
	case sim.KindDone:
		if e.Thread == "main" {
			c.leave(e.Client)
		}
	case sim.KindExec:
		for _, k := range e.Keys {
			if k.Key == c.opt.StockKey && c.opt.StockKey != "" {
				ks := k
				c.stock = &ks
			}
			id := e.Node + "/" + k.Key
			if prev, ok := c.locks[id]; ok && prev.Owner != "" && prev.Owner != e.Client && !k.Exists() {
				c.add(ForeignUnlock)
				out = append(out, verdict(ForeignUnlock, []int{e.Seq},
					fmt.Sprintf("%s's %s at #%d deleted %s, which held %s's lock, not %s's.", e.Client, e.Cmd[0], e.Seq, k.Key, prev.Owner, e.Client),
					fmt.Sprintf("%s 在 #%d 的 %s 删除了 %s，而那是 %s 的锁，不是 %s 自己的。", e.Client, e.Seq, e.Cmd[0], k.Key, prev.Owner, e.Client)))
			}
			c.track(e.Node, k)
		}
	case sim.KindExpire:
		for _, k := range e.Keys {
			c.track(e.Node, k)
		}
	}
	return out
}

func (c *Checker) track(node string, k sim.KeyState) {
	id := node + "/" + k.Key
	if !k.Exists() {
		delete(c.locks, id)
		return
	}
	c.locks[id] = k
}

func (c *Checker) leave(client string) {
	for i, in := range c.inside {
		if in.client == client {
			c.inside = append(c.inside[:i], c.inside[i+1:]...)
			return
		}
	}
}

// Finish checks the end state and returns the final verdict events: the
// stock invariant, then "safe" if nothing was found at all.
func (c *Checker) Finish() []sim.Event {
	if c.finished {
		return nil
	}
	c.finished = true
	var out []sim.Event
	if c.hasStock && c.stock != nil {
		final, err := strconv.Atoi(c.stock.Value)
		n := len(c.deducts)
		if err == nil {
			switch {
			case n > c.initial || final < 0:
				c.add(Oversell)
				out = append(out, verdict(Oversell, c.deducts,
					fmt.Sprintf("%d buyers were each told they got one of %d items; the stock now reads %d.", n, c.initial, final),
					fmt.Sprintf("库存只有 %d 件，却有 %d 个买家扣减成功；库存现在显示 %d：超卖。", c.initial, n, final)))
			case final != c.initial-n:
				c.add(LostUpdate)
				out = append(out, verdict(LostUpdate, c.deducts,
					fmt.Sprintf("%d deductions from %d should leave %d, but the stock reads %d: an update was lost.", n, c.initial, c.initial-n, final),
					fmt.Sprintf("从 %d 扣减 %d 次应剩 %d，库存却是 %d：有更新丢失。", c.initial, n, c.initial-n, final)))
			}
		}
	}
	if len(c.found) == 0 {
		c.add(Safe)
		out = append(out, verdict(Safe, nil,
			"No invariant was broken within the horizon.",
			"在观察时间内没有任何不变量被打破：安全。"))
	}
	return out
}
