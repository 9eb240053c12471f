package explore

import (
	"strings"
	"time"

	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// A fault the search placed after a step is recorded on an event of the
// run, not at the step's number. A real redis-server takes other steps
// than embedded Redis: its script cache outlives a session, so an EVALSHA
// that embedded Redis answers NOSCRIPT (and the client follows with an
// EVAL) succeeds at once there, and every later step number names another
// moment, or one never reached. An event (B's fourth reply, A's release
// mark) is the same moment on both.
//
// Of the events before the fault, the one chosen is the one whose
// schedule keeps its verdict most often when every message is up to
// RealJitter late (JitterRuns runs, seeds 1 to JitterRuns): what a real
// server's round trips do to a schedule; among equally robust ones, the
// latest (the step's own last event when it is among them).
const (
	// RealJitter is the extra latency, in [0, RealJitter) per message,
	// under which a found schedule's margin is measured: tens of round
	// trips on a loaded machine's loopback.
	RealJitter = 20 * time.Millisecond
	// JitterRuns is how many jittered runs measure a schedule's margin.
	JitterRuns = 8
	// anchorLimit is the most events before a fault tried as its anchor.
	anchorLimit = 40
)

// anchorable tells the events a fault may be recorded on: a client's
// marks and messages, a node's execution of a command and a timeout.
// matchOf then refuses those whose count holds a NOSCRIPT round.
func anchorable(e *sim.Event) bool {
	switch e.Kind {
	case sim.KindMark, sim.KindSend, sim.KindExec, sim.KindReply, sim.KindLost, sim.KindTimeout:
		return e.Client != ""
	}
	return false
}

// matchOf is the match that names e in log: its kind, client (client,
// "" for any), node, command and name, and how many events of log up to
// e it matches. ok is
// false when that count holds an event of a script's NOSCRIPT round (a
// reply has no command to tell it by), which a real server may skip.
func matchOf(log []*sim.Event, e *sim.Event, client string) (m scenario.Match, ok bool) {
	m = scenario.Match{Kind: string(e.Kind), Client: client, Node: e.Node, Name: e.Name}
	if len(e.Cmd) > 0 {
		m.Cmd = strings.ToUpper(e.Cmd[0])
	}
	sent := map[int]*sim.Event{}
	ok = true
	for _, x := range log {
		if x.Kind == sim.KindSend {
			sent[x.Seq] = x
		}
		if lesson.Matches(&m, x) {
			m.Nth++
			ok = ok && !noscriptRound(x, sent)
		}
		if x == e {
			break
		}
	}
	return m, ok
}

// noscriptRound tells an event of the round a script's first call takes
// on a server that does not hold it yet: the NOSCRIPT error, and the EVAL
// that follows it (its send, execution and reply), by the request it
// answers when it names no command.
func noscriptRound(x *sim.Event, sent map[int]*sim.Event) bool {
	if strings.Contains(x.Reply, "NOSCRIPT") {
		return true
	}
	cmd := x.Cmd
	if len(cmd) == 0 && sent[x.Req] != nil {
		cmd = sent[x.Req].Cmd
	}
	return len(cmd) > 0 && strings.EqualFold(cmd[0], "EVAL")
}

// anchor records each fault of actions placed at a step on an event
// (above). A fault no event keeps the verdict for stays at its step. It
// stops early, keeping what it has, when p says the search must stop.
func (sh *shrinker) anchor(actions []scenario.Action, h time.Duration) ([]scenario.Action, error) {
	cur := append([]scenario.Action(nil), actions...)
	for i, a := range cur {
		if a.Do == scenario.StepAction || a.On != nil {
			continue
		}
		log, err := sh.log(cur, h)
		if err != nil || log == nil {
			return cur, err
		}
		fe := faultAtStep(log, a)
		if len(fe) == 0 {
			continue
		}
		best, err := sh.bestAnchor(cur, i, log, fe[0], h)
		if err != nil || sh.cut {
			return cur, err
		}
		if best != nil {
			cur[i] = *best
		}
	}
	return cur, nil
}

// bestAnchor is entry i of cur recorded on the event of log, near its
// fault's event (seq), that keeps the verdict in the most jittered runs,
// the nearest of those; nil when none keeps it.
func (sh *shrinker) bestAnchor(cur []scenario.Action, i int, log []*sim.Event, seq int, h time.Duration) (*scenario.Action, error) {
	var best *scenario.Action
	bestScore := -1
	for _, m := range anchors(log, seq, cur[i].Client == "") {
		cand := cur[i]
		cand.On = &m
		try := append([]scenario.Action(nil), cur...)
		try[i] = cand
		ok, err := sh.holds(try, h)
		if err != nil || sh.cut {
			return nil, err
		}
		if !ok {
			continue
		}
		score, err := sh.robust(try, h)
		if err != nil || sh.cut {
			return nil, err
		}
		if score > bestScore {
			best, bestScore = &cand, score
		}
		if score == JitterRuns {
			break
		}
	}
	return best, nil
}

// anchors are the matches of the events near seq (nearby) that a fault
// may be recorded on. For a node's fault (node) a command the node ran
// is named first by the node alone, then by its client too: "the
// node's second MULTI" holds whichever client's comes first, where two
// send theirs at the same moment and a real server may take them in the
// other order.
func anchors(log []*sim.Event, seq int, node bool) []scenario.Match {
	var out []scenario.Match
	for _, e := range nearby(log, seq) {
		if node && e.Kind == sim.KindExec {
			if m, ok := matchOf(log, e, ""); ok {
				out = append(out, m)
			}
		}
		if m, ok := matchOf(log, e, e.Client); ok {
			out = append(out, m)
		}
	}
	return out
}

// nearby are the anchorable events of log around the event seq, the
// nearest first, one before and one after in turn: anchorLimit before
// it, half as many after (a fault a little later may hold as well, and
// keep its moment better: a node down while a renewal is under way).
func nearby(log []*sim.Event, seq int) []*sim.Event {
	at := 0
	for at < len(log) && log[at].Seq != seq {
		at++
	}
	var before, after []*sim.Event
	for j := at - 1; j >= 0 && len(before) < anchorLimit; j-- {
		if anchorable(log[j]) {
			before = append(before, log[j])
		}
	}
	for j := at + 1; j < len(log) && len(after) < anchorLimit/2; j++ {
		if anchorable(log[j]) {
			after = append(after, log[j])
		}
	}
	var out []*sim.Event
	for k := 0; k < len(before) || k < len(after); k++ {
		if k < len(before) {
			out = append(out, before[k])
		}
		if k < len(after) {
			out = append(out, after[k])
		}
	}
	return out
}

// log is the event log of a replay of actions with horizon h; nil when
// the pacer says stop.
func (sh *shrinker) log(actions []scenario.Action, h time.Duration) ([]*sim.Event, error) {
	sc := *sh.sc
	sc.Horizon = scenario.Duration(h)
	sess, err := replay(sh.p, withFaults(&sc, actions))
	if stopped(err) {
		sh.cut = true
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer sess.Close()
	return sess.Log(), nil
}

// robust counts the jittered runs of actions (RealJitter, seeds 1 to
// JitterRuns) that still give the verdict: the schedule's margin against
// real latency.
func (sh *shrinker) robust(actions []scenario.Action, h time.Duration) (int, error) {
	sc := *sh.sc
	sc.Horizon = scenario.Duration(h)
	sc.Network.Jitter = max(sc.Network.Jitter, scenario.Duration(RealJitter))
	n := 0
	for seed := int64(1); seed <= JitterRuns; seed++ {
		if sh.cut || !sh.p.check() {
			sh.cut = true
			return n, nil
		}
		sh.replays++
		vs, ok, err := replayQuiet(sh.p, &sc, seed, actions, sh.verdict)
		if stopped(err) {
			sh.cut = true
			return n, nil
		}
		if err != nil {
			return 0, err
		}
		if ok && containsStr(vs, sh.verdict) {
			n++
		}
	}
	return n, nil
}
