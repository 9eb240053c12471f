package reference

// A replayed model to question: what the reference knows at any point of
// a log, for tests that check what an explanation claims.

import (
	"slices"
	"strings"

	"github.com/lockstep/lockstep/internal/check"
	"github.com/lockstep/lockstep/internal/sim"
)

// State is the reference's model of a log replayed up to a point.
type State struct{ m *model }

// At replays the events of log before the one numbered upto (0: the whole
// log) and gives the model as it stands then.
func At(log []sim.Event, opt check.Options, upto int) *State {
	m := newModel(opt)
	for i := range log {
		e := &log[i]
		if upto > 0 && e.Seq >= upto {
			break
		}
		if e.Kind == sim.KindVerdict || e.Kind == sim.KindSay {
			continue
		}
		m.event(e)
	}
	return &State{m}
}

// Replay is the reference's model fed one event at a time, for a test
// that questions it beside another model at every event (At replays the
// log from its start each time).
type Replay struct{ m *model }

// NewReplay is a model of no events yet.
func NewReplay(opt check.Options) *Replay { return &Replay{newModel(opt)} }

// Observe feeds e to the model (verdicts and narration change nothing).
func (r *Replay) Observe(e *sim.Event) {
	if e.Kind == sim.KindVerdict || e.Kind == sim.KindSay {
		return
	}
	r.m.event(e)
}

// State is the model as it stands: read it before the next Observe.
func (r *Replay) State() *State { return &State{r.m} }

// id is the thread who (A, or A/req2 as the log writes it) of incarnation
// inc.
func id(who string, inc int) threadID {
	c, name, ok := strings.Cut(who, "/")
	if !ok {
		name = "main"
	}
	return threadID{client: c, inc: inc, name: name}
}

// Holder is a thread holding a key: as the log writes it, its incarnation,
// the event at which it came to hold the key and the request whose exec
// gave it the key.
type Holder struct {
	Who        string
	Inc        int
	Since, Req int
}

// Holders of key on node, in the order they came to hold it.
func (s *State) Holders(node, key string) []Holder {
	k := s.m.node(node).keys[key]
	if k == nil {
		return nil
	}
	var out []Holder
	for _, h := range k.holders {
		who := h.t.client
		if h.t.name != "main" {
			who += "/" + h.t.name
		}
		out = append(out, Holder{who, h.t.inc, h.since, h.req})
	}
	return out
}

// Key is the state of key on node, and whether it exists.
func (s *State) Key(node, key string) (sim.KeyState, bool) {
	k := s.m.node(node).keys[key]
	if k == nil {
		return sim.KeyState{}, false
	}
	return k.state, true
}

// Inc is client's current incarnation, and whether it is up.
func (s *State) Inc(client string) (int, bool) {
	c := s.m.client(client)
	return c.inc, !c.crashed
}

// Believes reports whether thread who of incarnation inc believes it holds
// lock.
func (s *State) Believes(who string, inc int, lock string) bool {
	return s.m.thread(id(who, inc)).believe[lock] > 0
}

// Inside is the enter mark since which the thread is inside lock.
func (s *State) Inside(who string, inc int, lock string) (int, bool) {
	seq, ok := s.m.thread(id(who, inc)).inside[lock]
	return seq, ok
}

// Holding reports whether client's incarnation inc holds lock on a quorum
// of serving nodes.
func (s *State) Holding(client string, inc int, lock string) bool {
	return s.m.holding[incRes{client, inc, lock}]
}

// Quorum is the number of serving nodes client must hold lock on.
func (s *State) Quorum(client, lock string) int { return s.m.quorum(client, lock) }

// Attempt is one exec of a thread on a key: whether it changed the key's
// value or existence, and whether its command can write.
type Attempt struct {
	Seq            int
	Changed, Write bool
}

// Attempts are the thread's execs on key at node, in order.
func (s *State) Attempts(who string, inc int, node, key string) []Attempt {
	var out []Attempt
	for _, a := range s.m.thread(id(who, inc)).attempts[node+"\x00"+key] {
		out = append(out, Attempt{a.seq, a.changed, a.write})
	}
	return out
}

// Refusals are the thread's refused attempts on lock keys whose resource
// is lock: the seqs, in order.
func (s *State) Refusals(who string, inc int, lock string) []int {
	var out []int
	for _, r := range s.m.thread(id(who, inc)).refused {
		if resourceOf(r.key) == lock {
			out = append(out, r.seq)
		}
	}
	return out
}

// Turns are the events at which the thread's wait for a lock starts
// afresh: its acquired and gave-up marks (any lock), and its execs that
// made it a holder of a lock key.
func (s *State) Turns(who string, inc int) []int {
	th := s.m.thread(id(who, inc))
	out := slices.Clone(th.gotKey)
	for _, seqs := range th.acquired {
		out = append(out, seqs...)
	}
	for _, seqs := range th.gaveUp {
		out = append(out, seqs...)
	}
	slices.Sort(out)
	return out
}

// Tries are the thread's tries to take a lock: its execs that made it a
// holder of a lock key or were refused one, in order.
func (s *State) Tries(who string, inc int) []int {
	var out []int
	for _, t := range s.m.thread(id(who, inc)).tries {
		out = append(out, t.seq)
	}
	return out
}

// Entered reports whether some thread has marked acquiring a lock or
// entering a critical section.
func (s *State) Entered() bool { return s.m.entered }

// Reenters are the thread's reenter marks for lock.
func (s *State) Reenter(who string, inc int, lock string) (int, bool) {
	seq, ok := s.m.thread(id(who, inc)).reenter[lock]
	return seq, ok
}

// StockWrite is a write of the stock: the read it was derived from (0:
// none), the version it read (its event), the version it overwrote (the
// node's latest when it executed) and its value.
type StockWrite struct {
	Seq, Read, ReadVersion, Latest int
	ReadValue, Value               string
}

// StockWrites are the stock's writes, in order.
func (s *State) StockWrites() []StockWrite {
	var out []StockWrite
	for _, w := range s.m.writes {
		sw := StockWrite{Seq: w.seq, Latest: w.latest.id, Value: w.value}
		if w.from != nil {
			sw.Read, sw.ReadVersion, sw.ReadValue = w.from.seq, w.from.ver.id, w.from.ver.value
		}
		out = append(out, sw)
	}
	return out
}

// Stock is the version of the stock node holds (its event; 0: none).
func (s *State) Stock(node string) int { return s.m.node(node).stock.id }

// Initial is the stock's init value ("" when it has none).
func (s *State) Initial() string {
	if s.m.initial == nil {
		return ""
	}
	return *s.m.initial
}
