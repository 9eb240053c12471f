package reference

import (
	"slices"
	"sort"
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

// model is the whole replayed state.
type model struct {
	opt      check.Options
	nodes    map[string]*node
	clients  map[string]*client
	threads  map[threadID]*thread
	reqInc   map[int]int     // send seq -> the sender's incarnation
	reqFail  map[int]int     // send seq -> its first lost or timeout event
	marked   map[string]bool // resources named by a mark
	tokens   []token
	holding  map[incRes]bool // whether an incarnation holds a resource (quorum)
	cameSeq  map[incRes]int  // the event at which it last came to hold it
	fellSeq  map[incRes]int  // the event at which it last fell below the quorum
	initial  *string         // the initial stock
	writes   []*write
	endT     time.Duration
	found    []Verdict
	threadOf []threadID      // threads in the order first seen
	execReq  map[int]int     // exec seq -> its request (the send's seq)
	deadRes  map[string]bool // resources found deadlocked at the horizon
}

// incRes is one incarnation of a client and one resource.
type incRes struct {
	client string
	inc    int
	res    string
}

// token is a fencing token issued by a token mark.
type token struct {
	seq    int
	client string
	res    string
	n      int64
}

func newModel(opt check.Options) *model {
	return &model{opt: opt, nodes: map[string]*node{}, clients: map[string]*client{},
		threads: map[threadID]*thread{}, reqInc: map[int]int{}, reqFail: map[int]int{},
		marked: map[string]bool{}, holding: map[incRes]bool{}, cameSeq: map[incRes]int{},
		fellSeq: map[incRes]int{}, execReq: map[int]int{}, deadRes: map[string]bool{}}
}

func (m *model) node(name string) *node {
	n := m.nodes[name]
	if n == nil {
		n = &node{keys: map[string]*key{}, history: map[string][]written{}}
		m.nodes[name] = n
	}
	return n
}

func (m *model) client(name string) *client {
	c := m.clients[name]
	if c == nil {
		c = &client{}
		m.clients[name] = c
	}
	return c
}

func (m *model) thread(t threadID) *thread {
	th := m.threads[t]
	if th == nil {
		th = &thread{believe: map[string]int{}, inside: map[string]int{}, reenter: map[string]int{},
			acquired: map[string][]int{}, gaveUp: map[string][]int{}, attempts: map[string][]attempt{}}
		m.threads[t] = th
		m.threadOf = append(m.threadOf, t)
	}
	return th
}

// actor is the thread of a client event; for the events of a request, the
// incarnation that sent it.
func (m *model) actor(e *sim.Event) threadID {
	name := e.Thread
	if name == "" {
		name = "main"
	}
	inc := m.client(e.Client).inc
	if e.Req != 0 {
		if i, ok := m.reqInc[e.Req]; ok {
			inc = i
		}
	}
	return threadID{client: e.Client, inc: inc, name: name}
}

// alive: its client has not crashed since it started, and it has not
// ended with an error.
func (m *model) alive(t threadID) bool {
	c := m.client(t.client)
	return c.inc == t.inc && !c.crashed && !m.thread(t).failed
}

// isLock reports whether a key is a lock key (now).
func (m *model) isLock(k string) bool {
	r := resourceOf(k)
	return slices.Contains(m.opt.Locks, r) || m.marked[r]
}

// quorum is on how many serving nodes a resource must be held.
func (m *model) quorum(res string) int {
	if q := m.opt.Quorum[res]; q > 0 {
		return q
	}
	return 1
}

// serving: up, and no replica of a master that is still in service.
func (m *model) serving(name string) bool {
	n := m.node(name)
	if n.outOfService {
		return false
	}
	if master, ok := m.opt.ReplicaOf[name]; ok && !m.node(master).outOfService {
		return false
	}
	return true
}

// event replays one event.
func (m *model) event(e *sim.Event) {
	m.endT = e.T
	switch e.Kind {
	case sim.KindSend:
		m.reqInc[e.Seq] = m.client(e.Client).inc
	case sim.KindLost, sim.KindTimeout:
		if _, ok := m.reqFail[e.Req]; !ok && e.Req != 0 {
			m.reqFail[e.Req] = e.Seq
		}
	case sim.KindExec:
		m.exec(e)
	case sim.KindExpire, sim.KindInit:
		m.observed(e)
	case sim.KindReplicate:
		m.replicate(e)
	case sim.KindMark:
		m.mark(e)
	case sim.KindFault:
		m.fault(e)
	case sim.KindDone:
		t := m.actor(e)
		th := m.thread(t)
		th.done = e.Seq
		if e.Note != "" {
			th.failed = true
		}
		if e.Note != "" || t.name == "main" {
			clear(th.inside)
		}
	}
	m.track(e)
}

// observed applies the keys of an event that is no client's write: a key
// shown gone, or with a value it did not have, is held by nobody.
func (m *model) observed(e *sim.Event) {
	n := m.node(e.Node)
	for _, ks := range e.Keys {
		m.expireIfDue(e, n, ks.Key)
		m.stockSeen(e, n, ks)
		m.observedKey(n, ks)
		m.remember(n, ks)
	}
}

// expireIfDue: a key whose expiry time (its last state's Expire, in whole
// ms of world time) has passed — the event comes a millisecond or more
// after it — when an event shows it went by expiry first, whatever the
// event shows next. Nobody holds it any more.
func (m *model) expireIfDue(e *sim.Event, n *node, name string) {
	k := n.keys[name]
	if k == nil || k.state.Expire <= 0 || e.T < time.Duration(k.state.Expire+1)*time.Millisecond {
		return
	}
	delete(n.keys, name)
	if m.opt.StockKey != "" && name == m.opt.StockKey {
		n.stock = version{}
	}
}

// remember records a key's state on a node, for replicas.
func (m *model) remember(n *node, ks sim.KeyState) {
	var hs []holder
	if k := n.keys[ks.Key]; k != nil {
		hs = slices.Clone(k.holders)
	}
	n.history[ks.Key] = append(n.history[ks.Key], written{state: ks, holders: hs})
}

// exec applies a command a node executed.
func (m *model) exec(e *sim.Event) {
	n := m.node(e.Node)
	t := m.actor(e)
	th := m.thread(t)
	m.execReq[e.Seq] = e.Req
	write := e.Client != "" && writes(e.Cmd)
	for _, ks := range e.Keys {
		m.expireIfDue(e, n, ks.Key)
		k := n.keys[ks.Key]
		before := k != nil
		var old []holder
		if k != nil {
			old = k.holders
		}
		changed := before != ks.Exists() || before && !sameValue(k.state, ks)
		th.attempts[e.Node+"\x00"+ks.Key] = append(th.attempts[e.Node+"\x00"+ks.Key], attempt{e.Seq, changed})
		if !write {
			m.stockRead(e, n, t, ks)
			m.observedKey(n, ks)
			m.refusal(e, n, t, ks)
			m.remember(n, ks)
			continue
		}
		switch {
		case !before && !ks.Exists():
		case !before:
			n.keys[ks.Key] = &key{state: ks, holders: []holder{{t, e.Seq}}}
		case !ks.Exists():
			delete(n.keys, ks.Key)
			m.foreignUnlock(e, t, ks.Key, old)
		case k.state.Type != ks.Type:
			n.keys[ks.Key] = &key{state: ks, holders: []holder{{t, e.Seq}}}
		case ks.Type == "hash":
			fields, up, down := hashChange(k.state.Value, ks.Value)
			switch {
			case fields:
				k.holders = []holder{{t, e.Seq}}
			case up:
				if !k.holds(t) {
					k.holders = append(k.holders, holder{t, e.Seq})
				}
			case down:
				k.holders = slices.DeleteFunc(k.holders, func(h holder) bool { return h.t == t })
			}
			k.state = ks
		case k.state.Value != ks.Value:
			k.holders = []holder{{t, e.Seq}}
			k.state = ks
		default:
			k.state = ks
		}
		m.stockWrite(e, n, t, ks)
		m.refusal(e, n, t, ks)
		m.remember(n, ks)
	}
	m.staleWrite(e, t)
}

// observedKey takes one key's new state when no client wrote it: gone, or
// a value the key did not have, is held by nobody.
func (m *model) observedKey(n *node, ks sim.KeyState) {
	k := n.keys[ks.Key]
	switch {
	case !ks.Exists():
		delete(n.keys, ks.Key)
	case k == nil || !sameValue(k.state, ks):
		n.keys[ks.Key] = &key{state: ks}
	default:
		k.state = ks
	}
}

// refusal records a refused attempt on a lock key.
func (m *model) refusal(e *sim.Event, n *node, t threadID, ks sim.KeyState) {
	if e.Client == "" || !m.isLock(ks.Key) {
		return
	}
	k := n.keys[ks.Key]
	if k == nil || len(k.holders) == 0 {
		return
	}
	for _, h := range k.holders {
		if h.t.client == t.client && h.t.inc == t.inc {
			return
		}
	}
	th := m.thread(t)
	th.refused = append(th.refused, refusal{seq: e.Seq, t: int64(e.T), node: e.Node, key: ks.Key})
}

// replicate applies a write a replica received from its master: its
// holders are those of the latest write on the master that left the same
// value, each from this event on unless it held the replica's key already.
func (m *model) replicate(e *sim.Event) {
	n := m.node(e.Node)
	master := m.node(m.opt.ReplicaOf[e.Node])
	for _, ks := range e.Keys {
		m.expireIfDue(e, n, ks.Key)
		m.stockSeen(e, n, ks)
		if !ks.Exists() {
			delete(n.keys, ks.Key)
			m.remember(n, ks)
			continue
		}
		var hs []holder
		hist := master.history[ks.Key]
		for i := len(hist) - 1; i >= 0; i-- {
			if hist[i].state.Exists() && sameValue(hist[i].state, ks) {
				hs = hist[i].holders
				break
			}
		}
		// A replica's copy is held from the replicate event on (by a
		// thread that did not hold it already).
		old := n.keys[ks.Key]
		k := &key{state: ks}
		for _, h := range hs {
			since := e.Seq
			if old != nil {
				for _, o := range old.holders {
					if o.t == h.t {
						since = o.since
					}
				}
			}
			k.holders = append(k.holders, holder{h.t, since})
		}
		n.keys[ks.Key] = k
		m.remember(n, ks)
	}
}

// mark applies a client's report of a step of its algorithm.
func (m *model) mark(e *sim.Event) {
	t := m.actor(e)
	th := m.thread(t)
	r := e.Lock
	if r != "" {
		m.marked[r] = true
	}
	switch e.Name {
	case "acquired":
		th.believe[r]++
		th.acquired[r] = append(th.acquired[r], e.Seq)
	case "released", "release-refused", "release-failed":
		if th.believe[r] > 0 {
			th.believe[r]--
		}
	case "reenter":
		th.reenter[r] = e.Seq
	case "gave-up":
		th.gaveUp[r] = append(th.gaveUp[r], e.Seq)
	case "token":
		var n int64
		if _, err := fmtSscan(e.Note, &n); err == nil {
			m.tokens = append(m.tokens, token{seq: e.Seq, client: e.Client, res: r, n: n})
		}
	case "enter":
		m.enter(e, t, th, r)
	case "leave":
		delete(th.inside, r)
	}
}

// fmtSscan reads "fencing token N".
func fmtSscan(note string, n *int64) (int, error) {
	s := strings.TrimPrefix(note, "fencing token ")
	v, err := strconv.ParseInt(strings.Fields(s + " x")[0], 10, 64)
	*n = v
	return 1, err
}

// fault applies a fault.
func (m *model) fault(e *sim.Event) {
	if !e.Applied() {
		return
	}
	switch e.Name {
	case "crash":
		c := m.client(e.Client)
		for t, th := range m.threads {
			if t.client == e.Client && t.inc == c.inc {
				clear(th.inside)
				clear(th.believe)
			}
		}
		c.inc++
		c.crashed = true
		c.crashes = append(c.crashes, e.Seq)
	case "restart":
		m.client(e.Client).crashed = false
	case "node-crash":
		m.node(e.Node).down = true
	case "failover":
		n := m.node(e.Node)
		n.down, n.outOfService = true, true
	case "node-restart":
		n := m.node(e.Node)
		n.down = false
		shown := map[string]bool{}
		for _, ks := range e.Keys {
			shown[ks.Key] = true
		}
		var gone []sim.KeyState
		for name := range n.keys {
			if !shown[name] {
				gone = append(gone, sim.KeyState{Key: name, TTL: -2})
			}
		}
		sort.Slice(gone, func(i, j int) bool { return gone[i].Key < gone[j].Key })
		m.observed(&sim.Event{Seq: e.Seq, Kind: e.Kind, Node: e.Node, Keys: append(gone, e.Keys...)})
	}
}
