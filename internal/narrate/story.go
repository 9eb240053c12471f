package narrate

import (
	"fmt"
	"slices"
	"strings"

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
		out = n.one(e, Claim{}, fmt.Sprintf("%s's %s to %s is lost: %s.", e.Who(), e.CmdText(), e.Node, w.En),
			fmt.Sprintf("%s 发往 %s 的 %s 丢失了：%s。", e.Who(), e.Node, e.CmdText(), w.Zh))
	case sim.KindTimeout:
		out = n.one(e, Claim{}, fmt.Sprintf("%s gives up waiting for %s's reply.", e.Who(), e.Node),
			fmt.Sprintf("%s 等不到 %s 的回复，放弃了。", e.Who(), e.Node))
	case sim.KindFault:
		if e.Name == string(sim.FaultCrash) && e.Applied() {
			for who := range n.in {
				if clientOf(who) == e.Client {
					delete(n.in, who) // a crashed process's threads are gone, inside or not
				}
			}
		}
		en, zh := faultText(e)
		out = append(n.one(e, Claim{}, en, zh), n.gone(e, goneLost)...)
	case sim.KindVerdict:
		if e.Name == sim.VerdictSafe {
			return n.one(e, Claim{}, "The checker finds the run safe.", "检查器判定：这次运行是安全的。")
		}
		return n.one(e, Claim{}, "The checker finds "+e.Name+".", "检查器判定："+e.Name+"。", e.Refs...)
	}
	return append(out, n.quorums(e)...)
}

// one is a single line about e, pointing at e and refs.
func (n *Narrator) one(e *sim.Event, c Claim, en, zh string, refs ...int) []Line {
	if c.Kind == "" {
		c.Kind = ClaimEvent
	}
	if c.Who == "" {
		c.Who = e.Who()
	}
	if c.Lock == "" {
		c.Lock = e.Lock
	}
	return []Line{{Text: sim.Text{En: en, Zh: zh}, Refs: append([]int{e.Seq}, refs...), Claim: c}}
}

// mark tells a step a client reports.
func (n *Narrator) mark(e *sim.Event) []Line {
	who := e.Who()
	f := e.Fact
	if f == nil {
		f = &fact.Fact{}
	}
	switch e.Name {
	case sim.MarkAcquired:
		n.wrote[who] = nil
		delete(n.short, e.Client+"\x00"+e.Lock)
		if f.Key == fact.HoldOf && f.Hold > 1 {
			return n.one(e, Claim{Kind: ClaimAcquires}, fmt.Sprintf("%s acquires %s again (hold %d of %d).", who, lockName(e.Lock), f.Hold, f.Depth),
				fmt.Sprintf("%s 再次拿到了%s（第 %d 层，共 %d 层）。", who, lockNameZh(e.Lock), f.Hold, f.Depth))
		}
		return n.one(e, Claim{Kind: ClaimAcquires}, fmt.Sprintf("%s acquires %s.", who, lockName(e.Lock)), fmt.Sprintf("%s 拿到了%s。", who, lockNameZh(e.Lock)))
	case sim.MarkEnter:
		n.in[who] = true
		if others := n.insideWith(who, e.Lock); len(others) > 0 {
			names, seqs := insiders(others)
			return n.one(e, Claim{Kind: ClaimEnters, Inside: names}, fmt.Sprintf("%s enters the critical section while %s %s still inside.", who, strings.Join(names, ", "), isAre(len(names))),
				fmt.Sprintf("%s 进入临界区，而 %s 还在里面。", who, strings.Join(names, "、")), seqs...)
		}
		return n.one(e, Claim{Kind: ClaimEnters}, who+" enters the critical section.", who+" 进入临界区。")
	case sim.MarkLeave:
		delete(n.in, who)
		return n.one(e, Claim{Kind: ClaimLeaves}, who+" leaves the critical section.", who+" 离开临界区。")
	case sim.MarkReleased:
		defer func() { n.wrote[who] = nil }()
		if f.Key == fact.HoldGivenBack && f.Hold > 1 {
			if n.c.View().HeldOnBy(who, e.Lock) > 0 {
				return n.one(e, Claim{Kind: ClaimGivesBack}, fmt.Sprintf("%s gives back hold %d of %d: it still holds %s.", who, f.Hold, f.Depth, lockName(e.Lock)),
					fmt.Sprintf("%s 归还了第 %d 层（共 %d 层）：它仍然持有%s。", who, f.Hold, f.Depth, lockNameZh(e.Lock)))
			}
			return n.one(e, Claim{Kind: ClaimGivesBack, Gone: true}, fmt.Sprintf("%s gives back hold %d of %d, but no key holds %s for it any more.", who, f.Hold, f.Depth, lockName(e.Lock)),
				fmt.Sprintf("%s 归还了第 %d 层（共 %d 层），但已经没有哪个键还为它持有%s。", who, f.Hold, f.Depth, lockNameZh(e.Lock)))
		}
		return n.released(e)
	case sim.MarkReleaseRefused:
		n.wrote[who] = nil
		return n.refused(e)
	}
	return n.otherMark(e, who, f)
}

// otherMark tells the other marks of a lock: a WAIT that found no replica,
// Redlock's votes, and the stock written back while others are inside.
func (n *Narrator) otherMark(e *sim.Event, who string, f *fact.Fact) []Line {
	switch e.Name {
	case "not-replicated":
		return n.one(e, Claim{}, who+"'s WAIT finds no replica that has the lock: "+who+" gives it back and tries again.",
			who+" 的 WAIT 发现没有从节点拿到这把锁："+who+" 把锁还回去，稍后重试。")
	case "quorum":
		if v := f.Votes; v != nil {
			return n.one(e, Claim{Kind: ClaimVotes}, fmt.Sprintf("%s wins a majority: %d of %d masters said yes (%d needed).", who, v.Yes, v.Of, v.Need),
				fmt.Sprintf("%s 拿到了多数票：%d 个主节点中有 %d 个同意（需要 %d 个）。", who, v.Of, v.Yes, v.Need))
		}
	case "no-quorum":
		if v := f.Votes; v != nil {
			where, whereZh := releasedOn(v.ReleasedOn)
			return n.one(e, Claim{Kind: ClaimVotes, ReleasedOn: v.ReleasedOn}, fmt.Sprintf("%s gets no majority (%d of %d masters, %d needed) and releases on %s.", who, v.Yes, v.Of, v.Need, where),
				fmt.Sprintf("%s 没有拿到多数票（%d 个主节点中 %d 个同意，需要 %d 个），在%s释放。", who, v.Of, v.Yes, v.Need, whereZh))
		}
	case "too-late":
		if v := f.Votes; v != nil {
			where, whereZh := releasedOn(v.ReleasedOn)
			return n.one(e, Claim{Kind: ClaimVotes, ReleasedOn: v.ReleasedOn},
				fmt.Sprintf("%s counts a majority, but its time ran out while it was asking: it does not take the lock, and releases on %s.", who, where),
				fmt.Sprintf("%s 数到了多数票，但在请求的过程中时间已经用完：它不能持有锁，并在%s释放。", who, whereZh))
		}
	case "renewed":
		return n.orphan(e, f)
	case sim.MarkDeduct:
		if others := n.othersInside(e.Client); len(others) > 0 && f.Key == fact.Stock {
			names, seqs := insiders(others)
			return n.one(e, Claim{Kind: ClaimStock, Inside: names}, fmt.Sprintf("%s writes the stock (%d -> %d) while %s %s inside too.", who, f.From, f.To, strings.Join(names, ", "), isAre(len(names))),
				fmt.Sprintf("%s 写回库存（%d → %d），而 %s 也在临界区里。", who, f.From, f.To, strings.Join(names, "、")), seqs...)
		}
	}
	return nil
}

// releasedOn says where a failed Redlock vote releases.
func releasedOn(r fact.Release) (string, string) {
	if r == fact.ReleaseYes {
		return "the masters that voted yes (its earlier lease still holds the others)", "投了赞成票的主节点上（其余节点上还是它之前的租约）"
	}
	return "every master", "每个主节点上"
}

// released tells a release from what the thread's commands did to the
// lock's keys since it acquired it: its own lock removed, another's, or
// nothing at all.
func (n *Narrator) released(e *sim.Event) []Line {
	who := e.Who()
	var own, gone []string // nodes where it removed its own hold; where it deleted a key another held
	var others []string
	var refs []int
	wrote := false
	for _, ch := range n.wrote[who] {
		if ch.Lock != e.Lock {
			continue
		}
		wrote = true
		if !ch.Removed {
			// a key that stays: its own hold left it (a shared hash
			// field counted down), others' holds remain
			if left(ch, who) {
				own = appendNew(own, ch.Node)
			}
			continue
		}
		if slices.ContainsFunc(ch.Before, func(h check.Holder) bool { return same(h, ch.By) }) {
			own = appendNew(own, ch.Node)
			continue
		}
		for _, h := range ch.Before {
			others = appendNew(others, h.Client)
			refs = append(refs, h.Since)
		}
		gone = appendNew(gone, ch.Node)
	}
	_, need := n.c.View().HeldOn(e.Client, e.Lock)
	switch {
	case len(own) > 1 || len(own) == 1 && need > 1:
		return n.one(e, Claim{Kind: ClaimReleases, Nodes: own}, fmt.Sprintf("%s releases %s on %s.", who, lockName(e.Lock), strings.Join(own, ", ")),
			fmt.Sprintf("%s 在 %s 上释放了%s。", who, strings.Join(own, "、"), lockNameZh(e.Lock)))
	case len(own) == 1 || !wrote:
		return n.one(e, Claim{Kind: ClaimReleases, Nodes: own}, fmt.Sprintf("%s releases %s.", who, lockName(e.Lock)), fmt.Sprintf("%s 释放了%s。", who, lockNameZh(e.Lock)))
	case len(others) > 0:
		return n.one(e, Claim{Kind: ClaimRemovedNot, Whose: others}, fmt.Sprintf("%s thinks it has released %s, but the key it deleted held %s's lock, not its own.", who, lockName(e.Lock), strings.Join(others, ", ")),
			fmt.Sprintf("%s 以为自己释放了%s，但它删掉的键里是 %s 的锁，不是它自己的。", who, lockNameZh(e.Lock), strings.Join(others, "、")), refs...)
	}
	return n.one(e, Claim{Kind: ClaimDeletedNone}, fmt.Sprintf("%s's release deletes nothing: its lock was already gone.", who),
		fmt.Sprintf("%s 的释放什么也没删掉：它的锁早已不在了。", who))
}

// left reports whether who's hold of a key that stays left it with the
// change: who held it before and holds it no more.
func left(ch check.Change, who string) bool {
	for _, h := range ch.Before {
		if h.Who() == who && !slices.ContainsFunc(ch.After, func(a check.Holder) bool { return same(a, h) }) {
			return true
		}
	}
	return false
}

// exec tells what a client's command did to another's lock, and keeps
// what it did to lock keys for the release that follows.
func (n *Narrator) exec(e *sim.Event) []Line {
	if e.Client == "" || !sim.Writes(e.Cmd) {
		return nil
	}
	cmd := e.Cmd[0]
	if e.Script != "" {
		cmd = e.Script
	}
	var out []Line
	for _, ch := range n.c.Changes() {
		if !ch.IsLock {
			continue
		}
		n.wrote[e.Who()] = append(n.wrote[e.Who()], ch)
		switch {
		case ch.Removed:
			if victims := victims(ch.Before, func(h check.Holder) bool { return same(h, ch.By) }, e.Client); len(victims) > 0 {
				out = append(out, Line{Text: sim.Text{
					En: fmt.Sprintf("%s's %s removes %s.", e.Who(), cmd, lockOf(victims, ch.Key, ch.Node)),
					Zh: fmt.Sprintf("%s 的 %s 删掉了%s。", e.Who(), cmd, lockOfZh(victims, ch.Key, ch.Node))}, Refs: []int{e.Seq},
					Claim: Claim{Kind: ClaimRemoves, Who: e.Who(), Lock: ch.Lock, Node: ch.Node, Key: ch.Key, Whose: victims}})
			}
		case ch.Exists && ch.Moved:
			// an overwrite: holders of other clients the key no longer has
			kept := func(h check.Holder) bool {
				return h.Client == e.Client || slices.ContainsFunc(ch.After, func(a check.Holder) bool { return same(a, h) })
			}
			if victims := victims(ch.Before, kept, e.Client); len(victims) > 0 {
				out = append(out, Line{Text: sim.Text{
					En: fmt.Sprintf("%s's %s overwrites %s.", e.Who(), cmd, lockOf(victims, ch.Key, ch.Node)),
					Zh: fmt.Sprintf("%s 的 %s 覆盖了%s。", e.Who(), cmd, lockOfZh(victims, ch.Key, ch.Node))}, Refs: []int{e.Seq},
					Claim: Claim{Kind: ClaimOverwrites, Who: e.Who(), Lock: ch.Lock, Node: ch.Node, Key: ch.Key, Whose: victims}})
			}
		}
	}
	return out
}

// victims names the holders a command took a key from (all but those
// spared): by client, or by thread when the command came from another
// thread of the same client.
func victims(before []check.Holder, spared func(check.Holder) bool, by string) []string {
	var out []string
	for _, h := range before {
		if spared(h) {
			continue
		}
		name := h.Client
		if h.Client == by {
			name = h.Who()
		}
		out = appendNew(out, name)
	}
	return out
}

// same reports whether two holders are one thread of one incarnation.
func same(a, b check.Holder) bool { return a.Who() == b.Who() && a.Incarnation == b.Incarnation }
