package sim

import (
	"context"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"
)

// request is one command (or one pipeline, such as MULTI ... EXEC) on its
// way from a client thread to a node and back.
type request struct {
	it      item        // its one pending item: the exec, then the reply or the timeout
	one     [1][]string // args of a single command
	th      *thread
	node    *Node
	cmds    []redis.Cmder
	args    [][]string
	next    func() error
	sent    time.Duration
	tap     *tap
	setup   []string // connection handshake commands sent before it
	src     *Source  // the lock code's line that issued it (source.go)
	seq     int      // the send event
	reply   string
	err     error
	lostReq bool
}

// timeoutError is what a client sees when its reply does not come: a
// net.Error whose Timeout is true, as a real read deadline gives.
type timeoutError struct{ node string }

func (e timeoutError) Error() string   { return "i/o timeout (no reply from " + e.node + ")" }
func (e timeoutError) Timeout() bool   { return true }
func (e timeoutError) Temporary() bool { return true }

var _ net.Error = timeoutError{}

// refusedError is what a client sees when its node is down.
type refusedError struct{ node string }

func (e refusedError) Error() string { return "connection refused (" + e.node + " is down)" }

// clientOptions makes go-redis send nothing behind the scheduler's back: no
// retries, no handshake, no background dials, no deadlines in real time.
func clientOptions(dial func(ctx context.Context, network, addr string) (net.Conn, error)) *redis.Options {
	return &redis.Options{
		Addr:                     "sim",
		Dialer:                   dial,
		Protocol:                 2,
		DisableIdentity:          true,
		MaxRetries:               -1,
		DialerRetries:            1,
		MinIdleConns:             0,
		ConnMaxIdleTime:          -1,
		ReadTimeout:              -1,
		WriteTimeout:             -1,
		DialTimeout:              time.Hour,
		PoolTimeout:              time.Hour,
		PoolSize:                 4,
		MaintNotificationsConfig: &maintnotifications.Config{Mode: maintnotifications.ModeDisabled},
	}
}

// newClient makes a process's go-redis client for one node, with the hook
// that turns each command into scheduled events.
func (w *World) newClient(p *Proc, n *Node) *redis.Client {
	t := &tap{}
	c := redis.NewClient(clientOptions(func(ctx context.Context, _, _ string) (net.Conn, error) {
		conn, err := w.dialNode(n)
		if err != nil {
			return nil, err
		}
		return tapConn{Conn: conn, tap: t}, nil
	}))
	c.AddHook(&hook{w: w, p: p, n: n, tap: t})
	return c
}

// hook routes every command of one client-node connection through the world.
type hook struct {
	w   *World
	p   *Proc
	n   *Node
	tap *tap
}

func (h *hook) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h *hook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if req := h.w.execing; req != nil {
			// go-redis opens a connection inside the scheduled command that
			// needs it and sends its handshake (HELLO) first: part of that
			// request, shown on its exec event.
			err := next(ctx, cmd)
			req.setup = append(req.setup, FormatCmd(h.w.cmdArgs(cmd)))
			h.tap.buf.Reset()
			return err
		}
		err := h.w.roundTrip(h, []redis.Cmder{cmd}, func() error { return next(ctx, cmd) })
		if err != nil && cmd.Err() == nil {
			cmd.SetErr(err)
		}
		return err
	}
}

func (h *hook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		err := h.w.roundTrip(h, cmds, func() error { return next(ctx, cmds) })
		if err != nil {
			for _, c := range cmds {
				if c.Err() == nil {
					c.SetErr(err)
				}
			}
		}
		return err
	}
}

// cmdArgs gives a command's arguments as strings, its name in upper case.
func (w *World) cmdArgs(c redis.Cmder) []string {
	args := c.Args()
	out := make([]string, len(args))
	for i, a := range args {
		switch v := a.(type) {
		case string:
			out[i] = v
		default:
			out[i] = fmt.Sprint(v)
		}
	}
	if len(out) > 0 {
		out[0] = w.upper(out[0])
	}
	return out
}

// upper gives a command name in upper case, remembering the names clients
// send (go-redis sends them in lower case) so as to make each only once.
func (w *World) upper(name string) string {
	if u, ok := w.names[name]; ok {
		return u
	}
	u := strings.ToUpper(name)
	if w.names == nil {
		w.names = map[string]string{}
	}
	if len(w.names) < 256 {
		w.names[name] = u
	}
	return u
}

// roundTrip runs in the client's thread: it sends the request, parks until
// the reply (or a timeout) is delivered, and returns what the client sees.
func (w *World) roundTrip(h *hook, cmds []redis.Cmder, next func() error) error {
	th := w.current(h.p)
	th.live()
	req := &request{th: th, node: w.route(h.n), cmds: cmds, next: next, sent: w.now, tap: h.tap}
	req.args = req.one[:]
	if len(cmds) != 1 {
		req.args = make([][]string, len(cmds))
	}
	for i, c := range cmds {
		req.args[i] = w.cmdArgs(c)
	}
	req.src = w.callSite()
	req.seq = w.emit(Event{Kind: KindSend, Client: h.p.name, Thread: th.name, Node: req.node.name, Cmd: flatten(req.args), Src: req.src})
	if h.n.cut(h.p.name) || h.p.takeDrop(h.p.dropReq, h.n.name) {
		req.lostReq = true
	}
	w.schedule(req.item(w.now+w.latency(h.p), itemExec))
	th.park()
	return req.err
}

// item gives the request's item, now due at t for kind. A request has one
// pending item at a time (its exec, then its reply or timeout), so one
// item, made ready again each time, serves them all.
func (req *request) item(t time.Duration, kind itemKind) *item {
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
	switch {
	case req.lostReq:
		ev.Kind, ev.Name, ev.Note = KindLost, "request", "the request never reached "+n.name
		w.emit(ev)
		w.schedule(req.item(req.sent+w.cfg.Timeout, itemTimeout))
		return
	case !n.down && w.holdWait(req):
		return
	case n.down:
		ev.Kind, ev.Name, ev.Note = KindLost, "refused", n.name+" is down"
		w.emit(ev)
		req.err = refusedError{n.name}
		req.reply = "(error) " + req.err.Error()
		w.schedule(req.item(w.now+w.latency(p), itemReply))
		return
	}
	n.syncClock()
	req.tap.buf.Reset()
	w.execing = req
	restore := addPrefix(n.b, req.cmds, req.args)
	traced := w.traceScript(req)
	req.err = req.next()
	ev.Src = traced()
	restore()
	w.execing = nil
	if len(req.setup) > 0 {
		if h, ok := n.b.(Handshaker); ok {
			req.setup = append(h.Handshake(), req.setup...)
		}
		ev.Note = "new connection: " + strings.Join(req.setup, "; ")
	}
	ev.Kind = KindExec
	ev.Reply = replies(req.tap.buf.Bytes())
	if pre := n.b.Prefix(); pre != "" {
		ev.Reply = strings.ReplaceAll(ev.Reply, pre, "")
	}
	if ev.Reply == "" && req.err != nil {
		ev.Reply = "(error) " + req.err.Error()
	}
	req.reply = ev.Reply
	for _, a := range req.args {
		for _, k := range keysOf(a) {
			if !hasKey(ev.Keys, k) {
				ev.Keys = append(ev.Keys, n.state(k))
			}
		}
	}
	w.emit(ev)
	w.afterExec(n, req)
	if n.cut(p.name) || p.takeDrop(p.dropReply, n.name) {
		w.emit(Event{Kind: KindLost, Name: "reply", Client: p.name, Thread: req.th.name, Node: n.name, Req: req.seq,
			Sent: req.sent, Cmd: ev.Cmd, Note: "the reply never reached " + p.name})
		w.schedule(req.item(req.sent+w.cfg.Timeout, itemTimeout))
		return
	}
	w.schedule(req.item(w.now+w.latency(p), itemReply))
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
	} else {
		ev.Kind = KindReply
		ev.Reply = req.reply
	}
	w.emit(ev)
	w.run(req.th)
}
