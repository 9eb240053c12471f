package check

// The model's picture of the run and the questions rules ask of it.

import (
	"sort"

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

// claim is a claim of kind k about thread t: c with t's name and
// incarnation.
func (t thread) claim(k ClaimKind, c Claim) Claim {
	c.Kind, c.Who, c.Inc = k, t.who(), t.inc
	return c
}

// holder is a thread that holds a key, since the event that gave it the
// key (req is that command's request, to find its reply's fate).
type holder struct {
	th    thread
	since int
	req   int
	extra int // holds beyond the first: a thread that re-entered a hash lock leaves it only when its count is back
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
	existed bool     // the key existed before the event
}

// model is the checker's picture of the run: who holds which key on
// which node, what each thread believes, who is inside which lock, which
// clients are alive, which nodes serve. Rules read it; only observe
// changes it.
type model struct {
	opt        Options
	locks      map[string]bool
	queues     map[string]bool    // locks whose key state names its holder (Options.Queues)
	keys       map[string]*slot   // node + "\x00" + key
	history    map[string][]write // node + "\x00" + key -> values clients wrote
	inc        map[string]int     // client -> current incarnation (its crashes so far)
	crashes    map[string][]int   // client -> seq of each crash, by incarnation
	gone       map[string]bool    // client -> crashed, not restarted since
	ended      map[thread]int     // thread -> seq of its done with an error
	finished   map[thread]int     // main thread -> seq of its done without one: its program is over
	depth      map[thread]map[string]int
	inside     map[string][]entry                 // lock -> threads inside, in order of entry
	retired    map[string]bool                    // failed-over masters
	promoted   map[string]bool                    // replicas promoted by a failover
	unanswered map[int]int                        // request -> seq of its lost or timeout event
	timedOut   map[int]bool                       // request -> that event was a timeout
	sent       map[int]thread                     // request -> the thread that sent it
	got        map[thread]map[string]sim.KeyState // thread -> node + "\x00" + key -> what its latest GET of the key read
	down       map[string]bool                    // nodes crashed (or failed over) and not back
	together   bool                               // two clients have been inside at once
}

// entry is a thread inside a lock, since its enter mark.
type entry struct {
	th  thread
	seq int
}

func newModel(opt Options) *model {
	m := &model{opt: opt, locks: map[string]bool{}, keys: map[string]*slot{}, history: map[string][]write{},
		inc: map[string]int{}, crashes: map[string][]int{}, gone: map[string]bool{}, ended: map[thread]int{}, finished: map[thread]int{}, depth: map[thread]map[string]int{},
		inside: map[string][]entry{}, retired: map[string]bool{}, promoted: map[string]bool{},
		unanswered: map[int]int{}, timedOut: map[int]bool{}, sent: map[int]thread{}, got: map[thread]map[string]sim.KeyState{}, down: map[string]bool{}}
	for _, l := range opt.Locks {
		m.locks[l] = true
	}
	m.queues = map[string]bool{}
	for _, l := range opt.Queues {
		m.locks[l], m.queues[l] = true, true
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

// quorum is on how many serving nodes client must hold a lock's key to
// hold the lock, by its own algorithm's rule.
func (m *model) quorum(client, l string) int {
	if q := m.opt.ClientQuorum[client][l]; q > 0 {
		return q
	}
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
	return n >= m.quorum(client, l)
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

// recovered reports whether a live recoverer (Options.Recoverers) will free
// key s, stuck as it is: a service's cleanup job, a client whose program
// is not over (its current incarnation is up and its main thread not
// done) and whose algorithm frees a key holding this value, or any client
// of an algorithm whose lease is the value it frees (Recoverer.Lease): a
// later one takes it over. When none will, why tells, recoverer by
// recoverer, why it does not.
func (m *model) recovered(s *slot) (ok bool, why []notRecovered) {
	for _, rc := range m.opt.Recoverers {
		if rc.Lock != s.lock {
			continue
		}
		if rc.Frees != nil && !rc.Frees(s.state.Type, s.state.Value) {
			why = append(why, notRecovered{client: rc.Client, value: true})
			continue
		}
		if rc.Client == "" || rc.Lease {
			return true, nil
		}
		inc := m.inc[rc.Client]
		main := thread{client: rc.Client, inc: inc, name: "main"}
		switch at, ended := m.ended[main]; {
		case m.gone[rc.Client]:
			why = append(why, notRecovered{client: rc.Client, at: m.crashes[rc.Client][inc-1], crashed: true})
		case ended:
			why = append(why, notRecovered{client: rc.Client, at: at})
		default:
			at, over := m.finished[main]
			if !over {
				return true, nil
			}
			why = append(why, notRecovered{client: rc.Client, at: at})
		}
	}
	return false, why
}

// notRecovered is why a recoverer of a lock will not free a stuck key: its
// algorithm does not free the value, or it is no longer live (at: its
// crash, or its main thread's end).
type notRecovered struct {
	client  string
	value   bool
	crashed bool
	at      int
}
