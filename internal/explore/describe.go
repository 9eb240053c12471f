package explore

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// Describe says in plain words, in English and 中文, what a found schedule
// is: the faults the search placed, each where and when it landed in log
// (the replay of the recording), the order of moves it chose, and what
// came of it: when the lock's lease ran out and who took the lock next,
// then the checker's sentence for verdict. choices are the search's
// schedule entries (Result.Shrunk).
//
//	A stops for 540ms as it enters its critical section (at 0.001s). The
//	lock on redis expires at 1.001s; B takes it at 1.1s, 99ms later. B
//	entered the critical section of lock (#41) while A ... was still inside.
func Describe(log []*sim.Event, choices []scenario.Action, verdict string) sim.Text {
	var en, zh []string
	var order []scenario.Action
	for _, a := range choices {
		if a.Do == scenario.StepAction {
			order = append(order, a)
			continue
		}
		e := faultEvent(log, a)
		if e == nil {
			continue
		}
		t := describeFault(log, a, e)
		en, zh = append(en, t.En), append(zh, t.Zh)
	}
	if len(order) > 0 {
		t := describeOrder(log, order)
		en, zh = append(en, t.En), append(zh, t.Zh)
	}
	v := firstVerdict(log, verdict)
	if v != nil {
		if t, ok := describeLease(log, v); ok {
			en, zh = append(en, t.En), append(zh, t.Zh)
		}
		if v.Say != nil {
			en, zh = append(en, v.Say.En), append(zh, v.Say.Zh)
		}
	}
	if len(en) == 0 {
		return sim.Text{En: "The scenario's own schedule breaks it: no fault or choice was needed.",
			Zh: "场景自己的调度就会出错：不需要任何故障或选择。"}
	}
	return sim.Text{En: sentences(en, ". "), Zh: sentences(zh, "。")}
}

// sentences joins clauses as sentences, each ended once.
func sentences(parts []string, stop string) string {
	var b strings.Builder
	for i, p := range parts {
		p = strings.TrimSpace(p)
		p = strings.TrimRight(p, ".。")
		b.WriteString(p)
		if stop == ". " {
			b.WriteString(".")
			if i < len(parts)-1 {
				b.WriteString(" ")
			}
		} else {
			b.WriteString(stop)
		}
	}
	return b.String()
}

// faultEvent is the fault event a placed fault produced in log, or nil.
func faultEvent(log []*sim.Event, a scenario.Action) *sim.Event {
	seqs := Marks(log, []scenario.Action{a})
	if len(seqs) == 0 {
		return nil
	}
	for _, e := range log {
		if e.Seq == seqs[0] {
			return e
		}
	}
	return nil
}

func at(t time.Duration) string { return sim.FormatTime(t) }

// describeFault says what one placed fault was and where it landed.
func describeFault(log []*sim.Event, a scenario.Action, e *sim.Event) sim.Text {
	d := a.Size().D()
	when := sim.Text{En: "at " + at(e.T), Zh: "在 " + at(e.T) + " "}
	switch {
	case a.On != nil && a.On.Kind == string(sim.KindMark):
		who := a.On.Client
		if who == a.Client {
			who = "" // the fault hits the client at its own mark: "it"
		}
		p := sim.MarkPhrase(a.On.Name, who)
		when = sim.Text{En: p.En + " (at " + at(e.T) + ")", Zh: p.Zh + "（" + at(e.T) + "）就"}
	case a.On != nil && a.On.Kind == string(sim.KindExec) && a.On.Client == a.Client:
		// a point (Options.Points): right after a node ran the command
		cmd := strings.ToUpper(a.On.Cmd)
		when = sim.Text{En: fmt.Sprintf("right after its %s ran, before the reply reached it (at %s)", cmd, at(e.T)),
			Zh: fmt.Sprintf("在它的 %s 刚执行完、回复还没到它手里时（%s）就", cmd, at(e.T))}
	}
	// Any other event a fault is recorded on (a reply, a send: anchor.go)
	// is told by its time alone, as a fault placed at a step.
	c, n := a.Client, a.Node
	switch sim.FaultKind(a.Do) {
	case sim.FaultPause:
		return sim.Text{En: fmt.Sprintf("%s stops for %s %s", c, at(d), when.En), Zh: fmt.Sprintf("%s %s停顿了 %s", c, when.Zh, at(d))}
	case sim.FaultCrash:
		return sim.Text{En: fmt.Sprintf("%s crashes %s", c, when.En), Zh: fmt.Sprintf("%s %s崩溃了", c, when.Zh)}
	case sim.FaultDropReply, sim.FaultDropRequest:
		return describeDrop(log, e, a, when)
	case sim.FaultNodeCrash:
		if d > 0 {
			return sim.Text{En: fmt.Sprintf("%s goes down %s and comes back empty %s later", n, when.En, at(d)),
				Zh: fmt.Sprintf("%s %s宕机，%s 后不带数据重启", n, when.Zh, at(d))}
		}
		return sim.Text{En: fmt.Sprintf("%s goes down %s for good", n, when.En), Zh: fmt.Sprintf("%s %s宕机，再也没有回来", n, when.Zh)}
	case sim.FaultClockJump:
		dir, dirZh := "forward", "向前"
		if d < 0 {
			dir, dirZh, d = "back", "向后", -d
		}
		return sim.Text{En: fmt.Sprintf("%s's clock jumps %s %s %s", n, at(d), dir, when.En),
			Zh: fmt.Sprintf("%s 的时钟%s%s跳了 %s", n, when.Zh, dirZh, at(d))}
	case sim.FaultFailover:
		return sim.Text{En: fmt.Sprintf("%s fails over %s: its replica is promoted with what it had received", n, when.En),
			Zh: fmt.Sprintf("%s %s发生主从切换：副本带着它已收到的数据被提升为主节点", n, when.Zh)}
	case sim.FaultPartition:
		if d > 0 {
			return sim.Text{En: fmt.Sprintf("%s is cut off from %s %s for %s", c, n, when.En, at(d)),
				Zh: fmt.Sprintf("%s 与 %s %s断开 %s", c, n, when.Zh, at(d))}
		}
		return sim.Text{En: fmt.Sprintf("%s is cut off from %s %s for good", c, n, when.En),
			Zh: fmt.Sprintf("%s 与 %s %s永久断开", c, n, when.Zh)}
	}
	return faultByName(e, when)
}

// faultByName says a fault of a kind without its own case above by what
// the engine said of it, its event's fact (in both languages), and when;
// by its kind's name where the event has no fact. A new kind is so said
// in full without a case here: give it one only for a fuller sentence.
func faultByName(e *sim.Event, when sim.Text) sim.Text {
	if note := e.Fact.Render(); note.En != "" && note.Zh != "" {
		return sim.Text{En: fmt.Sprintf("%s %s", strings.TrimSuffix(note.En, "."), when.En), Zh: fmt.Sprintf("%s%s", when.Zh, note.Zh)}
	}
	return sim.Text{En: fmt.Sprintf("%s %s", e.Name, when.En), Zh: fmt.Sprintf("%s %s", when.Zh, e.Name)}
}

// describeDrop tells a dropped request or reply: the command whose
// message was lost, or, when none was, the plan.
func describeDrop(log []*sim.Event, e *sim.Event, a scenario.Action, when sim.Text) sim.Text {
	c, what := a.Client, "reply"
	if a.Do == string(sim.FaultDropRequest) {
		what = "request"
	}
	for _, l := range log {
		if l.Seq > e.Seq && l.Kind == sim.KindLost && l.Client == c && l.Name == what {
			cmd := strings.Join(l.Cmd, " ")
			if what == "reply" {
				return sim.Text{En: fmt.Sprintf("The reply to %s's %s is lost (at %s)", c, cmd, at(l.T)),
					Zh: fmt.Sprintf("%s 的 %s 的回复丢失了（%s）", c, cmd, at(l.T))}
			}
			return sim.Text{En: fmt.Sprintf("%s's %s never reaches %s (at %s)", c, cmd, l.Node, at(l.T)),
				Zh: fmt.Sprintf("%s 的 %s 没有到达 %s（%s）", c, cmd, l.Node, at(l.T))}
		}
	}
	return sim.Text{En: fmt.Sprintf("The next %s of %s is to be lost, %s", what, c, when.En),
		Zh: fmt.Sprintf("%s %s之后的下一个%s会丢失", c, when.Zh, map[string]string{"reply": "回复", "request": "请求"}[what])}
}

// describeOrder says which client the search let move first: the first
// two choices, and how many more. Choices of the same client at the same
// moment, one after the other, are one choice said with how many steps
// it takes ahead ("A moves first at 0.001s, 2 steps in a row").
func describeOrder(log []*sim.Event, order []scenario.Action) sim.Text {
	type group struct {
		client string
		t      time.Duration
		n      int
	}
	var groups []group
	for _, a := range order {
		t := time.Duration(-1)
		for _, e := range log {
			if e.Step == a.Step+1 && e.Client == a.Client {
				t = e.T
				break
			}
		}
		if n := len(groups); n > 0 && groups[n-1].client == a.Client && groups[n-1].t == t {
			groups[n-1].n++
			continue
		}
		groups = append(groups, group{a.Client, t, 1})
	}
	var en, zh []string
	said := 0
	for _, g := range groups[:min(2, len(groups))] {
		if g.t < 0 {
			continue
		}
		said += g.n
		e, z := fmt.Sprintf("%s move first at %s", g.client, at(g.t)), fmt.Sprintf("%s 在 %s 抢先行动", g.client, at(g.t))
		if g.n > 1 {
			e += fmt.Sprintf(", %d steps in a row", g.n)
			z += fmt.Sprintf("，连走 %d 步", g.n)
		}
		en, zh = append(en, e), append(zh, z)
	}
	if more := len(order) - said; more > 0 {
		w := "choices"
		if more == 1 {
			w = "choice"
		}
		if len(en) == 0 {
			return sim.Text{En: fmt.Sprintf("The search chooses who moves first %d times", more),
				Zh: fmt.Sprintf("搜索 %d 次选择谁先行动", more)}
		}
		return sim.Text{En: "The search lets " + strings.Join(en, ", then ") + fmt.Sprintf(", then %d more %s of who moves first", more, w),
			Zh: "搜索让 " + strings.Join(zh, "，然后 ") + fmt.Sprintf("，然后另有 %d 次选择谁先行动", more)}
	}
	return sim.Text{En: "The search lets " + strings.Join(en, ", then "), Zh: "搜索让 " + strings.Join(zh, "，然后 ")}
}

// firstVerdict is the first verdict event named v (or any violation when
// v is empty).
func firstVerdict(log []*sim.Event, v string) *sim.Event {
	for _, e := range log {
		if e.Kind == sim.KindVerdict && (e.Name == v || v == "" && e.Name != sim.VerdictSafe) {
			return e
		}
	}
	return nil
}

// describeLease says when a lock key last expired before the verdict
// event v and who took it next: the lease running out under its holder.
func describeLease(log []*sim.Event, v *sim.Event) (sim.Text, bool) {
	locks := map[string]bool{}
	for _, e := range log {
		if e.Kind == sim.KindMark && e.Lock != "" {
			locks[e.Lock] = true
		}
	}
	var exp *sim.Event
	var key string
	for _, e := range log {
		if e.Seq > v.Seq {
			break
		}
		if e.Kind != sim.KindExpire {
			continue
		}
		for _, k := range e.Keys {
			if locks[k.Key] && !k.Exists() {
				exp, key = e, k.Key
			}
		}
	}
	if exp == nil {
		return sim.Text{}, false
	}
	for _, e := range log {
		if e.Seq <= exp.Seq || e.Seq > v.Seq || e.Kind != sim.KindExec || e.Node != exp.Node {
			continue
		}
		i := slices.IndexFunc(e.Keys, func(k sim.KeyState) bool { return k.Key == key && k.Exists() && k.Owner == e.Client })
		if i < 0 {
			continue
		}
		gap := e.T - exp.T
		return sim.Text{
			En: fmt.Sprintf("The lock on %s expires at %s; %s's %s takes it at %s, %s later", exp.Node, at(exp.T), e.Client, e.CmdText(), at(e.T), at(gap)),
			Zh: fmt.Sprintf("%s 上的锁在 %s 过期；%s 的 %s 在 %s 拿到了它，晚了 %s", exp.Node, at(exp.T), e.Client, e.CmdText(), at(e.T), at(gap)),
		}, true
	}
	return sim.Text{En: fmt.Sprintf("The lock on %s expires at %s", exp.Node, at(exp.T)),
		Zh: fmt.Sprintf("%s 上的锁在 %s 过期", exp.Node, at(exp.T))}, true
}
