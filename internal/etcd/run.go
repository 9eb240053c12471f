package etcd

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"github.com/lockstep/lockstep/internal/check"
	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/sim"
)

// Horizon is the longest a lesson's run may take: a run whose workers
// have not finished by then ends there.
const Horizon = 20 * time.Second

// Run plays lesson l against srv in real time and gives its log, with the
// checker's verdicts at its end. The run's keys live under a namespace of
// their own on the server (so runs can share one), which the log leaves
// out: the lock is job/, the resource account.
func Run(ctx context.Context, srv *Server, l *Lesson) (*Recorder, error) {
	ns, err := namespace()
	if err != nil {
		return nil, err
	}
	rec := NewRecorder(check.New(check.Options{Locks: []string{LockName}, Queues: []string{LockName}, Resource: Resource}))
	obs, err := dial(srv.Addr, nil)
	if err != nil {
		return nil, err
	}
	defer func() { _ = obs.Close() }()
	ctx, cancel := context.WithTimeout(ctx, Horizon)
	defer cancel()
	w := &watcher{cli: obs, rec: rec, ns: ns, lock: LockName, ttl: int64(l.Lease) * 1000,
		owners: map[clientv3.LeaseID]string{}, asked: map[string]bool{}}
	wctx, stopWatch := context.WithCancel(ctx)
	ready := make(chan struct{})
	watched := make(chan struct{})
	go func() { w.run(wctx, ready); close(watched) }()
	select {
	case <-ready:
	case <-ctx.Done():
		stopWatch()
		return nil, fmt.Errorf("etcd: no watch on the lock at %s: %w", srv.Addr, ctx.Err())
	}
	var wg sync.WaitGroup
	for i := range l.Workers {
		wk := &worker{Worker: l.Workers[i], lesson: l, rec: rec, watch: w, ns: ns, server: srv.Addr}
		wg.Go(func() { wk.run(ctx) })
	}
	wg.Wait()
	// the watch may still carry the last changes (the lease's end of a
	// session that closed): let it catch up before the log closes
	time.Sleep(200 * time.Millisecond)
	stopWatch()
	<-watched
	rec.Finish()
	return rec, nil
}

// namespace is a fresh prefix for one run's keys.
func namespace() (string, error) {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("etcd: %w", err)
	}
	return "lockstep/" + hex.EncodeToString(b[:]) + "/", nil
}

// dial makes a client of addr whose calls t records (none when t is nil).
func dial(addr string, t *tap) (*clientv3.Client, error) {
	cfg := clientv3.Config{Endpoints: []string{addr}, DialTimeout: 5 * time.Second, Logger: zap.NewNop()}
	if t != nil {
		cfg.DialOptions = t.options()
	}
	cli, err := clientv3.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("etcd: connect to %s: %w", addr, err)
	}
	return cli, nil
}

// trim takes the run's namespace out of a text for the log.
func trim(ns string, args []string) []string {
	for i, a := range args {
		args[i] = strings.ReplaceAll(a, ns, "")
	}
	return args
}

// failed is a done event's fact for an error that ended a program.
func failed(err error) *fact.Fact {
	return &fact.Fact{Key: fact.Failed, Text: err.Error()}
}

// done records the end of a worker's program, with the error that ended
// it, if any.
func done(rec *Recorder, client string, err error) {
	e := sim.Event{Kind: sim.KindDone, Client: client}
	if err != nil {
		e.Fact = failed(err)
	}
	rec.Add(e)
}
