package etcd

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	pb "go.etcd.io/etcd/api/v3/etcdserverpb"
	clientv3 "go.etcd.io/etcd/client/v3"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/live"
	"github.com/lockstep/lockstep/internal/sim"
)

// tap records one client's gRPC traffic: each unary request as a send and
// its reply (or its loss), each stream message sent as a send, each
// message received on a watch as a push, and a write to the protected
// resource as the server's exec. It is where a lost reply is made: the
// server ran the request, the client never hears.
type tap struct {
	rec      *live.Recorder
	client   string
	ns       string   // the run's namespace, left out of the log
	resource string   // the resource's key on the wire (with the namespace)
	watch    *watcher // told of the waiters' keys the client deletes
	loseNext atomic.Bool
}

// options are the dial options that put the tap on a client's calls.
func (t *tap) options() []grpc.DialOption {
	return []grpc.DialOption{grpc.WithChainUnaryInterceptor(t.unary), grpc.WithChainStreamInterceptor(t.stream)}
}

func (t *tap) unary(ctx context.Context, method string, req, resp any, cc *grpc.ClientConn, invoke grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	if d, ok := req.(*pb.DeleteRangeRequest); ok && t.watch != nil {
		t.watch.deleting(trim(t.ns, []string{string(d.Key)})[0])
	}
	sent := t.rec.Since()
	seq := t.rec.Add(sim.Event{Kind: sim.KindSend, Client: t.client, Node: Node, Cmd: t.cmd(method, req), Src: callSite()})
	err := invoke(ctx, method, req, resp, cc, opts...)
	if err == nil && t.loseNext.CompareAndSwap(true, false) {
		t.wrote(seq, sent, req, resp)
		t.rec.Add(sim.Event{Kind: sim.KindLost, Client: t.client, Node: Node, Req: seq, Sent: sent, Cmd: t.cmd(method, req),
			Fact: &fact.Fact{Key: fact.ReplyLost, Client: t.client}})
		return status.Error(codes.Unavailable, "etcd: the reply was lost on the wire")
	}
	if err != nil {
		t.rec.Add(sim.Event{Kind: sim.KindReply, Client: t.client, Node: Node, Req: seq, Reply: "(error) " + err.Error(),
			Answer: sim.Answer{Type: sim.AnswerError}})
		return err
	}
	t.wrote(seq, sent, req, resp)
	e := sim.Event{Kind: sim.KindReply, Client: t.client, Node: Node, Req: seq, Reply: t.reply(resp), Answer: answer(resp)}
	if g, ok := resp.(*pb.LeaseGrantResponse); ok {
		t.renewed(&e, clientv3.LeaseID(g.ID), g.TTL)
	}
	t.rec.Add(e)
	return nil
}

// renewed tells the lock's watcher that the reply e granted or kept alive
// a lease for ttl seconds; when the lease is the lock's holder's, e
// carries the lock's state with the lease's new end (its TTL bar full
// again).
func (t *tap) renewed(e *sim.Event, lease clientv3.LeaseID, ttl int64) {
	if t.watch == nil {
		return
	}
	if k, ok := t.watch.renewed(lease, ttl, t.rec.Since()); ok {
		e.Keys = []sim.KeyState{k}
	}
}

// wrote records, for a request that put the protected resource (a Put, or
// a Txn with a Put of it), the server's exec: what the resource holds
// after it, and whether the write was taken (a Txn whose condition failed
// wrote nothing).
func (t *tap) wrote(seq int, sent time.Duration, req, resp any) {
	value, ok := resourcePut(req, t.resource)
	if !ok {
		return
	}
	e := sim.Event{Kind: sim.KindExec, Client: t.client, Node: Node, Req: seq, Sent: sent, Cmd: t.cmd("Txn", req), Reply: t.reply(resp), Answer: answer(resp)}
	switch req.(type) {
	case *pb.PutRequest:
		e.Cmd = t.cmd("Put", req)
	case *pb.TxnRequest:
		if !resp.(*pb.TxnResponse).Succeeded {
			t.rec.Add(e)
			return
		}
	}
	e.Keys = []sim.KeyState{{Key: trim(t.ns, []string{t.resource})[0], Type: "string", Value: value, TTL: -1}}
	t.rec.Add(e)
}

// cmd is a request as the log writes it, without the run's namespace.
func (t *tap) cmd(method string, req any) []string { return trim(t.ns, request(method, req)) }

// reply is a reply as the log writes it, without the run's namespace.
func (t *tap) reply(resp any) string { return trim(t.ns, []string{reply(resp)})[0] }

// resourcePut finds the value a request puts in the resource key: a Put,
// or the first Put of it in a Txn's success branch.
func resourcePut(req any, resource string) (string, bool) {
	switch r := req.(type) {
	case *pb.PutRequest:
		return string(r.Value), resource != "" && string(r.Key) == resource
	case *pb.TxnRequest:
		for _, op := range r.Success {
			if p := op.GetRequestPut(); p != nil && resource != "" && string(p.Key) == resource {
				return string(p.Value), true
			}
		}
	}
	return "", false
}

// answer is a reply's type for the checker: a Txn whose condition failed
// is refused; everything else that came back is OK.
func answer(resp any) sim.Answer {
	if r, ok := resp.(*pb.TxnResponse); ok && !r.Succeeded {
		return sim.Answer{Type: sim.AnswerNil, Gist: "succeeded=false"}
	}
	return sim.Answer{Type: sim.AnswerOK}
}

func (t *tap) stream(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, open grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
	s, err := open(ctx, desc, cc, method, opts...)
	if err != nil {
		return nil, err
	}
	thread := ""
	if method == "/etcdserverpb.Lease/LeaseKeepAlive" {
		thread = "keepalive"
	}
	return &tappedStream{ClientStream: s, t: t, method: method, thread: thread}, nil
}

// tappedStream records a stream's messages.
type tappedStream struct {
	grpc.ClientStream
	t      *tap
	method string
	thread string
	mu     sync.Mutex
	last   int // the seq of the stream's latest send
}

func (s *tappedStream) SendMsg(m any) error {
	e := sim.Event{Kind: sim.KindSend, Client: s.t.client, Thread: s.thread, Node: Node, Cmd: s.t.cmd(s.method, m)}
	switch {
	case s.thread == "keepalive":
		e.Src = &sim.Source{Site: keepAliveSite}
	case s.method == "/etcdserverpb.Watch/Watch":
		e.Src = &sim.Source{Site: watchSite}
	}
	seq := s.t.rec.Add(e)
	s.mu.Lock()
	s.last = seq
	s.mu.Unlock()
	return s.ClientStream.SendMsg(m)
}

func (s *tappedStream) RecvMsg(m any) error {
	err := s.ClientStream.RecvMsg(m)
	if err != nil {
		return err
	}
	if _, ok := m.(*pb.WatchResponse); ok {
		s.t.rec.Add(sim.Event{Kind: sim.KindPush, Client: s.t.client, Thread: s.thread, Node: Node, Reply: s.t.reply(m)})
		return nil
	}
	s.mu.Lock()
	req := s.last
	s.mu.Unlock()
	e := sim.Event{Kind: sim.KindReply, Client: s.t.client, Thread: s.thread, Node: Node, Req: req, Reply: s.t.reply(m), Answer: sim.Answer{Type: sim.AnswerOK}}
	if k, ok := m.(*pb.LeaseKeepAliveResponse); ok {
		s.t.renewed(&e, clientv3.LeaseID(k.ID), k.TTL)
	}
	s.t.rec.Add(e)
	return nil
}
