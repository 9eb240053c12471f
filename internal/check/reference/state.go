package reference

// The replayed state and the questions the spec's rules ask of it.

import (
	"slices"
	"time"

	"github.com/lockstep/lockstep/internal/check"
	"github.com/lockstep/lockstep/internal/sim"
)

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
	came     []cameAt        // every time an incarnation came to hold a resource, in order
	fellSeq  map[incRes]int  // the event at which it last fell below the quorum
	initial  *string         // the initial stock
	writes   []*write
	endT     time.Duration
	entered  bool // some thread marked acquiring a lock or entering a critical section
	found    []Verdict
	threadOf []threadID      // threads in the order first seen
	deadRes  map[string]bool // resources found deadlocked at the horizon
	// failedOver is each master's latest applied failover.
	failedOver map[string]int
}

// incRes is one incarnation of a client and one resource.
type incRes struct {
	client string
	inc    int
	res    string
}

// token is a fencing token issued by a token mark.
// cameAt is an incarnation that came to hold a resource at seq.
type cameAt struct {
	seq int
	ir  incRes
}

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
		fellSeq: map[incRes]int{}, deadRes: map[string]bool{}, failedOver: map[string]int{}}
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
			acquired: map[string][]int{}, gaveUp: map[string][]int{}, released: map[string]int{}, relFailed: map[string]int{}, attempts: map[string][]attempt{}, read: map[string]sim.KeyState{}}
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

// quorum is on how many serving nodes a client must hold a resource, by
// its own algorithm's rule (Options.ClientQuorum), else the resource's.
func (m *model) quorum(client, res string) int {
	if q := m.opt.ClientQuorum[client][res]; q > 0 {
		return q
	}
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
