package scenario

import (
	"time"

	"github.com/lockstep/lockstep/internal/sim"
)

// File is a scenario file: a list of scenarios.
type File struct {
	Scenarios []Scenario `yaml:"scenarios" json:"scenarios"`
}

// Scenario is one race, fully described as data: the nodes, the initial
// data, the clients with their algorithm and workload, the faults, the
// narration and the verdicts the checker must reach.
type Scenario struct {
	ID      string   `yaml:"id" json:"id"`
	Title   sim.Text `yaml:"title" json:"title"`
	Lesson  sim.Text `yaml:"lesson" json:"lesson"`
	Source  string   `yaml:"source,omitempty" json:"source,omitempty"`   // seed and section, e.g. "000 ②"
	Catalog []int    `yaml:"catalog,omitempty" json:"catalog,omitempty"` // CATALOG.md rows it shows
	Seed    int64    `yaml:"seed,omitempty" json:"seed,omitempty"`
	Horizon Duration `yaml:"horizon,omitempty" json:"horizon,omitempty"` // default 30s

	Nodes   []Node            `yaml:"nodes,omitempty" json:"nodes,omitempty"` // default: one node "redis"
	Network Network           `yaml:"network,omitempty" json:"network,omitempty"`
	Data    map[string]string `yaml:"data,omitempty" json:"data,omitempty"`   // string keys written to every master before the run
	Locks   []Lock            `yaml:"locks,omitempty" json:"locks,omitempty"` // locks of its own, named by clients as algorithms (locks.go)
	Clients []Client          `yaml:"clients" json:"clients"`
	Faults  []Fault           `yaml:"faults,omitempty" json:"faults,omitempty"`
	Storage *Storage          `yaml:"storage,omitempty" json:"storage,omitempty"` // the protected resource of the write task (row 16)
	SQL     *SQL              `yaml:"sql,omitempty" json:"sql,omitempty"`         // the SQL database of the MySQL lock (row 17)

	Narration []Narration `yaml:"narration,omitempty" json:"narration,omitempty"`
	Expect    []string    `yaml:"expect" json:"expect"` // verdict names, e.g. [oversell]

	// RealRedis says how the lesson ends on real redis-server processes
	// when that differs from embedded Redis, and why (a fault a real server
	// cannot take, such as a node clock jump). Unset: the same verdicts.
	RealRedis *RealRedis `yaml:"real_redis,omitempty" json:"real_redis,omitempty"`

	// Schedule is a recorded list of user actions (manual steps and faults
	// injected from the browser) replayed on top of the scenario.
	Schedule []Action `yaml:"schedule,omitempty" json:"schedule,omitempty"`

	// Explore is the fault budget and the bounds of a schedule search
	// (visualizer explore). Runs ignore it.
	Explore *Explore `yaml:"explore,omitempty" json:"explore,omitempty"`

	// Challenge is a goal the learner reaches by scheduling the run by
	// hand (challenge.go). Runs of the lesson itself ignore it.
	Challenge *Challenge `yaml:"challenge,omitempty" json:"challenge,omitempty"`
}

// Explore bounds a schedule search: the faults it may place and how far
// each schedule runs.
type Explore struct {
	Faults  []Budget `yaml:"faults,omitempty" json:"faults,omitempty"`   // the fault budget; none: only the order of moves is searched
	Steps   int      `yaml:"steps,omitempty" json:"steps,omitempty"`     // engine steps per schedule; default 2000
	Horizon Duration `yaml:"horizon,omitempty" json:"horizon,omitempty"` // virtual time per schedule; default the scenario's horizon
	Window  Duration `yaml:"window,omitempty" json:"window,omitempty"`   // moves due this close to the next one may go first; default 0 (ties only)
}

// Budget is how many faults of one kind a search may place, and how long
// (for) or how far (by) each may be at most.
type Budget struct {
	Do     string   `yaml:"do" json:"do"`                             // one of sim.SearchKinds
	Count  int      `yaml:"count,omitempty" json:"count,omitempty"`   // default 1
	Max    Duration `yaml:"max,omitempty" json:"max,omitempty"`       // pause: the longest for; clock-jump: the largest by (forward); node-crash, partition: the longest before the node restarts or the link heals (none: it lasts)
	Client string   `yaml:"client,omitempty" json:"client,omitempty"` // only this client (default: any)
	Node   string   `yaml:"node,omitempty" json:"node,omitempty"`     // only this node (default: any)
}

// Node is one Redis node.
type Node struct {
	Name      string   `yaml:"name" json:"name"`
	ReplicaOf string   `yaml:"replica_of,omitempty" json:"replica_of,omitempty"` // name of its master
	Lag       Duration `yaml:"lag,omitempty" json:"lag,omitempty"`               // replication delay
	Offset    Duration `yaml:"clock_offset,omitempty" json:"clock_offset,omitempty"`
}

// Network sets the latency of every client-node link.
type Network struct {
	Latency Duration `yaml:"latency,omitempty" json:"latency,omitempty"` // one way; default 1ms
	Jitter  Duration `yaml:"jitter,omitempty" json:"jitter,omitempty"`   // extra random delay in [0, jitter)
	Timeout Duration `yaml:"timeout,omitempty" json:"timeout,omitempty"` // client read timeout; default 1s
}

// Client is one client process: the lock algorithm it runs and its workload.
type Client struct {
	Name      string         `yaml:"name" json:"name"`
	Algorithm string         `yaml:"algorithm" json:"algorithm"`
	Params    map[string]any `yaml:"params,omitempty" json:"params,omitempty"`
	Start     Duration       `yaml:"start,omitempty" json:"start,omitempty"`
	Requests  int            `yaml:"requests,omitempty" json:"requests,omitempty"` // default 1
	Work      Duration       `yaml:"work,omitempty" json:"work,omitempty"`         // time inside the critical section
	Task      string         `yaml:"task,omitempty" json:"task,omitempty"`         // deduct (default) | write | none
	Skew      Duration       `yaml:"clock_skew,omitempty" json:"clock_skew,omitempty"`
	Latency   Duration       `yaml:"latency,omitempty" json:"latency,omitempty"`     // overrides the network's
	Threads   int            `yaml:"threads,omitempty" json:"threads,omitempty"`     // worker pool size; each request runs on a pooled thread (0: requests in turn on main)
	Reentry   int            `yaml:"reentry,omitempty" json:"reentry,omitempty"`     // how many nested times each request locks (default 1)
	KeepLock  bool           `yaml:"keep_lock,omitempty" json:"keep_lock,omitempty"` // a request returns without releasing (the unlock is left to a later callback)
}

// The workloads a client may run inside its critical section (its task).
// "" means deduct. list, buy and buy-item are seed 003's market (see
// internal/lesson/market.go).
const (
	TaskDeduct  = "deduct"
	TaskWrite   = "write"
	TaskNone    = "none"
	TaskList    = "list"
	TaskBuy     = "buy"
	TaskBuyItem = "buy-item"
)

// Tasks lists the task names.
var Tasks = []string{TaskDeduct, TaskWrite, TaskNone, TaskList, TaskBuy, TaskBuyItem}

// When says when something happens: at a virtual time, or when an event
// matching On happens (the Nth time, default the first).
type When struct {
	At *Duration `yaml:"at,omitempty" json:"at,omitempty"`
	On *Match    `yaml:"on,omitempty" json:"on,omitempty"`
}

// Match selects events: every field that is set must be equal.
type Match struct {
	Kind   string `yaml:"kind,omitempty" json:"kind,omitempty"`     // exec, mark, expire, fault, ...
	Name   string `yaml:"name,omitempty" json:"name,omitempty"`     // mark/fault name: acquired, enter, ...
	Client string `yaml:"client,omitempty" json:"client,omitempty"` //
	Node   string `yaml:"node,omitempty" json:"node,omitempty"`     //
	Cmd    string `yaml:"cmd,omitempty" json:"cmd,omitempty"`       // command name, e.g. DEL
	Key    string `yaml:"key,omitempty" json:"key,omitempty"`       // a touched key
	Nth    int    `yaml:"nth,omitempty" json:"nth,omitempty"`       // 1-based; default 1
}

// Fault is one fault of the menu, applied at a time or on an event.
type Fault struct {
	When     `yaml:",inline" json:",inline"`
	Do       string   `yaml:"do" json:"do"` // a fault kind of sim.Actions
	Client   string   `yaml:"client,omitempty" json:"client,omitempty"`
	Node     string   `yaml:"node,omitempty" json:"node,omitempty"`
	For      Duration `yaml:"for,omitempty" json:"for,omitempty"` // pause/partition length, restart delay
	By       Duration `yaml:"by,omitempty" json:"by,omitempty"`   // clock jump or skew
	KeepData bool     `yaml:"keep_data,omitempty" json:"keep_data,omitempty"`
}

// Size is the field that holds the fault's amount, as its kind's row of
// sim.Actions says: By for a clock jump or skew, else For.
func (f *Fault) Size() *Duration {
	if a, _ := sim.ActionOf(f.Do); a.Amount.Field() == "by" {
		return &f.By
	}
	return &f.For
}

// Narration is a sentence shown at a moment of the run. It is said only
// while the run follows the lesson's script (no user action has changed
// it) and, if it declares a claim, only when the claim holds at that
// moment.
type Narration struct {
	When     `yaml:",inline" json:",inline"`
	sim.Text `yaml:",inline" json:",inline"`
	Claim    *Claim `yaml:"claim,omitempty" json:"claim,omitempty"`
}

// Claim is what a narration line says about the run at its moment, made
// explicit so that it can be checked against the events: who is inside,
// whose lock a key holds, which key is gone. Every part that is set must
// hold.
type Claim struct {
	Inside   []string  `yaml:"inside,omitempty" json:"inside,omitempty"`     // each of these clients is inside its critical section
	Outside  []string  `yaml:"outside,omitempty" json:"outside,omitempty"`   // none of these clients is inside
	Holds    []KeyHold `yaml:"holds,omitempty" json:"holds,omitempty"`       // each key holds its client's lock value
	Free     []KeyHold `yaml:"free,omitempty" json:"free,omitempty"`         // each key does not exist
	Together *bool     `yaml:"together,omitempty" json:"together,omitempty"` // two clients were inside at once so far (true) or never (false)
}

// KeyHold names a key on a node and, in Claim.Holds, the client whose lock
// value it holds.
type KeyHold struct {
	Client string `yaml:"client,omitempty" json:"client,omitempty"` // whose value (holds only)
	Node   string `yaml:"node,omitempty" json:"node,omitempty"`     // default: the first node
	Key    string `yaml:"key,omitempty" json:"key,omitempty"`       // default: lock
}

// Action is one recorded user action taken before engine step Step: a
// manual step of Client (Do "step") or a fault (Do is a fault kind).
type Action struct {
	Step  int `yaml:"step" json:"step"`
	Fault `yaml:",inline" json:",inline"`
	// Clients is a run of hand steps as a file writes it (runs.go): the
	// clients of consecutive manual steps from Step, blank-separated. It
	// exists in files only: Parse expands a run into one action a step.
	Clients string `yaml:"clients,omitempty" json:"-"`
}

// Duration is a time.Duration written as "3s", "150ms" in YAML and JSON.
type Duration time.Duration

// D returns the duration as a time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

// RealRedis is how a lesson ends on a real server, when not as on
// embedded Redis.
type RealRedis struct {
	Expect []string `yaml:"expect" json:"expect"` // the verdicts on redis-server
	Why    sim.Text `yaml:"why" json:"why"`       // what a real server cannot do here
}

// ExpectOnRealRedis is the verdicts the lesson must end with on real
// redis-server processes.
func (s *Scenario) ExpectOnRealRedis() []string {
	if s.RealRedis != nil {
		return s.RealRedis.Expect
	}
	return s.Expect
}

// The services a scenario may have beside its Redis nodes. Each has a lane
// of its own on the timeline, and matches may name it as a node.
const (
	StorageService = "storage" // the protected resource of the write task (row 16)
	DBService      = "db"      // the SQL database of the MySQL lock (row 17)
)

// Services lists the services the scenario has, in lane order: storage
// when a client's task is write (or storage is set), db when a client runs
// an algorithm on SQL (lock.Info.SQL: the MySQL lock), or sql is set.
func (s *Scenario) Services() []string {
	writes, sql := s.Storage != nil, s.SQL != nil
	for _, c := range s.Clients {
		writes = writes || c.Task == "write"
		a, ok := s.Lookup(c.Algorithm)
		sql = sql || ok && a.SQL
	}
	var out []string
	if writes {
		out = append(out, StorageService)
	}
	if sql {
		out = append(out, DBService)
	}
	return out
}

// Storage is the storage service the write task writes to from inside the
// critical section (service "storage"). It is added when a client's task is
// write, plain unless Fencing is set.
type Storage struct {
	Fencing bool `yaml:"fencing,omitempty" json:"fencing,omitempty"` // reject writes whose fencing token is lower than the highest seen
}

// SQL is the SQL database (service "db") of the MySQL lock. It is added
// when a client runs mysql-unique-key; a cleanup job runs only if
// SweepEvery is set.
type SQL struct {
	SweepEvery Duration `yaml:"sweep_every,omitempty" json:"sweep_every,omitempty"` // how often the cleanup job runs (0: no job)
	SweepAfter Duration `yaml:"sweep_after,omitempty" json:"sweep_after,omitempty"` // it deletes lock rows older than this; default 10s
}
