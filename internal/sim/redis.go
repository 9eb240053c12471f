package sim

import (
	"context"
	"github.com/lockstep/lockstep/internal/fact"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// request is one command (or one pipeline, such as MULTI ... EXEC) on its
// way from a client thread to a node and back.
type request struct {
	it      item        // its one pending item: the exec, then the reply or the timeout
	one     [1][]string // args of a single command
	cmd     [1]redis.Cmder
	th      *thread
	node    *Node
	cmds    []redis.Cmder
	args    [][]string
	spare   []string // with no log, the last single command's args, for the next one's
	ctx     context.Context
	process redis.ProcessHook         // a single command's way on to the server (go-redis's next hook), or
	batch   redis.ProcessPipelineHook // a pipeline's
	sent    time.Duration
	tap     *tap
	setup   []string // connection handshake commands sent before it
	src     *Source  // the lock code's line that issued it (source.go)
	seq     int      // the send event
	reply   string
	answer  Answer
	err     error
	lostReq bool

	// deadline: the caller's context is done at this world time, when
	// hasDeadline: no reply or timeout reaches the client later.
	deadline    time.Duration
	hasDeadline bool
	pastDue     bool // the timeout is the deadline's
}

func (e timeoutError) Error() string    { return e.Fact().Render().En }
func (e timeoutError) Fact() *fact.Fact { return &fact.Fact{Key: fact.TimedOut, Node: e.node} }
func (e timeoutError) Timeout() bool    { return true }
func (e timeoutError) Temporary() bool  { return true }

func (e refusedError) Error() string    { return e.Fact().Render().En }
func (e refusedError) Fact() *fact.Fact { return &fact.Fact{Key: fact.Refused, Node: e.node} }

// roundTrip runs in the client's thread: it sends the request (one
// command, which process takes on to the server, or a pipeline of cmds,
// which batch takes), parks until the reply (or a timeout) is delivered,
// and returns what the client sees. A deadline of ctx on the world's clock
// (Proc.WithDeadline) is applied by the world: go-redis gets ctx without it
// (forRedis).
//
// A thread has one request in flight at a time and the request is done
// once its reply or timeout is delivered (nothing keeps it after: events
// copy what they show), so the thread keeps it for its next command rather
// than allocate one a command. A thread that crashes with its request
// still on its way never sends another.
func (w *World) roundTrip(ctx context.Context, h *hook, one redis.Cmder, process redis.ProcessHook, cmds []redis.Cmder, batch redis.ProcessPipelineHook) error {
	th := w.current(h.p)
	th.live()
	req := th.req
	if req == nil {
		req = &request{}
		th.req = req
	}
	at, hasDeadline := virtualDeadline(ctx)
	spare := req.spare
	*req = request{th: th, node: w.route(h.n), ctx: forRedis(ctx), process: process, batch: batch, sent: w.now, tap: h.tap,
		deadline: at, hasDeadline: hasDeadline}
	req.cmds, req.args = cmds, req.one[:]
	if batch == nil {
		req.cmd[0] = one
		req.cmds = req.cmd[:]
		if w.cfg.NoLog {
			// with no log, the args are the events' only during their
			// emits (Watch): the last command's slice serves again
			req.args[0] = w.appendArgs(spare[:0], one)
			req.spare = req.args[0]
		}
	} else if len(cmds) != 1 {
		req.args = make([][]string, len(cmds))
	}
	for i, c := range req.cmds {
		if req.args[i] == nil {
			req.args[i] = w.cmdArgs(c)
		}
	}
	req.src = w.siteOf(ctx)
	req.seq = w.emit(Event{Kind: KindSend, Client: h.p.name, Thread: th.name, Node: req.node.name, Cmd: flatten(req.args), Src: req.src})
	if h.n.cut(h.p.name) || h.p.takeDrop(h.p.dropReq, h.n.name) {
		req.lostReq = true
	}
	w.schedule(req.item(w.now+w.latency(h.p), itemExec))
	th.park()
	return req.err
}

// send passes the request on to the server, through go-redis.
func (req *request) send() error {
	if req.batch != nil {
		return req.batch(req.ctx, req.cmds)
	}
	return req.process(req.ctx, req.cmds[0])
}

// item gives the request's item, now due at t for kind. A request has one
// pending item at a time (its exec, then its reply or timeout), so one
// item, made ready again each time, serves them all. A reply or timeout
// due after the caller's deadline is a timeout at the deadline (or, when
// the deadline passed before the command reached its node, as soon as it
// has: the world learns of a request's fate there).
func (req *request) item(t time.Duration, kind itemKind) *item {
	if req.hasDeadline && kind != itemExec && t > req.deadline {
		t, kind, req.pastDue = req.deadline, itemTimeout, true
	}
	req.it = item{t: t, kind: kind, th: req.th, req: req}
	return &req.it
}

// takeDrop consumes one armed drop for the node, if any.
func (p *Proc) takeDrop(m map[string]int, node string) bool {
	for _, k := range []string{node, "*"} {
		if m[k] > 0 {
			m[k]--
			return true
		}
	}
	return false
}

// latency draws the one-way latency of one message of p.
func (w *World) latency(p *Proc) time.Duration {
	d := w.cfg.Latency
	if p.opt.Latency > 0 {
		d = p.opt.Latency
	}
	if w.cfg.Jitter > 0 {
		d += time.Duration(w.rng.Int64N(int64(w.cfg.Jitter)))
	}
	return d
}

// exec runs on the engine when a request reaches its node.
func (w *World) exec(it *item) {
	req := it.req
	n, p := req.node, req.th.proc
	ev := Event{Client: p.name, Thread: req.th.name, Node: n.name, Req: req.seq, Sent: req.sent, Cmd: flatten(req.args)}
	if !w.reaches(req, &ev) {
		return
	}
	w.runOnNode(req, &ev)
	after := w.keyStates(req, &ev)
	w.emit(ev)
	if w.cfg.NoLog {
		w.keys = ev.Keys[:0]
	}
	w.logExpiries(n, after)
	w.afterExec(n, req)
	if n.cut(p.name) || p.takeDrop(p.dropReply, n.name) {
		w.emit(Event{Kind: KindLost, Name: "reply", Client: p.name, Thread: req.th.name, Node: n.name, Req: req.seq,
			Sent: req.sent, Cmd: ev.Cmd, Fact: &fact.Fact{Key: fact.ReplyLost, Client: p.name}})
		w.schedule(req.item(req.sent+w.cfg.Timeout, itemTimeout))
		return
	}
	w.schedule(req.item(w.now+w.latency(p), itemReply))
}

// reaches reports whether a request runs on its node now. It does not
// when it was lost on the way (its caller times out), when it is a WAIT
// the replica link holds, or when the node is down (the client gets a
// refusal): then the lost event ev is emitted here.
func (w *World) reaches(req *request, ev *Event) bool {
	n, p := req.node, req.th.proc
	switch {
	case req.lostReq:
		ev.Kind, ev.Name, ev.Fact = KindLost, "request", &fact.Fact{Key: fact.RequestLost, Node: n.name}
		w.emit(*ev)
		w.schedule(req.item(req.sent+w.cfg.Timeout, itemTimeout))
		return false
	case !n.down && w.holdWait(req):
		return false
	case n.down:
		ev.Kind, ev.Name, ev.Fact = KindLost, "refused", &fact.Fact{Key: fact.Down, Node: n.name}
		w.emit(*ev)
		req.err = refusedError{n.name}
		req.reply, req.answer = "(error) "+req.err.Error(), Answer{Type: AnswerRefused}
		w.schedule(req.item(w.now+w.latency(p), itemReply))
		return false
	}
	return true
}

// runOnNode sends the request's commands to its node's server and makes
// ev the exec event: the lock code's line, a new connection's handshake,
// the reply as redis-cli shows it and its answer.
func (w *World) runOnNode(req *request, ev *Event) {
	n := req.node
	n.syncClock()
	req.tap.buf.Reset()
	w.execing = req
	restore := addPrefix(n.b, req.cmds, req.args)
	traced := w.traceScript(req)
	req.err = req.send()
	ev.Src = req.src
	if traced != nil {
		ev.Src = traced()
	}
	restore()
	w.execing = nil
	if len(req.setup) > 0 {
		if h, ok := n.b.(Handshaker); ok {
			req.setup = append(h.Handshake(), req.setup...)
		}
		ev.Fact = &fact.Fact{Key: fact.NewConnection, Cmds: req.setup}
	}
	ev.Kind = KindExec
	ev.Reply, ev.Answer = replies(req.tap.buf.Bytes())
	if pre := n.b.Prefix(); pre != "" {
		ev.Reply = strings.ReplaceAll(ev.Reply, pre, "")
		ev.Answer.Gist = strings.ReplaceAll(ev.Answer.Gist, pre, "")
	}
	if ev.Reply == "" && req.err != nil {
		ev.Reply, ev.Answer = "(error) "+req.err.Error(), errAnswer(req.err)
	}
	req.reply, req.answer = ev.Reply, ev.Answer
}

// keyStates gives ev the state of every key the request named, and on a
// node whose keys expire by the engine's clock, the keys the command ran
// on; it returns the expiries due after the command.
func (w *World) keyStates(req *request, ev *Event) []Expiry {
	n := req.node
	st, timed := w.timed(n)
	var after []Expiry
	var before map[string]KeyState
	if timed {
		after, before = w.ranOn(n, st, ev, flatKeys(req.args))
	}
	if w.cfg.NoLog {
		ev.Keys = w.keys[:0] // the event's only during its emit (Watch)
	}
	for _, a := range req.args {
		for _, k := range keysOf(a) {
			if !hasKey(ev.Keys, k) {
				ev.Keys = append(ev.Keys, n.state(k))
			}
		}
	}
	if timed {
		after = w.expiredAfter(n, st, ev, after, before)
	}
	return after
}

func hasKey(ks []KeyState, k string) bool {
	for _, s := range ks {
		if s.Key == k {
			return true
		}
	}
	return false
}

func flatten(args [][]string) []string {
	if len(args) == 1 {
		return args[0]
	}
	var flat []string
	for i, a := range args {
		if i > 0 {
			flat = append(flat, "|")
		}
		flat = append(flat, a...)
	}
	return flat
}

// deliver runs on the engine when a reply or a timeout reaches its client.
func (w *World) deliver(it *item) {
	req := it.req
	p := req.th.proc
	ev := Event{Client: p.name, Thread: req.th.name, Node: req.node.name, Req: req.seq}
	if it.kind == itemTimeout {
		req.err = timeoutError{req.node.name}
		ev.Kind, ev.Sent, ev.Cmd = KindTimeout, req.sent, flatten(req.args)
		if req.pastDue {
			ev.Fact = fact.New(fact.DeadlinePassed)
		}
	} else {
		ev.Kind = KindReply
		ev.Reply, ev.Answer = req.reply, req.answer
	}
	w.emit(ev)
	w.run(req.th)
}
