package check

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/lockstep/lockstep/internal/sim"
)

// thread is one thread of one incarnation of a client: a restarted client
// is a new incarnation, and its threads are new threads.
type thread struct {
	client string
	inc    int
	name   string
}

// who is the thread as the log writes it: A, or A/req2.
func (t thread) who() string {
	if t.name == "" || t.name == "main" {
		return t.client
	}
	return t.client + "/" + t.name
}

// holder is a thread that holds a key, since the event that gave it the
// key (req is that command's request, to find its reply's fate).
type holder struct {
	th    thread
	since int
	req   int
}

// slot is what the model knows of one key on one node.
type slot struct {
	node, key string
	lock      string // the lock the key stands for (sim.LockOfKey)
	state     sim.KeyState
	holders   []holder
}

func (s *slot) present() bool { return s != nil && s.state.Exists() }

// write is a value a client's command left in a key, with who held it
// then: a replica that applies the write later inherits its holders.
type write struct {
	value   string
	holders []holder
}

// change is what one event did to one key's holders.
type change struct {
	slot    *slot
	before  []holder // holders before the event
	removed bool     // a client's command made the key disappear
	by      thread   // the client thread whose command it was (removed)
	moved   bool     // the key's value or existence changed
}

// model is the checker's picture of the run: who holds which key on
// which node, what each thread believes, who is inside which lock, which
// clients are alive, which nodes serve. Rules read it; only observe
// changes it.
type model struct {
	opt        Options
	locks      map[string]bool
	keys       map[string]*slot   // node + "\x00" + key
	history    map[string][]write // node + "\x00" + key -> values clients wrote
	inc        map[string]int     // client -> current incarnation (its crashes so far)
	crashes    map[string][]int   // client -> seq of each crash, by incarnation
	ended      map[thread]int     // thread -> seq of its done with an error
	depth      map[thread]map[string]int
	inside     map[string][]entry // lock -> threads inside, in order of entry
	retired    map[string]bool    // failed-over masters
	promoted   map[string]bool    // replicas promoted by a failover
	unanswered map[int]int        // request -> seq of its lost or timeout event
	sent       map[int]thread     // request -> the thread that sent it
}

// entry is a thread inside a lock, since its enter mark.
type entry struct {
	th  thread
	seq int
}

func newModel(opt Options) *model {
	m := &model{opt: opt, locks: map[string]bool{}, keys: map[string]*slot{}, history: map[string][]write{},
		inc: map[string]int{}, crashes: map[string][]int{}, ended: map[thread]int{}, depth: map[thread]map[string]int{},
		inside: map[string][]entry{}, retired: map[string]bool{}, promoted: map[string]bool{},
		unanswered: map[int]int{}, sent: map[int]thread{}}
	for _, l := range opt.Locks {
		m.locks[l] = true
	}
	return m
}

// threadOf is the thread an event of a client belongs to. A request's
// events belong to the thread that sent it: a command still in flight when
// its client crashed runs for the incarnation that sent it.
func (m *model) threadOf(e *sim.Event) thread {
	if t, ok := m.sent[e.Req]; ok && e.Req != 0 {
		return t
	}
	name := e.Thread
	if name == "" {
		name = "main"
	}
	return thread{client: e.Client, inc: m.inc[e.Client], name: name}
}

// alive reports whether a thread can still act: its client has not
// crashed since, and it has not ended with an error.
func (m *model) alive(t thread) bool {
	_, ended := m.ended[t]
	return t.inc == m.inc[t.client] && !ended
}

// believes reports whether a thread believes it holds lock l.
func (m *model) believes(t thread, l string) bool { return m.depth[t][l] > 0 }

// serving reports whether a node's keys count: it was not taken out of
// service by a failover, and is no replica of a master still in service.
// A node that is down still counts: it keeps its keys until it comes back
// without them.
func (m *model) serving(node string) bool {
	if m.retired[node] {
		return false
	}
	master, isReplica := m.opt.ReplicaOf[node]
	return !isReplica || m.promoted[node] || m.retired[master]
}

// quorum is on how many serving nodes a lock's key must be held.
func (m *model) quorum(l string) int {
	if q := m.opt.Quorum[l]; q > 0 {
		return q
	}
	return 1
}

// holds reports whether threads of client's incarnation inc hold lock l
// on a quorum of serving nodes.
func (m *model) holds(client string, inc int, l string) bool {
	n := 0
	for _, s := range m.keys {
		if s.lock != l || !s.present() || !m.serving(s.node) {
			continue
		}
		for _, h := range s.holders {
			if h.th.client == client && h.th.inc == inc {
				n++
				break
			}
		}
	}
	return n >= m.quorum(l)
}

// slots lists the keys the model knows, by node then key.
func (m *model) slots() []*slot {
	out := make([]*slot, 0, len(m.keys))
	for _, s := range m.keys {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].node != out[j].node {
			return out[i].node < out[j].node
		}
		return out[i].key < out[j].key
	})
	return out
}

// observe applies one event to the model and returns what it did to the
// keys' holders.
func (m *model) observe(e *sim.Event) []change {
	switch e.Kind {
	case sim.KindMark:
		m.mark(e)
	case sim.KindFault:
		if !e.Applied() {
			return nil
		}
		m.fault(e)
	case sim.KindDone:
		t := m.threadOf(e)
		if e.Note != "" {
			m.ended[t] = e.Seq
		}
		if e.Note != "" || t.name == "main" {
			m.leaveAll(func(in entry) bool { return in.th == t })
		}
	case sim.KindSend:
		if e.Client != "" {
			m.sent[e.Seq] = m.threadOf(e)
		}
	case sim.KindLost, sim.KindTimeout:
		if _, ok := m.unanswered[e.Req]; !ok && e.Req != 0 {
			m.unanswered[e.Req] = e.Seq
		}
	}
	var out []change
	for _, k := range e.Keys {
		out = append(out, m.key(e, k))
	}
	if e.Kind == sim.KindFault && e.Name == string(sim.FaultNodeRestart) {
		// the event lists every key the node still has: the rest are gone
		kept := map[string]bool{}
		for _, k := range e.Keys {
			kept[k.Key] = true
		}
		for _, s := range m.slots() {
			if s.node == e.Node && s.present() && !kept[s.key] {
				out = append(out, m.key(e, sim.KeyState{Key: s.key, TTL: -2}))
			}
		}
	}
	return out
}

// mark applies a client's report of its algorithm's steps.
func (m *model) mark(e *sim.Event) {
	if e.Lock != "" {
		m.locks[e.Lock] = true
	}
	t := m.threadOf(e)
	switch e.Name {
	case sim.MarkAcquired:
		if m.depth[t] == nil {
			m.depth[t] = map[string]int{}
		}
		m.depth[t][e.Lock]++
	case sim.MarkReleased, sim.MarkReleaseRefused, sim.MarkReleaseFailed:
		if m.depth[t][e.Lock] > 0 {
			m.depth[t][e.Lock]--
		}
	case sim.MarkEnter:
		// a thread is inside a lock once: a second enter moves its entry
		m.leave(e.Lock, t)
		m.inside[e.Lock] = append(m.inside[e.Lock], entry{t, e.Seq})
	case sim.MarkLeave:
		m.leave(e.Lock, t)
	}
}

// fault applies a fault to clients and nodes.
func (m *model) fault(e *sim.Event) {
	switch sim.FaultKind(e.Name) {
	case sim.FaultCrash:
		if e.Client == "" {
			return
		}
		m.leaveAll(func(in entry) bool { return in.th.client == e.Client })
		m.crashes[e.Client] = append(m.crashes[e.Client], e.Seq)
		m.inc[e.Client]++
	case sim.FaultClockJump:
		// the node's keys now expire at other times, which no event
		// states: forget them until the next state read
		for _, sl := range m.keys {
			if sl.node == e.Node {
				sl.state.Expire = 0
			}
		}
	case sim.FaultFailover:
		m.retired[e.Node] = true
		for r, master := range m.opt.ReplicaOf {
			if master == e.Node {
				m.promoted[r] = true
			}
		}
	}
}

// leave takes thread t out of lock l.
func (m *model) leave(l string, t thread) {
	m.inside[l] = slices.DeleteFunc(m.inside[l], func(in entry) bool { return in.th == t })
}

// leaveAll takes out of every lock the threads inside that match.
func (m *model) leaveAll(match func(entry) bool) {
	for l, ins := range m.inside {
		keep := ins[:0]
		for _, in := range ins {
			if !match(in) {
				keep = append(keep, in)
			}
		}
		m.inside[l] = keep
	}
}

// key applies one key's new state to its holders.
func (m *model) key(e *sim.Event, k sim.KeyState) change {
	id := e.Node + "\x00" + k.Key
	s := m.keys[id]
	if s == nil {
		s = &slot{node: e.Node, key: k.Key, lock: sim.LockOfKey(k.Key), state: sim.KeyState{Key: k.Key, TTL: -2}}
		m.keys[id] = s
	}
	if s.present() && s.state.Expire > 0 && e.T >= time.Duration(s.state.Expire+1)*time.Millisecond {
		// its time (kept to the millisecond) had passed before this
		// event: whatever the event shows, the key went by expiry (real
		// Redis may drop a key with no expire event logged)
		s.state, s.holders = sim.KeyState{Key: k.Key, TTL: -2}, nil
	}
	ch := change{slot: s, before: s.holders}
	was, now := s.state, k
	same := was.Exists() == now.Exists() && was.Type == now.Type && was.Value == now.Value
	ch.moved = !same
	switch {
	case e.Kind == sim.KindExec && e.Client != "" && sim.Writes(e.Cmd):
		t := m.threadOf(e)
		me := holder{th: t, since: e.Seq, req: e.Req}
		switch {
		case !now.Exists():
			if was.Exists() {
				ch.removed, ch.by = true, t
			}
			s.holders = nil
		case !was.Exists():
			s.holders = []holder{me}
		case now.Type == "hash" && was.Type == "hash":
			s.holders = hashHolders(s.holders, was.Value, now.Value, me)
		case !same:
			s.holders = []holder{me}
		}
		if now.Exists() && !same {
			m.history[id] = append(m.history[id], write{value: now.Value, holders: s.holders})
		}
	case e.Kind == sim.KindReplicate && now.Exists() && !same:
		before := s.holders
		s.holders = nil
		hist := m.history[m.opt.ReplicaOf[e.Node]+"\x00"+k.Key]
		for i := len(hist) - 1; i >= 0; i-- {
			if hist[i].value == now.Value {
				// the writers hold the replica's copy from this event on,
				// or since they first held it there
				for _, h := range hist[i].holders {
					h.since = e.Seq
					if j := slices.IndexFunc(before, func(b holder) bool { return b.th == h.th }); j >= 0 {
						h.since = before[j].since
					}
					s.holders = append(s.holders, h)
				}
				break
			}
		}
		m.history[id] = append(m.history[id], write{value: now.Value, holders: s.holders})
	case !now.Exists() || !same:
		s.holders = nil
	}
	s.state = now
	return ch
}

// hashHolders is who holds a hash lock after a client's command: its
// owner fields changed (a new owner), or the same fields with a count up
// (me joins: a re-entry) or down (me leaves).
func hashHolders(hs []holder, was, now string, me holder) []holder {
	wf, nf := hashFields(was), hashFields(now)
	if len(wf) != len(nf) {
		return []holder{me}
	}
	up := 0
	for f, n := range nf {
		o, ok := wf[f]
		if !ok {
			return []holder{me}
		}
		up += n - o
	}
	mine := -1
	for i, h := range hs {
		if h.th == me.th {
			mine = i
			break
		}
	}
	switch {
	case up > 0 && mine < 0:
		return append(append([]holder(nil), hs...), me)
	case up < 0 && mine >= 0:
		return append(append([]holder(nil), hs[:mine]...), hs[mine+1:]...)
	}
	return hs
}

// hashFields reads a hash's "f=v f=v" form, counts as integers (0 when a
// value is not one).
func hashFields(v string) map[string]int {
	out := map[string]int{}
	for _, fv := range strings.Fields(v) {
		f, val, _ := strings.Cut(fv, "=")
		n, _ := strconv.Atoi(val)
		out[f] = n
	}
	return out
}
