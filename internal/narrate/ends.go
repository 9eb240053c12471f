package narrate

// The ends of things no client's release made: a lock key that went by
// itself, a release that found nothing to release, a program that stopped
// on an error.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lockstep/lockstep/internal/check"
	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/sim"
)

// how says how the keys of a gone line went.
type how int

const (
	goneExpires how = iota // its TTL ran out
	goneLost               // a fault took it (a node back empty, a failover)
	goneSwept              // a service's cleanup job deleted it
)

// gone tells of the locks an event took away without a client's command:
// an expiry, a cleanup job, a node that came back without its keys.
func (n *Narrator) gone(e *sim.Event, h how) []Line {
	var out []Line
	for _, ch := range n.c.Changes() {
		if !ch.IsLock || ch.Removed || !ch.Existed || ch.Exists || len(ch.Before) == 0 {
			continue
		}
		var owners []string
		for _, h := range ch.Before {
			owners = appendNew(owners, h.Client)
		}
		var inside []string
		for _, o := range owners {
			if n.c.View().Inside(o) {
				inside = append(inside, o)
			}
		}
		var en, zh string
		switch h {
		case goneSwept:
			en = "The cleanup job deletes " + lockOf(owners, ch.Key, ch.Node)
			zh = "清理任务删掉了" + lockOfZh(owners, ch.Key, ch.Node)
		case goneExpires:
			en, zh = lockOf(owners, ch.Key, ch.Node)+" expires", lockOfZh(owners, ch.Key, ch.Node)+"过期了"
		default:
			en, zh = lockOf(owners, ch.Key, ch.Node)+" is gone", lockOfZh(owners, ch.Key, ch.Node)+"没了"
		}
		if len(inside) > 0 {
			en += fmt.Sprintf(" while %s %s still inside", strings.Join(inside, ", "), isAre(len(inside)))
			zh += fmt.Sprintf("，而 %s 还在临界区里", strings.Join(inside, "、"))
		}
		out = append(out, Line{Text: sim.Text{En: en + ".", Zh: zh + "。"}, Refs: []int{e.Seq},
			Claim: Claim{Kind: ClaimExpires, Lock: ch.Lock, Node: ch.Node, Key: ch.Key, Whose: owners, Inside: inside}})
	}
	return out
}

// refused tells a release the lock turned down: it found the lock held by
// another, or no lock at all (a DELETE by name that found no row, a
// compare-and-delete on a key that is gone). Which, the model says: a
// release that checks no owner finds nothing to refuse but an absent key.
func (n *Narrator) refused(e *sim.Event) []Line {
	who := e.Who()
	v := n.c.View()
	held := slices.ContainsFunc(v.Held(), func(k check.Change) bool {
		return k.IsLock && k.Lock == e.Lock && !v.Down(k.Node) && v.Serving(k.Node)
	})
	if !held {
		return n.one(e, Claim{Kind: ClaimFoundNone}, fmt.Sprintf("%s's release finds no lock at all: its lock was already gone.", who),
			fmt.Sprintf("%s 释放时发现锁根本不在了：它的锁早已没了。", who))
	}
	return n.one(e, Claim{Kind: ClaimRefused}, who+"'s release finds the lock is no longer "+who+"'s and leaves it alone.",
		who+" 释放时发现锁已不是自己的，于是不动它。")
}

// ended tells a thread whose program stopped on an error (a Redis error
// its code does not handle): the end of its critical section, when it was
// inside, with no release.
func (n *Narrator) ended(e *sim.Event) []Line {
	who, w := e.Who(), e.Words()
	inside := n.in[who]
	delete(n.in, who)
	if !e.Failed() {
		return nil
	}
	if f := e.Fact; f.Key == fact.Failed && f.Reason == nil {
		w.Zh = f.Text // the error's own words, without the catalogue's "出错：" the sentence already says
	}
	if inside {
		return n.one(e, Claim{Kind: ClaimEnds, Inside: []string{who}},
			fmt.Sprintf("%s's program stops on an error inside the critical section: %s. It leaves the critical section here, without releasing the lock.", who, w.En),
			fmt.Sprintf("%s 的程序在临界区里因错误停止：%s。它就此离开临界区，没有释放锁。", who, w.Zh))
	}
	return n.one(e, Claim{Kind: ClaimEnds}, fmt.Sprintf("%s's program stops on an error: %s.", who, w.En),
		fmt.Sprintf("%s 的程序因错误停止：%s。", who, w.Zh))
}

// orphan tells, once, of a watchdog that renews a lock for a thread that
// died on an error: nobody will ever release the lock it keeps alive.
func (n *Narrator) orphan(e *sim.Event, f *fact.Fact) []Line {
	if f.Key != fact.RenewedOrphan || n.orphans[e.Who()] {
		return nil
	}
	n.orphans[e.Who()] = true
	return n.one(e, Claim{}, fmt.Sprintf("%s's watchdog renews %s for a thread of %s that died on an error: an orphaned watchdog keeps the lock alive for as long as %s runs, and nobody will release it.", e.Client, lockName(e.Lock), e.Client, e.Client),
		fmt.Sprintf("%s 的看门狗还在续期%s，可它续期的 %s 的线程已经因错误死了：这只孤儿看门狗会在 %s 运行期间一直让锁活着，而没有人会释放它。", e.Client, lockNameZh(e.Lock), e.Client, e.Client))
}
