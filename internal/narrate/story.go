package narrate

import (
	"fmt"
	"sort"
	"strings"

	"github.com/lockstep/lockstep/internal/sim"
)

// Line is one sentence of the story, with the seqs of the events it
// describes.
type Line struct {
	Text sim.Text
	Refs []int
}

// Narrator tells a run's story event by event. Observe every event of the
// run, in order, from the first.
type Narrator struct {
	*Model
}

// New is a narrator before the run's first event.
func New() *Narrator { return &Narrator{Model: NewModel()} }

// Observe takes the next event of the run and returns what it adds to the
// story: nothing for most events (sends, replies, reads), a sentence or two
// for what changes who holds or is inside what.
func (n *Narrator) Observe(e *sim.Event) []Line {
	if e.Kind == sim.KindSay {
		return nil
	}
	// What the sentences need from before the event: who else was inside
	// (for a mark), whether an expiring key's owner was inside.
	var others []string
	if e.Kind == sim.KindMark {
		others = n.othersInside(e.Client)
	}
	var wasInside map[string]bool
	if e.Kind == sim.KindExpire {
		wasInside = map[string]bool{}
		for _, k := range e.Keys {
			if k0, ok := n.Key(e.Node, k.Key); ok && k0.Owner != "" {
				wasInside[k0.Owner] = n.Inside(k0.Owner)
			}
		}
	}
	before := n.observe(e)
	who := e.Who()
	one := func(en, zh string, refs ...int) []Line {
		return []Line{{Text: sim.Text{En: en, Zh: zh}, Refs: append([]int{e.Seq}, refs...)}}
	}
	switch e.Kind {
	case sim.KindMark:
		switch e.Name {
		case "acquired":
			return one(who+" acquires the lock.", who+" 拿到了锁。")
		case "enter":
			if len(others) > 0 {
				names := strings.Join(others, ", ")
				return one(fmt.Sprintf("%s enters the critical section while %s %s still inside.", who, names, isAre(len(others))),
					fmt.Sprintf("%s 进入临界区，而 %s 还在里面。", who, strings.Join(others, "、")), n.enterSeqs(others)...)
			}
			return one(who+" enters the critical section.", who+" 进入临界区。")
		case "leave":
			return one(who+" leaves the critical section.", who+" 离开临界区。")
		case "released":
			return one(who+" releases the lock.", who+" 释放了锁。")
		case "release-refused":
			return one(who+"'s release finds the lock is no longer "+who+"'s and leaves it alone.",
				who+" 释放时发现锁已不是自己的，于是不动它。")
		case "not-replicated":
			return one(who+"'s WAIT finds no replica that has the lock: "+who+" gives it back and tries again.",
				who+" 的 WAIT 发现没有从节点拿到这把锁："+who+" 把锁还回去，稍后重试。")
		case "no-quorum":
			return one(fmt.Sprintf("%s gets no majority (%s) and releases on every master.", who, upTo(e.Note, ",")),
				fmt.Sprintf("%s 没有拿到多数票（%s），在所有主节点上释放。", who, upTo(e.Note, ",")))
		case "too-late":
			return one(who+" counts a majority, but its time ran out while it was asking: it does not take the lock.",
				who+" 数到了多数票，但在请求的过程中时间已经用完：它不能持有锁。")
		case "write-rejected":
			return one(fmt.Sprintf("The storage refuses %s's write: %s.", who, e.Note), fmt.Sprintf("存储拒绝了 %s 的写入：%s。", who, e.Note))
		case "deduct":
			if len(others) > 0 {
				return one(fmt.Sprintf("%s writes the stock (%s) while %s %s inside too.", who, e.Note, strings.Join(others, ", "), isAre(len(others))),
					fmt.Sprintf("%s 写回库存（%s），而 %s 也在临界区里。", who, e.Note, strings.Join(others, "、")), n.enterSeqs(others)...)
			}
		}
	case sim.KindExpire:
		var out []Line
		for _, k := range e.Keys {
			owner := ""
			if k0, ok := before[k.Key]; ok {
				owner = k0.Owner
			}
			switch {
			case owner != "" && wasInside[owner]:
				out = append(out, Line{Text: sim.Text{
					En: fmt.Sprintf("%s expires while %s is still inside.", lockOf(owner, k.Key, e.Node), owner),
					Zh: fmt.Sprintf("%s过期了，而 %s 还在临界区里。", lockOfZh(owner, k.Key, e.Node), owner)}, Refs: []int{e.Seq}})
			case owner != "":
				out = append(out, Line{Text: sim.Text{
					En: fmt.Sprintf("%s expires.", lockOf(owner, k.Key, e.Node)),
					Zh: fmt.Sprintf("%s过期了。", lockOfZh(owner, k.Key, e.Node))}, Refs: []int{e.Seq}})
			}
		}
		return out
	case sim.KindExec:
		var out []Line
		cmd := ""
		if len(e.Cmd) > 0 {
			cmd = e.Cmd[0]
			if e.Script != "" {
				cmd = e.Script
			}
		}
		for _, k := range e.Keys {
			k0, ok := before[k.Key]
			if after, ok := n.Key(e.Node, k.Key); ok {
				k = after // the state with its owner as the model attributes it
			}
			if !ok || !k0.Exists() || k0.Owner == "" || k0.Owner == e.Client || k.Owner == k0.Owner {
				continue
			}
			if !k.Exists() {
				out = append(out, Line{Text: sim.Text{
					En: fmt.Sprintf("%s's %s removes %s.", who, cmd, lockOf(k0.Owner, k.Key, e.Node)),
					Zh: fmt.Sprintf("%s 的 %s 删掉了%s。", who, cmd, lockOfZh(k0.Owner, k.Key, e.Node))}, Refs: []int{e.Seq}})
			} else {
				out = append(out, Line{Text: sim.Text{
					En: fmt.Sprintf("%s's %s overwrites %s.", who, cmd, lockOf(k0.Owner, k.Key, e.Node)),
					Zh: fmt.Sprintf("%s 的 %s 覆盖了%s。", who, cmd, lockOfZh(k0.Owner, k.Key, e.Node))}, Refs: []int{e.Seq}})
			}
		}
		return out
	case sim.KindLost:
		return one(fmt.Sprintf("%s's %s to %s is lost: %s.", who, e.CmdText(), e.Node, e.Note),
			fmt.Sprintf("%s 发往 %s 的 %s 丢失了：%s。", who, e.Node, e.CmdText(), e.Note))
	case sim.KindTimeout:
		return one(fmt.Sprintf("%s gives up waiting for %s's reply.", who, e.Node),
			fmt.Sprintf("%s 等不到 %s 的回复，放弃了。", who, e.Node))
	case sim.KindFault:
		return one(faultText(e))
	case sim.KindVerdict:
		if e.Name == sim.VerdictSafe {
			return one("The checker finds the run safe.", "检查器判定：这次运行是安全的。")
		}
		return one("The checker finds "+e.Name+".", "检查器判定："+e.Name+"。", e.Refs...)
	}
	return nil
}

// othersInside lists who is inside among the clients other than c.
func (n *Narrator) othersInside(c string) []string {
	var out []string
	for _, who := range n.Insiders() {
		if client(who) != c {
			out = append(out, who)
		}
	}
	return out
}

// enterSeqs are the seqs of the enter marks of insiders.
func (n *Narrator) enterSeqs(who []string) []int {
	out := make([]int, 0, len(who))
	for _, w := range who {
		if s, ok := n.inside[w]; ok {
			out = append(out, s)
		}
	}
	return out
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// faultText says what a fault did.
func faultText(e *sim.Event) (string, string) {
	target := e.Client
	if target == "" {
		target = e.Node
	} else if e.Node != "" {
		target += " / " + e.Node
	}
	if strings.HasPrefix(e.Note, "not applied") {
		return fmt.Sprintf("The %s of %s is not applied (%s).", e.Name, target, e.Note),
			fmt.Sprintf("对 %s 的 %s 没有生效（%s）。", target, e.Name, e.Note)
	}
	switch sim.FaultKind(e.Name) {
	case sim.FaultPause:
		d := after(e.Note, " for ")
		return fmt.Sprintf("%s stops for %s (a pause: GC, a frozen VM).", e.Client, d), fmt.Sprintf("%s 停住了 %s（暂停：GC、虚拟机冻结）。", e.Client, d)
	case sim.FaultPartition:
		return fmt.Sprintf("%s is cut off from %s.", e.Node, or(e.Client, "every client")), fmt.Sprintf("%s 与 %s 之间的网络断开了。", e.Node, or(e.Client, "所有客户端"))
	case sim.FaultCrash:
		return e.Client + " crashes.", e.Client + " 崩溃了。"
	case sim.FaultRestart:
		return e.Client + " starts again.", e.Client + " 重新启动。"
	case sim.FaultNodeCrash:
		return e.Node + " goes down.", e.Node + " 宕机了。"
	case sim.FaultNodeRestart:
		if strings.Contains(e.Note, "empty") {
			return e.Node + " comes back empty: every key it held is gone.", e.Node + " 恢复了，但是空的：它原来的键全都没了。"
		}
		return e.Node + " comes back.", e.Node + " 恢复了。"
	case sim.FaultFailover:
		return fmt.Sprintf("Failover: %s (%s).", e.Node, e.Note), fmt.Sprintf("主从切换：%s（%s）。", e.Node, e.Note)
	case sim.FaultClockJump:
		d := after(e.Note, " by ")
		return fmt.Sprintf("%s's clock jumps by %s.", e.Node, d), fmt.Sprintf("%s 的时钟跳变了 %s。", e.Node, d)
	case "resume":
		return e.Client + " runs again.", e.Client + " 恢复运行。"
	}
	if e.Note != "" {
		return fmt.Sprintf("Fault %s on %s: %s.", e.Name, target, e.Note), fmt.Sprintf("故障 %s（%s）：%s。", e.Name, target, e.Note)
	}
	return fmt.Sprintf("Fault %s on %s.", e.Name, target), fmt.Sprintf("故障 %s（%s）。", e.Name, target)
}

// after is the text of note after sep ("A stops the world for 1s", " for "
// gives 1s), or the whole note when sep is not in it.
func after(note, sep string) string {
	if i := strings.LastIndex(note, sep); i >= 0 {
		return note[i+len(sep):]
	}
	return note
}

func or(s, otherwise string) string {
	if s == "" {
		return otherwise
	}
	return s
}

// Now is a line that says where things stand: who is inside, and which
// keys hold whose lock. ok is false when there is nothing to say (no one
// inside, no key holding a lock).
func (n *Narrator) Now() (Line, bool) {
	var en, zh []string
	var refs []int
	in := n.Insiders()
	if len(in) > 0 {
		en = append(en, fmt.Sprintf("%s %s inside", strings.Join(in, ", "), isAre(len(in))))
		zh = append(zh, strings.Join(in, "、")+" 在临界区里")
		refs = n.enterSeqs(in)
	}
	nodes := make([]string, 0, len(n.keys))
	for node := range n.keys {
		if !n.down[node] {
			nodes = append(nodes, node)
		}
	}
	sort.Strings(nodes)
	for _, node := range nodes {
		keys := make([]string, 0, len(n.keys[node]))
		for key, k := range n.keys[node] {
			if k.Exists() && k.Owner != "" {
				keys = append(keys, key)
			}
		}
		sort.Strings(keys)
		for _, key := range keys {
			owner := n.keys[node][key].Owner
			en = append(en, fmt.Sprintf("%s on %s holds %s's lock", key, node, owner))
			zh = append(zh, fmt.Sprintf("%s 上的 %s 是 %s 的锁", node, key, owner))
		}
	}
	if len(en) == 0 {
		return Line{}, false
	}
	return Line{Text: sim.Text{En: "Where things stand: " + strings.Join(en, "; ") + ".", Zh: "现在的情况：" + strings.Join(zh, "；") + "。"}, Refs: refs}, true
}

// lockOf names a client's lock: "A's lock on redis", or "A's lock (key
// lock:token) on redis" for a key not named lock.
func lockOf(owner, key, node string) string {
	if key == "lock" {
		return fmt.Sprintf("%s's lock on %s", owner, node)
	}
	return fmt.Sprintf("%s's lock (key %s) on %s", owner, key, node)
}

// lockOfZh is lockOf in Chinese: "A 在 redis 上的锁".
func lockOfZh(owner, key, node string) string {
	if key == "lock" {
		return fmt.Sprintf(" %s 在 %s 上的锁", owner, node)
	}
	return fmt.Sprintf(" %s 在 %s 上的锁（key %s）", owner, node, key)
}

// upTo is the text of note before sep ("2/5 in 10ms, need 3", "," gives
// 2/5 in 10ms), or the whole note.
func upTo(note, sep string) string {
	if i := strings.Index(note, sep); i >= 0 {
		return note[:i]
	}
	return note
}
