package narrate

import (
	"github.com/lockstep/lockstep/internal/check"
	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/sim"
)

// Line is one sentence of the story, with the seqs of the events it
// describes and what it claims, as data.
type Line struct {
	Text  sim.Text
	Refs  []int
	Claim Claim
}

// Claim is what a line says of the run, as data: the story's tests check
// each against the checker's model and the log, so that no sentence says
// what the run does not show.
type Claim struct {
	Kind   ClaimKind
	Who    string   // the actor: a client or thread (A, A/req2)
	Lock   string   // the lock it is about
	Node   string   // the node (removes, overwrites, expires, gone)
	Key    string   // the key (removes, overwrites, expires, gone)
	Whose  []string // whose lock: the clients (or threads) it was taken from, or whose expired
	Inside []string // who is said to be inside at the moment (threads)
	Nodes  []string // where a release removed the thread's own lock
	On     int      // on how many nodes the lock's keys stand (short of quorum)
	Need   int      // the quorum
	Holds  []Held   // which keys hold whose lock (now)
	Gone   bool     // gives-back: no key holds the lock for Who any more
	// ReleasedOn is where a failed vote's line says it releases (every
	// master, or the masters that said yes).
	ReleasedOn fact.Release
}

// Held is a key that holds clients' lock, as a line says it.
type Held struct {
	Node, Key string
	Whose     []string
}

// ClaimKind names what a line claims.
type ClaimKind string

// The claims of the story's lines.
const (
	ClaimEvent       ClaimKind = "event"        // the event itself happened (a fault, a lost request, a verdict): no claim beyond it
	ClaimAcquires    ClaimKind = "acquires"     // Who reports it holds Lock
	ClaimEnters      ClaimKind = "enters"       // Who enters; Inside are the other clients' threads inside
	ClaimLeaves      ClaimKind = "leaves"       // Who leaves
	ClaimReleases    ClaimKind = "releases"     // Who's own commands removed its own lock (on Nodes), or the lock has no keys
	ClaimGivesBack   ClaimKind = "gives-back"   // Who gives back an inner hold and still holds its key (or, Gone, holds none)
	ClaimRemovedNot  ClaimKind = "removed-not"  // Who's release removed Whose lock, not its own
	ClaimDeletedNone ClaimKind = "deleted-none" // Who's release removed nothing
	ClaimRefused     ClaimKind = "refused"      // Who's release found the lock another's and left it
	ClaimFoundNone   ClaimKind = "found-none"   // Who's release found no key of Lock that holds anyone: its lock was gone
	ClaimEnds        ClaimKind = "ends"         // Who's thread ended with an error; Inside (Who) if it was inside until then, Holds its keys it leaves behind
	ClaimRemoves     ClaimKind = "removes"      // Who's command made Key on Node disappear, which Whose held
	ClaimOverwrites  ClaimKind = "overwrites"   // Who's command replaced Whose hold of Key on Node
	ClaimExpires     ClaimKind = "expires"      // Key on Node, Whose lock, went without a command; Inside of them still inside
	ClaimShort       ClaimKind = "short"        // Who believes it holds Lock, whose keys stand on On < Need nodes
	ClaimStaleWrite  ClaimKind = "stale-write"  // the storage accepted Who's write while Who holds Lock on fewer nodes than its quorum, and the checker found it stale
	ClaimLapsedWrite ClaimKind = "lapsed-write" // the fenced storage accepted Who's write while Who holds Lock on fewer nodes than its quorum, and no client took Lock since Who's token
	ClaimVotes       ClaimKind = "votes"        // a Redlock vote as the lock reports it (the fact's Votes; a failed one's releases follow in the log)
	ClaimStock       ClaimKind = "stock"        // Who writes the stock while Inside are inside
	ClaimNow         ClaimKind = "now"          // where things stand: Inside are inside, Holds on the nodes that are up and serving
)

// Narrator tells a run's story event by event, from the checker's model
// of the run and the facts the events carry.
type Narrator struct {
	c       *check.Checker
	wrote   map[string][]check.Change // thread (A, A/req2) -> what its commands did to lock keys since it last acquired or released
	short   map[string]bool           // client + "\x00" + lock -> it believes it holds the lock but its keys stand on fewer nodes than the quorum
	orphans map[string]bool           // watchdog threads told to renew for a thread that died
	in      map[string]bool           // threads (A, A/req2) between their enter and leave marks
}

// New is a narrator that reads c's model. Feed c each event first, then
// the narrator (Observe): the story is told from the state the event
// leaves.
func New(c *check.Checker) *Narrator {
	return &Narrator{c: c, wrote: map[string][]check.Change{}, short: map[string]bool{}, orphans: map[string]bool{}, in: map[string]bool{}}
}

// Tell tells the story of a finished log from its events alone, with a
// checker of its own built from opt.
func Tell(log []*sim.Event, opt check.Options) []Line {
	c := check.New(opt)
	n := New(c)
	var out []Line
	for _, e := range log {
		if e.Kind == sim.KindSay || e.Kind == sim.KindVerdict {
			continue
		}
		verdicts := c.Observe(e)
		out = append(out, n.Observe(e)...)
		for _, v := range verdicts {
			out = append(out, n.Observe(&v)...)
		}
	}
	for _, v := range c.Finish() {
		out = append(out, n.Observe(&v)...)
	}
	return out
}

// View is the checker's model the story is told from.
func (n *Narrator) View() check.View { return n.c.View() }

// Observe takes the next event of the run, once the checker has observed
// it, and returns what it adds to the story: nothing for most events
// (sends, replies, reads), a sentence or two for what changes who holds
// or is inside what.
func (n *Narrator) Observe(e *sim.Event) []Line {
	if e.Kind == sim.KindSay {
		return nil
	}
	var out []Line
	switch e.Kind {
	case sim.KindMark:
		out = n.mark(e)
	case sim.KindExec:
		out = append(n.storage(e), n.exec(e)...)
	case sim.KindExpire:
		out = n.gone(e, goneExpires)
		if e.Fact != nil && e.Fact.Key == fact.Cleanup {
			out = n.gone(e, goneSwept)
		}
	case sim.KindDone:
		out = n.ended(e)
	case sim.KindLost:
		w := e.Words()
		out = n.one(e, Claim{}, fact.Say("narrate.lost", e.Who(), e.CmdText(), e.Node, w))
	case sim.KindTimeout:
		out = n.one(e, Claim{}, fact.Say("narrate.timeout", e.Who(), e.Node))
	case sim.KindFault:
		if e.Name == string(sim.FaultCrash) && e.Applied() {
			for who := range n.in {
				if clientOf(who) == e.Client {
					delete(n.in, who) // a crashed process's threads are gone, inside or not
				}
			}
		}
		out = append(n.one(e, Claim{}, faultText(e)), n.gone(e, goneLost)...)
	case sim.KindVerdict:
		if e.Name == sim.VerdictSafe {
			return n.one(e, Claim{}, fact.Say("narrate.verdict-safe"))
		}
		return n.one(e, Claim{}, fact.Say("narrate.verdict", e.Name), e.Refs...)
	}
	return append(out, n.quorums(e)...)
}

// one is a single line about e, pointing at e and refs.
func (n *Narrator) one(e *sim.Event, c Claim, t fact.Text, refs ...int) []Line {
	if c.Kind == "" {
		c.Kind = ClaimEvent
	}
	if c.Who == "" {
		c.Who = e.Who()
	}
	if c.Lock == "" {
		c.Lock = e.Lock
	}
	return []Line{{Text: t, Refs: append([]int{e.Seq}, refs...), Claim: c}}
}
