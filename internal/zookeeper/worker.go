package zookeeper

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/live"
	"github.com/lockstep/lockstep/internal/sim"
)

// worker is one client of a run: its own connection through its own
// proxy, its session, and its program.
type worker struct {
	Worker
	lesson *Lesson
	rec    *live.Recorder
	watch  *watcher
	root   string
	server string
	proxy  *Proxy
	conn   *zk.Conn
}

// run plays the worker's program: it starts at its time, opens a session
// and takes the lock its rounds, believing it holds from Lock() returning
// until its Unlock (the recipe gives it no signal that its session
// expired: the log draws the moment its client hears it).
func (w *worker) run(ctx context.Context) {
	if !sleep(ctx, w.Start) {
		return
	}
	w.rec.Add(sim.Event{Kind: sim.KindStart, Client: w.Name})
	if err := w.program(ctx); !errors.Is(err, errCrashed) {
		done(w.rec, w.Name, err) // a crashed process says nothing more
	}
}

// errCrashed ends the program of a worker that crashed.
var errCrashed = errors.New("zookeeper: the client crashed")

func (w *worker) program(ctx context.Context) error {
	p, err := NewProxy(w.server)
	if err != nil {
		return err
	}
	defer p.Close()
	w.proxy = p
	p.OnFrame((&pinger{w: w}).frame) // the session's bar (session.go)
	c, events, err := zk.Connect([]string{p.Addr}, w.lesson.Session, zk.WithLogger(quiet{}))
	if err != nil {
		return fmt.Errorf("zookeeper: connect: %w", err)
	}
	w.conn = c
	heard := make(chan struct{})
	defer func() { c.Close(); <-heard }()
	// a run that ends (its horizon, Stop) closes the client: a Lock still
	// waiting on its watch returns
	defer context.AfterFunc(ctx, c.Close)()
	session := make(chan int64, 1)
	go w.listen(events, session, heard)
	select {
	case id := <-session:
		w.watch.session(id, w.Name)
	case <-time.After(answerWithin):
		return fmt.Errorf("zookeeper: no session from %s within %s", w.server, answerWithin)
	case <-ctx.Done():
		return ctx.Err()
	}
	m := NewMutex(c, w.root+"/"+LockName, !w.Unprotected)
	m.Created = func(node string) { w.watch.created(node, w.Name) }
	m.Watching = func(node string) {
		w.mark("watch", &fact.Fact{Key: fact.Watching, Client: w.Name, Item: LockName + "/" + name(node)})
	}
	m.Woken = func(node string) {
		w.mark("woken", &fact.Fact{Key: fact.Woken, Client: w.Name, Item: LockName + "/" + name(node)})
	}
	for i := range max(w.Rounds, 1) {
		if err := w.round(ctx, m, i == 0); err != nil {
			return err
		}
	}
	return nil
}

// listen reads the client's session events: its first session's id, and
// the moment it hears that its session expired (on reconnecting: not
// before).
func (w *worker) listen(events <-chan zk.Event, session chan<- int64, heard chan<- struct{}) {
	defer close(heard)
	first := true
	for ev := range events {
		switch {
		case ev.State == zk.StateHasSession && first:
			first = false
			session <- w.conn.SessionID()
		case ev.State == zk.StateExpired:
			w.rec.Add(sim.Event{Kind: sim.KindMark, Client: w.Name, Name: "session-expired", Lock: LockName,
				Fact: &fact.Fact{Key: fact.SessionLost, Client: w.Name}})
		}
	}
}

// round takes the lock once, works inside, writes, leaves and unlocks.
func (w *worker) round(ctx context.Context, m *Mutex, first bool) error {
	if first && w.fault(ctx, AsItAsks) {
		return errCrashed
	}
	if err := m.Lock(); err != nil {
		w.mark(sim.MarkGaveUp, failed(err))
		return err
	}
	w.watch.heads(m.Node, 500*time.Millisecond)
	w.mark(sim.MarkAcquired, nil)
	w.mark(sim.MarkToken, &fact.Fact{Key: fact.Token, Token: m.Token})
	if first && w.fault(ctx, sim.MarkAcquired) {
		return errCrashed
	}
	w.mark(sim.MarkEnter, nil)
	if first && w.fault(ctx, sim.MarkEnter) {
		return errCrashed
	}
	if !sleep(ctx, w.Work) {
		return ctx.Err()
	}
	if err := w.write(m.Token); err != nil {
		// the error ends the program's work: it leaves its critical
		// section here, before its session closes and frees the lock
		w.mark(sim.MarkLeave, nil)
		return err
	}
	w.mark(sim.MarkLeave, nil)
	w.watch.deleting(m.Node)
	if err := m.Unlock(); err != nil {
		w.mark(sim.MarkReleaseFailed, failed(err))
		return nil // the program ends its round; its lock is long gone
	}
	w.mark(sim.MarkReleased, nil)
	return nil
}

// write writes the worker's name to the resource, as its Write says. The
// resource's data is the value and, after a fenced write, the token it
// took ("A token 17").
func (w *worker) write(token int64) error {
	if w.Write == NoWrite {
		return nil
	}
	path := w.root + "/" + Resource
	for try := 0; ; try++ {
		err := w.tryWrite(path, token)
		// a thawed client's first requests may meet its expired session
		// or its reconnection, a fenced write a write between its read and
		// its own: it asks again, as client code does
		if err == nil || try == 10 || !again(err) {
			return err
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// again reports whether a write that failed with err is worth asking
// again.
func again(err error) bool {
	return errors.Is(err, zk.ErrSessionExpired) || errors.Is(err, zk.ErrConnectionClosed) || errors.Is(err, zk.ErrBadVersion) ||
		errors.Is(err, zk.ErrNoServer) || errors.Is(err, zk.ErrSessionMoved)
}

func (w *worker) tryWrite(path string, token int64) error {
	sent := w.rec.Since()
	if w.Write == Plain {
		if _, err := w.conn.Set(path, []byte(w.Name), -1); err != nil {
			return err
		}
		w.wrote(sent, []string{"setData", Resource, w.Name}, "OK", nil)
		return nil
	}
	data, st, err := w.conn.Get(path)
	if err != nil {
		return err
	}
	cmd := []string{"WRITE", Resource, w.Name, "TOKEN", strconv.FormatInt(token, 10)}
	highest := storedToken(data)
	if token < highest {
		w.rec.Add(sim.Event{Kind: sim.KindExec, Client: w.Name, Node: Node, Sent: sent, Cmd: cmd,
			Reply: fmt.Sprintf("(refused) token %d < %d", token, highest), Answer: sim.Answer{Type: sim.AnswerError},
			Fact: &fact.Fact{Key: fact.RejectedOlder, Token: token, Highest: highest}})
		return nil
	}
	// the write lands only on the version read: a write between the read
	// and this one makes it fail, and the client reads again
	if _, err := w.conn.Set(path, []byte(fmt.Sprintf("%s token %d", w.Name, token)), st.Version); err != nil {
		return err
	}
	f := &fact.Fact{Key: fact.TokenAccepted, Token: token, Highest: highest}
	if highest == 0 {
		f = &fact.Fact{Key: fact.FirstToken, Token: token}
	}
	w.wrote(sent, cmd, "OK", f)
	return nil
}

// wrote records a write the resource took: the server's exec, with what
// the resource holds after it.
func (w *worker) wrote(sent time.Duration, cmd []string, reply string, f *fact.Fact) {
	w.rec.Add(sim.Event{Kind: sim.KindExec, Client: w.Name, Node: Node, Sent: sent, Cmd: cmd, Reply: reply,
		Answer: sim.Answer{Type: sim.AnswerOK}, Fact: f,
		Keys: []sim.KeyState{{Key: Resource, Type: "string", Value: w.Name, TTL: -1}}})
}

// storedToken is the token a fenced write left in the resource's data (0
// when none has).
func storedToken(data []byte) int64 {
	_, tok, ok := strings.Cut(string(data), " token ")
	if !ok {
		return 0
	}
	n, _ := strconv.ParseInt(tok, 10, 64)
	return n
}

// fault applies the worker's fault if it is due after mark at (or, for
// AsItAsks, as it asks for the lock), and reports whether the worker
// crashed. A pause ends early when ctx does.
func (w *worker) fault(ctx context.Context, at string) (crashed bool) {
	f := w.Fault
	if f.Kind == "" || f.At != at {
		return false
	}
	switch f.Kind {
	case sim.FaultPause:
		w.proxy.Pause()
		w.rec.Add(sim.Event{Kind: sim.KindFault, Name: string(f.Kind), Client: w.Name, Fact: &fact.Fact{Key: fact.Paused, Client: w.Name, For: f.For}})
		sleep(ctx, f.For) // a run stopped (Ctrl-C) ends the pause
		w.proxy.Resume()
		w.rec.Add(sim.Event{Kind: sim.KindFault, Name: "resume", Client: w.Name, Fact: &fact.Fact{Key: fact.RunsAgain, Client: w.Name}})
	case sim.FaultPartition:
		// the link is cut, the program goes on: its requests wait on the
		// held connection until the cut heals
		w.proxy.Cut()
		w.rec.Add(sim.Event{Kind: sim.KindFault, Name: string(f.Kind), Node: Node, Client: w.Name, Fact: &fact.Fact{Key: fact.CutOff, Node: Node, Client: w.Name}})
		time.AfterFunc(f.For, func() {
			w.proxy.Heal()
			w.rec.Add(sim.Event{Kind: sim.KindFault, Name: string(sim.FaultHeal), Node: Node, Client: w.Name, Fact: &fact.Fact{Key: fact.Reachable, Node: Node}})
		})
	case sim.FaultCrash:
		// the process dies: its connection closes, it sends nothing more
		// (no close of its session), and the server ends the session by
		// its own clock
		w.rec.Add(sim.Event{Kind: sim.KindFault, Name: string(f.Kind), Client: w.Name, Fact: &fact.Fact{Key: fact.Crashed, Client: w.Name}})
		w.proxy.Crash()
		return true
	case sim.FaultDropReply:
		w.loseCreateReply()
	}
	return false
}

// loseCreateReply loses the reply to the worker's next create, its lock
// node's, and logs it as the request it is: its send, the server's exec
// (the watcher's, which carries the request), the reply lost. The checker
// then knows that the node's client never learnt it made it.
func (w *worker) loseCreateReply() {
	w.proxy.LoseNextReply(OpCreate)
	w.rec.Add(sim.Event{Kind: sim.KindFault, Name: string(sim.FaultDropReply), Client: w.Name, Fact: &fact.Fact{Key: fact.NextReplyLost, Client: w.Name}})
	cmd := []string{"create", LockName + "/lock-", "EPHEMERAL_SEQUENTIAL"}
	sent := w.rec.Since()
	// its call site: the recipe's create (the code view lights its line)
	req := w.rec.Add(sim.Event{Kind: sim.KindSend, Client: w.Name, Node: Node, Cmd: cmd, Src: &sim.Source{Site: createSite}})
	w.watch.losing(w.Name, req)
	w.proxy.OnLost(func(Lost) {
		w.rec.Add(sim.Event{Kind: sim.KindLost, Name: "reply", Client: w.Name, Node: Node, Req: req, Sent: sent, Cmd: cmd,
			Fact: &fact.Fact{Key: fact.ReplyLost, Client: w.Name}})
	})
}

// mark records a step of the worker's program on the lock.
func (w *worker) mark(name string, f *fact.Fact) {
	w.rec.Add(sim.Event{Kind: sim.KindMark, Client: w.Name, Name: name, Lock: LockName, Fact: f})
}
