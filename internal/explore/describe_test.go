package explore

import (
	"strings"
	"testing"
	"time"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// describe searches a lesson exhaustively and describes what it found.
func describe(t *testing.T, id, budget string) (en, zh string) {
	t.Helper()
	res := search(t, lessonNamed(t, id, budget), Options{Strategy: Exhaustive, Exact: true})
	if res.Recording == nil {
		t.Fatalf("%s: nothing found", id)
	}
	s, err := Replay(res.Recording)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	d := Describe(s.Log(), res.Shrunk, res.Verdict)
	return d.En, d.Zh
}

// A found schedule in plain words: the fault the search placed, where it
// landed, what the lease did, and the checker's sentence. The Lua lock
// with a 1s pause: B stops while still inside, its lease runs out, C
// takes the lock and enters beside it. The pause is shrunk to the
// shortest that breaks the lock (0.6s) plus the margin a shrunk schedule
// keeps for a real server's latency (Margin, 0.1s).
func TestDescribeAPauseInside(t *testing.T) {
	en, zh := describe(t, "lua-cad-slow-release", "pause:1s")
	for _, want := range []string{"B stops for 0.7s right after it writes the stock back, still inside (at ",
		"The lock on redis expires at ", "; C's SET lock ", " takes it at ", "C entered the critical section of lock"} {
		if !strings.Contains(en, want) {
			t.Errorf("%q lacks %q", en, want)
		}
	}
	for _, want := range []string{"B 刚写回库存、还在临界区内（", "）就停顿了 0.7s", "redis 上的锁在", "过期；C 的 SET lock", "互斥被打破"} {
		if !strings.Contains(zh, want) {
			t.Errorf("%q lacks %q", zh, want)
		}
	}
}

// A crash and a failover, each said with where it landed; a lesson that
// breaks with no choice at all says so through its verdict alone.
func TestDescribeOtherFaults(t *testing.T) {
	en, zh := describe(t, "setnx-crash-deadlock", "crash")
	if !strings.Contains(en, "crashes as it") || !strings.Contains(en, "no expiry") || !strings.Contains(zh, "就崩溃了") {
		t.Errorf("crash: %q / %q", en, zh)
	}
	en, zh = describe(t, "failover-lost-lock", "failover")
	// The failover lands at a client's mark or at an instant; at a mark
	// the sentence names the client (the node does not enter anything).
	if !strings.HasPrefix(en, "master fails over ") || strings.Contains(en, " as it ") || !strings.Contains(zh, "发生主从切换") {
		t.Errorf("failover: %q / %q", en, zh)
	}
	en, _ = describe(t, "no-lock-oversell", "")
	if !strings.HasPrefix(en, "The stock held 1, but 2 deductions were written back") {
		t.Errorf("no choice needed: %q", en)
	}
}

// The fault kinds a search places that describeFault says in a sentence
// of their own, fuller than the engine's note: each is checked with an
// event that has no note, so its case is what says it.
var describedKinds = []sim.FaultKind{sim.FaultCrash, sim.FaultPause, sim.FaultDropRequest, sim.FaultDropReply,
	sim.FaultPartition, sim.FaultNodeCrash, sim.FaultClockJump, sim.FaultFailover}

// A fault a search places is said in both languages: the kinds above by
// their own sentence, and a kind without a case (a throwaway, declared
// here only) by what the engine said of it, its event's fact, and when,
// not by its bare name. A new kind then needs no case in describe.go.
func TestEverySearchedFaultKindIsDescribed(t *testing.T) {
	when := sim.Text{En: "at 1s", Zh: "在 1s "}
	for _, k := range describedKinds {
		a := scenario.Action{Fault: scenario.Fault{Do: string(k), Client: "A", Node: "redis", For: scenario.Duration(time.Second), By: scenario.Duration(time.Second)}}
		e := &sim.Event{Seq: 1, T: time.Second, Kind: sim.KindFault, Name: string(k), Client: "A", Node: "redis"}
		got := describeFault([]*sim.Event{e}, a, e)
		if byName := faultByName(e, when); got.En == byName.En && got.Zh == byName.Zh || got.En == "" || got.Zh == "" || got.En == got.Zh {
			t.Errorf("%s: said by its name alone (%q / %q): give it its case in describeFault, or take it off describedKinds", k, got.En, got.Zh)
		}
	}
	note := &fact.Fact{Key: fact.Paused, Client: "A", For: time.Second}
	a := scenario.Action{Fault: scenario.Fault{Do: "throwaway", Client: "A"}}
	e := &sim.Event{Seq: 1, T: time.Second, Kind: sim.KindFault, Name: "throwaway", Client: "A", Fact: note}
	got, said := describeFault([]*sim.Event{e}, a, e), note.Render()
	if !strings.Contains(got.En, strings.TrimSuffix(said.En, ".")) || !strings.Contains(got.En, "at 1s") ||
		!strings.Contains(got.Zh, said.Zh) || strings.Contains(got.En, "throwaway") || strings.Contains(got.Zh, "throwaway") {
		t.Errorf("a kind without a case: got %q / %q, want the engine's note %q / %q and when", got.En, got.Zh, said.En, said.Zh)
	}
}

// The bound of a search says what it covered: with no budget, that only
// the order of tied moves was searched; with one, the sizes it tries.
func TestBoundText(t *testing.T) {
	sc := lessonNamed(t, "watch-three-buyers", "")
	b, err := Bound(sc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.En, "no fault (the budget is empty): only the order of the clients' moves is searched;") ||
		!strings.Contains(b.En, "5s and at most 2000 engine steps a schedule") || !strings.HasPrefix(b.Zh, "没有故障（预算为空）") {
		t.Errorf("no budget: %q / %q", b.En, b.Zh)
	}
	sc = lessonNamed(t, "lua-cad-slow-release", "pause:4s,crash")
	b, _ = Bound(sc, Options{})
	if !strings.HasPrefix(b.En, "1 × pause of 1s, 2s, 3s, 4s; 1 × crash;") {
		t.Errorf("quarters: %q", b.En)
	}
	b, _ = Bound(sc, Options{Exact: true, Marks: []string{"enter"}})
	if !strings.HasPrefix(b.En, "1 × pause of 4s; 1 × crash; client faults only at the marks enter;") {
		t.Errorf("exact, on marks: %q", b.En)
	}
}

// Choices of the same client at the same moment, one after the other, are
// said once with their count: "A move first at 0.001s, then A move first
// at 0.001s" read as a stutter on the report card.
func TestOrderSaysRepeatedChoicesOnce(t *testing.T) {
	ms := time.Millisecond
	log := []*sim.Event{
		{Step: 1, Client: "A", T: ms}, {Step: 2, Client: "A", T: ms},
		{Step: 3, Client: "B", T: 2 * ms}, {Step: 4, Client: "A", T: 3 * ms},
	}
	step := func(client string, at int) scenario.Action {
		return scenario.Action{Step: at, Fault: scenario.Fault{Do: sim.StepAction, Client: client}}
	}
	order := []scenario.Action{step("A", 0), step("A", 1), step("B", 2), step("A", 3)}
	got := describeOrder(log, order)
	want := sim.Text{En: "The search lets A move first at 0.001s, 2 steps in a row, then B move first at 0.002s, then 1 more choice of who moves first",
		Zh: "搜索让 A 在 0.001s 抢先行动，连走 2 步，然后 B 在 0.002s 抢先行动，然后另有 1 次选择谁先行动"}
	if got.En != want.En || got.Zh != want.Zh {
		t.Errorf("got\n%q\n%q\nwant\n%q\n%q", got.En, got.Zh, want.En, want.Zh)
	}
}
