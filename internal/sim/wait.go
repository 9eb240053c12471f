package sim

import (
	"github.com/lockstep/lockstep/internal/fact"
	"slices"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// WAIT numreplicas timeout, sent to a master with a replica, is answered
// by the engine: at once if the replica has applied every write the
// master had shipped when WAIT arrived, else when it has, or with the
// count so far (0) when the timeout (ms, 0 = for ever) runs out. If the
// master dies first the client's connection drops.

// waitReq is one WAIT command blocked on a master.
type waitReq struct {
	req    *request
	target int
	timer  *item
}

// holdWait takes over a WAIT command that reached a master with a replica.
// It reports whether it did.
func (w *World) holdWait(req *request) bool {
	if len(req.args) != 1 || len(req.args[0]) != 3 || req.args[0][0] != "WAIT" {
		return false
	}
	l := w.linkFrom(req.node)
	if l == nil {
		return false
	}
	want, err1 := strconv.Atoi(req.args[0][1])
	ms, err2 := strconv.Atoi(req.args[0][2])
	if err1 != nil || err2 != nil || ms < 0 {
		return false // let the server answer the syntax error
	}
	wr := &waitReq{req: req, target: l.sent}
	if want <= 0 || l.applied >= wr.target {
		w.answerWait(l, wr)
		return true
	}
	l.waits = append(l.waits, wr)
	w.emit(Event{Kind: KindMark, Client: req.th.proc.name, Thread: req.th.name, Node: req.node.name, Name: "wait-blocked",
		Fact: &fact.Fact{Key: fact.WaitBlocks, Replica: l.replica.name, Have: l.applied, Want: wr.target}})
	if ms > 0 {
		wr.timer = &item{t: w.now + time.Duration(ms)*time.Millisecond, kind: itemWorld, label: "wait timeout",
			fn: func() { w.answerWait(l, wr) }}
		w.q.push(wr.timer)
	}
	return true
}

// answerWait replies to a WAIT with the number of replicas that have
// applied every write up to it (0 or 1).
func (w *World) answerWait(l *link, wr *waitReq) {
	w.dropWait(l, wr)
	req := wr.req
	n := int64(0)
	said := &fact.Fact{Key: fact.WaitTimedOut, Replica: l.replica.name, Have: l.applied, Want: wr.target, Engine: l.real != nil}
	if l.applied >= wr.target {
		n, said = 1, &fact.Fact{Key: fact.WaitApplied, Replica: l.replica.name, Engine: l.real != nil}
	}
	setInt(req.cmds, n)
	req.err = nil
	req.reply = "(integer) " + strconv.FormatInt(n, 10)
	req.answer = Answer{Type: AnswerInt, Gist: req.reply[len("(integer) "):]}
	p := req.th.proc
	w.emit(Event{Kind: KindExec, Client: p.name, Thread: req.th.name, Node: req.node.name, Req: req.seq, Sent: req.sent,
		Cmd: flatten(req.args), Reply: req.reply, Answer: req.answer, Fact: said})
	w.schedule(req.item(w.now+w.latency(p), itemReply))
}

// dropWait takes a blocked WAIT off its link, and its timeout off the queue.
func (w *World) dropWait(l *link, wr *waitReq) {
	l.waits = slices.DeleteFunc(l.waits, func(x *waitReq) bool { return x == wr })
	if wr.timer != nil {
		w.q.remove(func(it *item) bool { return it == wr.timer })
	}
}

// setInt gives a command answered by the engine its integer result.
func setInt(cmds []redis.Cmder, n int64) {
	for _, c := range cmds {
		switch cmd := c.(type) {
		case *redis.IntCmd:
			cmd.SetVal(n)
		case *redis.Cmd:
			cmd.SetVal(n)
		}
	}
}
