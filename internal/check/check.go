package check

import (
	"slices"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/sim"
)

// Verdict names, as the checker's rules call them: the names are declared
// once, in sim beside the event kinds (sim.Verdicts lists them).
const (
	MutualExclusion = sim.VerdictMutualExclusion
	Oversell        = sim.VerdictOversell
	LostUpdate      = sim.VerdictLostUpdate
	ForeignUnlock   = sim.VerdictForeignUnlock
	Deadlock        = sim.VerdictDeadlock
	Starvation      = sim.VerdictStarvation
	StaleWrite      = sim.VerdictStaleWrite
	NoProgress      = sim.VerdictNoProgress
	Safe            = sim.VerdictSafe
)

// Options say what the checker watches: what the log alone does not say.
type Options struct {
	StockKey string // the stock counter's key, on the first node; "" checks no stock
	// Locks are the keys of the scenario's locks (its resources). A mark
	// that names a lock adds it too; keys that no lock names are data.
	Locks []string
	// Quorum is, per lock, on how many serving nodes a client must hold
	// its key to hold the lock (Redlock's quorum); 1 when absent.
	Quorum map[string]int
	// ClientQuorum is, per client and lock, the quorum of the client's own
	// algorithm when it is not the lock's: a client holds a lock when it
	// holds its key on as many nodes as its own rule needs (a SETNX client
	// on a Redlock key, one node; a Redlock client with quorum: 1, one).
	ClientQuorum map[string]map[string]int
	// ReplicaOf maps each replica node to its master.
	ReplicaOf map[string]string
	// FencedStorage says the storage service checks fencing tokens: a
	// write is then stale only once a newer token was issued.
	FencedStorage bool
	// Tokenless are the clients whose algorithm draws no fencing token
	// (lock.Info.Fencing is false). On a fenced storage, one of them
	// coming to hold a lock after a writer's token makes the writer's
	// later write stale: the storage cannot know of a holder without a
	// token.
	Tokenless []string
	// Recoverers are who frees a lock's stuck key by the algorithm's own
	// recovery when they find it: a client whose algorithm takes such a
	// key over or gives it an expiry (the timestamp lock, SETNX-then-EXPIRE
	// with repair), or a service's cleanup job (the MySQL lock's sweep). A
	// key without expiry whose holders cannot release it is no deadlock
	// while a recoverer that frees its value is live at the horizon.
	Recoverers []Recoverer
	// Queues are the locks whose holder the service names, by the lock
	// family's own rule, in the Owner of the lock's key state: a queue lock
	// (etcd's Mutex) is held by the waiter with the lowest create revision
	// under the lock's prefix, not by whoever wrote last, so its adapter
	// reports the lock as one key owned by that waiter (internal/etcd).
	Queues []string
	// Resource is a key of the service's own store that the lock protects
	// (etcd's lessons keep it beside the lock): a client's accepted command
	// that changes it is a write to the protected resource, as a storage
	// service's WRITE is.
	Resource string
}

// Recoverer is one client (or a service's job) that frees a lock's stuck
// keys by its algorithm's own recovery.
type Recoverer struct {
	Lock string // the lock whose keys it frees
	// Client is the client that recovers; "" for a service's cleanup job,
	// which runs as long as the run does. A client recovers while its
	// program is not over: its current incarnation is up and its main
	// thread is not done.
	Client string
	// Frees reports whether it frees a key of this type and value (the
	// timestamp lock takes over only a value that is a timestamp); nil:
	// every key.
	Frees func(typ, value string) bool
	// Lease says the key's value is its lease (the timestamp lock): any
	// client of the algorithm, one that comes after the horizon too, takes
	// a key it frees over once the lease has passed. Such a key is no
	// deadlock, live or not the client: like a key with a TTL, it ends.
	Lease bool
}

// rule is one invariant: it reads every event, with what the event did to
// the model, and reports violations as verdict events, as they happen or
// when the run is over.
type rule interface {
	observe(e *sim.Event, chs []change, m *model) []claimed
	finish(m *model) []claimed
}

// Checker is an incremental invariant checker: feed it every event with
// Observe, then call Finish once the run is over.
type Checker struct {
	model     *model
	rules     []rule
	sections  sections // who is inside, event by event (Sections)
	found     []string
	explained []Explained
	kept      []Kept
	last      []change // what the last event observed did to the keys (Changes)
	lastFound []string // the verdicts the last event observed revealed (Revealed)
	finished  bool
	short     bool // the run was stopped before its horizon
}

// StoppedShort tells the checker that the run ends before its horizon
// (a step cap stopped it): a "safe" then says so.
func (c *Checker) StoppedShort() { c.short = true }

// New makes a checker with every rule of the catalog, in the order their
// verdicts are reported at the horizon.
func New(opt Options) *Checker {
	dl := newDeadlockRule()
	st := newStarvationRule(dl)
	return &Checker{model: newModel(opt), rules: []rule{
		&mutexRule{},
		&unlockRule{},
		newStaleWriteRule(),
		newStockRule(opt.StockKey),
		dl,
		st,
		newProgressRule(dl, st),
	}}
}

// Verdicts are the verdict names found so far, in order of discovery; after
// Finish, "safe" when nothing was found.
func (c *Checker) Verdicts() []string { return c.found }

// note records verdicts as found, with their claims, and gives their
// events.
func (c *Checker) note(vs []claimed) []sim.Event {
	var out []sim.Event
	for _, v := range vs {
		if v.kept {
			c.kept = append(c.kept, Kept{Name: v.ev.Name, Seq: v.ev.Seq, Refs: v.ev.Refs, Say: *v.ev.Say})
			continue
		}
		if !slices.Contains(c.found, v.ev.Name) {
			c.found = append(c.found, v.ev.Name)
		}
		c.explained = append(c.explained, Explained{Name: v.ev.Name, Refs: v.ev.Refs, Claims: v.claims})
		out = append(out, v.ev)
	}
	return out
}

// Observe reads one event and returns the violations it reveals, as
// verdict events to be logged right after it.
func (c *Checker) Observe(e *sim.Event) []sim.Event {
	if e.Kind == sim.KindVerdict || e.Kind == sim.KindSay {
		return nil
	}
	chs := c.model.observe(e)
	c.last = chs
	c.sections.observe(e, c.model)
	var out []claimed
	for _, r := range c.rules {
		out = append(out, r.observe(e, chs, c.model)...)
	}
	vs := c.note(out)
	c.lastFound = c.lastFound[:0]
	for _, v := range vs {
		c.lastFound = append(c.lastFound, v.Name)
	}
	return vs
}

// Revealed reports whether the last event observed revealed the verdict
// name (a stale write at the storage's exec, mutual exclusion at an
// enter): the story says a verdict's words only where the checker gave it.
func (c *Checker) Revealed(name string) bool { return slices.Contains(c.lastFound, name) }

// Finish checks the end state and returns the final verdict events, then
// "safe" if nothing was found at all.
func (c *Checker) Finish() []sim.Event {
	if c.finished {
		return nil
	}
	c.finished = true
	var found []claimed
	for _, r := range c.rules {
		found = append(found, r.finish(c.model)...)
	}
	out := c.note(found)
	if len(c.found) == 0 && c.short {
		out = append(out, c.note([]claimed{verdict(Safe, nil,
			fact.Say("check.no-invariant-was-broken-in").En,
			fact.Say("check.no-invariant-was-broken-in").Zh)})...)
	} else if len(c.found) == 0 {
		out = append(out, c.note([]claimed{verdict(Safe, nil,
			fact.Say("check.no-invariant-was-broken-within").En,
			fact.Say("check.no-invariant-was-broken-within").Zh)})...)
	}
	return out
}

// verdict makes a verdict event explained in both languages, with the
// claims its explanation makes; its proving events are listed in
// increasing order, each once.
func verdict(name string, refs []int, en, zh string, claims ...Claim) claimed {
	refs = slices.Compact(slices.Sorted(slices.Values(refs)))
	return claimed{ev: sim.Event{Kind: sim.KindVerdict, Name: name, Refs: refs, Say: ptr(fact.Cited(en, zh))}, claims: claims}
}

func ptr[T any](v T) *T { return &v }
