package sim

import (
	"context"
	"fmt"
	"github.com/lockstep/lockstep/internal/fact"
	"strings"
)

// Service is a server of the world that is not Redis: a storage service
// that the critical section writes to (package storage), or a SQL
// database (package sqldb). Clients reach it
// exactly as they reach a node: every call is a send event, an exec event
// at the service (with what it did to its state, as key states) and a reply
// event, each one scheduling point, with the same latency; a paused client
// receives its reply only when the pause ends. Services have their own lane
// (ServiceNames) and appear in events as Node.
type Service struct {
	name string
	h    Handler
}

// RowKey is how a row of a lock table shows in key states: locks[name].
func RowKey(name string) string { return "locks[" + name + "]" }

// LockOfKey is the lock a key stands for: the row locks[name] stands for
// the lock name; a Redis key stands for itself.
func LockOfKey(key string) string {
	if name, ok := strings.CutPrefix(key, "locks["); ok && strings.HasSuffix(name, "]") {
		return strings.TrimSuffix(name, "]")
	}
	return key
}

// Handler is what a service does with one request. Serve runs on the
// engine at the moment the request arrives at the service.
type Handler interface {
	Serve(r ServiceRequest) Outcome
	Close() error
}

// ServiceRequest is one request as a service receives it.
type ServiceRequest struct {
	Args    []string
	OwnerOf func(string) string // resolves a value to the client whose token it is
}

// Outcome is what a service did with a request.
type Outcome struct {
	Reply  string     // as the client and the timeline see it
	Answer Answer     // the reply's type and gist (answer.go)
	Err    error      // what the client's call returns, if it failed
	Rows   int64      // rows affected (SQL)
	Keys   []KeyState // the state of what the request touched, after it
	Fact   *fact.Fact // what it says of the request (an accepted token, a duplicate row)
	Cmd    []string   // how the request is shown, when not its arguments
}

// extensions are the parts of the world beyond Redis nodes and clients:
// services, replication links, and the fencing tokens clients carry.
type extensions struct {
	services []*Service
	links    []*link
	routes   map[*Node]*Node  // a failed-over master -> the replica now serving its name
	fences   map[string]int64 // client/thread -> the fencing token of its current lock
}

// AddService adds a service served by h; the world closes h with itself.
func (w *World) AddService(name string, h Handler) (*Service, error) {
	if w.node(name) != nil || w.service(name) != nil {
		return nil, fmt.Errorf("sim: a node or service %q exists already", name)
	}
	s := &Service{name: name, h: h}
	w.ext.services = append(w.ext.services, s)
	return s, nil
}

// ServiceNames lists the services in the order they were added.
func (w *World) ServiceNames() []string {
	out := make([]string, len(w.ext.services))
	for i, s := range w.ext.services {
		out[i] = s.name
	}
	return out
}

func (w *World) service(name string) *Service {
	for _, s := range w.ext.services {
		if s.name == name {
			return s
		}
	}
	return nil
}

// closeServices releases every service.
func (w *World) closeServices() {
	for _, s := range w.ext.services {
		s.h.Close()
	}
}

// Call sends one request to a service and waits for its outcome; err is
// the outcome's error. It runs in the client's thread like a Redis command.
func (p *Proc) Call(ctx context.Context, service string, args ...string) (Outcome, error) {
	w := p.w
	th := w.current(p)
	th.live()
	s := w.service(service)
	if s == nil {
		return Outcome{}, fmt.Errorf("sim: client %s calls unknown service %q", p.name, service)
	}
	sent := w.now
	seq := w.emit(Event{Kind: KindSend, Client: p.name, Thread: th.name, Node: s.name, Cmd: args})
	var out Outcome
	w.q.push(&item{t: w.now + w.latency(p), kind: itemWorld, th: th, label: "exec " + s.name, fn: func() {
		out = s.h.Serve(ServiceRequest{Args: args, OwnerOf: w.ownerOf})
		cmd := args
		if out.Cmd != nil {
			cmd = out.Cmd
		}
		w.emit(Event{Kind: KindExec, Client: p.name, Thread: th.name, Node: s.name, Req: seq, Sent: sent,
			Cmd: cmd, Reply: out.Reply, Answer: out.Answer, Keys: out.Keys, Fact: out.Fact})
		w.schedule(&item{t: w.now + w.latency(p), kind: itemWake, th: th})
	}})
	th.park()
	w.emit(Event{Kind: KindReply, Client: p.name, Thread: th.name, Node: s.name, Req: seq, Reply: out.Reply, Answer: out.Answer})
	th.live()
	if out.Err == nil && ctx.Err() != nil {
		return out, ctx.Err()
	}
	return out, out.Err
}

// SetFence records the fencing token the calling thread's lock gave it, to
// be presented with its writes to a storage service.
func (p *Proc) SetFence(token int64) {
	th := p.w.current(p)
	if p.w.ext.fences == nil {
		p.w.ext.fences = map[string]int64{}
	}
	p.w.ext.fences[p.name+"/"+th.name] = token
}

// Fence is the calling thread's last fencing token (0: none).
func (p *Proc) Fence() int64 {
	th := p.w.current(p)
	return p.w.ext.fences[p.name+"/"+th.name]
}
