package sim

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/redis/go-redis/v9"
)

// Config sets up a world. The zero value of every field has a documented
// default.
type Config struct {
	Seed     int64         // the one source of every choice; any value
	Epoch    time.Time     // the wall-clock time at virtual time 0; default 2026-01-01T00:00:00Z; unused with a Pace (its Epoch)
	Horizon  time.Duration // the run ends here; default 30s
	MaxSteps int           // the run ends after this many steps; default 100000
	Latency  time.Duration // one-way client-node latency; default 1ms
	Jitter   time.Duration // extra random latency in [0, Jitter); default 0
	Timeout  time.Duration // how long a client waits for a reply; default 1s
	Pace     Pacer         // ties virtual time to a real server's clock; nil: none (embedded)
	NoLog    bool          // keep no event log (Log stays empty); watchers still see every event
	// Quorum, if set, says on how many nodes a client must hold a key for
	// it to hold the lock (Redlock's majority; 1 or 0: one node). A key's
	// expiry on one node while its holder still holds it on that many
	// others is a lost vote, not a lost lock, and its fact says so.
	Quorum func(client, key string) int
}

// DefaultEpoch is the wall-clock time of virtual time 0.
var DefaultEpoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func (c Config) withDefaults() Config {
	if c.Epoch.IsZero() {
		c.Epoch = DefaultEpoch
	}
	if c.Horizon <= 0 {
		c.Horizon = 30 * time.Second
	}
	if c.MaxSteps <= 0 {
		c.MaxSteps = 100000
	}
	if c.Latency <= 0 {
		c.Latency = time.Millisecond
	}
	if c.Timeout <= 0 {
		c.Timeout = time.Second
	}
	return c
}

// Errors of the world's API.
var (
	ErrUnknownClient = errors.New("sim: unknown client")
	ErrUnknownNode   = errors.New("sim: unknown node")
	ErrBadFault      = errors.New("sim: bad fault")
)

// World is one simulated system. Its methods must be called from one
// goroutine; the world runs client threads itself, one at a time.
type World struct {
	cfg   Config
	rng   *rand.Rand
	now   time.Duration
	step  int
	log   []*Event // points into chunks: events never move once logged
	seq   int      // events emitted so far (the log's length, also with NoLog)
	chunk []Event
	keys  []KeyState // with NoLog, the key states of the exec being told (exec)
	// soon is the earliest key expiry as the step's begin found it, for
	// Step (nil n: none).
	soon struct {
		n   *Node
		key string
		at  time.Duration
	}
	q     queue
	nodes []*Node
	procs []*Proc

	emitting int // emits under way: events whose watchers and triggers are being told (emit)

	running  *thread
	execing  *request          // the request being executed on its node, if any
	tokens   map[string]string // token -> client name
	scripts  map[string]string // sha1 -> script name
	names    map[string]string // command names as clients send them -> upper case
	watchers []func(*Event)
	triggers []*trigger
	ended    bool
	capped   bool  // stopped by MaxSteps
	lost     error // a node's server stopped answering (checkLost)
	closed   bool
	ext      extensions  // services, replication links, fencing tokens (service.go, replica.go)
	mover    *thread     // the thread whose move the last step made (mover.go)
	srcPkgs  []tracedPkg // the packages whose call sites commands record (source.go)
}

// trigger fires a fault the first time an event matches.
type trigger struct {
	match func(*Event) bool
	fault Fault
	fired bool
}

// New makes an empty world.
func New(cfg Config) *World {
	cfg = cfg.withDefaults()
	return &World{
		cfg:     cfg,
		rng:     rand.New(rand.NewPCG(uint64(cfg.Seed), 0x10c857e9)),
		tokens:  map[string]string{},
		scripts: map[string]string{},
	}
}

// Config returns the world's configuration with defaults filled in.
func (w *World) Config() Config { return w.cfg }

// Now is the virtual time since the world's start.
func (w *World) Now() time.Duration { return w.now }

// PausedUntil reports whether a client is paused (a pause fault), and
// until when.
func (w *World) PausedUntil(client string) (time.Duration, bool) {
	p := w.proc(client)
	if p == nil || !p.paused {
		return 0, false
	}
	return p.pausedUntil, true
}

// Steps counts the engine steps taken.
func (w *World) Steps() int { return w.step }

// Log is every event so far, in order (empty with Config.NoLog). The
// caller must not modify it.
func (w *World) Log() []*Event { return w.log }

// Events counts the events emitted so far, logged or not.
func (w *World) Events() int { return w.seq }

// Threads counts the client threads made and not yet ended. Each holds a
// coroutine, with a stack of its own, until it ends: with the log, the
// main cost of a world in memory.
func (w *World) Threads() int {
	n := 0
	for _, p := range w.procs {
		for _, th := range p.threads {
			if !th.done {
				n++
			}
		}
	}
	return n
}

// Ended reports whether the run is over (nothing left to do, horizon or
// step cap reached).
func (w *World) Ended() bool { return w.ended }

// AddNodeOn adds a node served by backend b; the world closes b with
// itself.
func (w *World) AddNodeOn(name string, b Backend) *Node {
	n := newNode(w, name, len(w.nodes), b)
	w.nodes = append(w.nodes, n)
	for _, p := range w.procs {
		p.clients = append(p.clients, nil)
	}
	return n
}

// Node returns the named node, or nil.
func (w *World) Node(name string) *Node { return w.node(name) }

func (w *World) node(name string) *Node {
	for _, n := range w.nodes {
		if n.name == name {
			return n
		}
	}
	return nil
}

// NodeNames lists the nodes in the order they were added.
func (w *World) NodeNames() []string {
	out := make([]string, len(w.nodes))
	for i, n := range w.nodes {
		out[i] = n.name
	}
	return out
}

// ClientNames lists the clients in the order they were added.
func (w *World) ClientNames() []string {
	out := make([]string, len(w.procs))
	for i, p := range w.procs {
		out[i] = p.name
	}
	return out
}

// Init writes initial string data to a node before the run, as one event.
func (w *World) Init(node string, data map[string]string, order []string) error {
	n := w.node(node)
	if n == nil {
		return fmt.Errorf("%w %q", ErrUnknownNode, node)
	}
	ev := Event{Kind: KindInit, Node: n.name}
	n.syncClock()
	for _, k := range order {
		if err := n.b.Set(k, data[k]); err != nil {
			return err
		}
		ev.Keys = append(ev.Keys, n.state(k))
	}
	w.emit(ev)
	return nil
}

// AddClient adds a client process that runs prog from opt.Start.
func (w *World) AddClient(name string, prog Program, opt ClientOptions) *Proc {
	p := &Proc{w: w, name: name, idx: len(w.procs), program: prog, opt: opt, skew: opt.Skew,
		clients: make([]*redis.Client, len(w.nodes))}
	w.procs = append(w.procs, p)
	w.boot(p, opt.Start)
	return p
}
