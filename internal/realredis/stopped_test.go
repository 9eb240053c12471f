//go:build unix

package realredis_test

import (
	"strings"
	"testing"
	"time"

	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/realredis"
	"github.com/lockstep/lockstep/internal/realredis/redistest"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// A redis-server that stops answering without dying (SIGSTOP, as a hung
// server) ends the run as a dead one does, only later: the kernel still
// takes the commands in, so nothing fails until a reply is late by
// realredis.Timeout (every read and write of the backend's connections has
// that deadline); that step's command fails, the next step logs an error
// event naming the node and the server, and the run is over with no
// verdict. It does not hang, and it does not go on stepping with no events.
// A run started on the stopped server fails within Timeout too, naming it.
// The server is resumed (SIGCONT) when the test ends, then killed.
func TestAStoppedServerEndsTheRun(t *testing.T) {
	s := redistest.Start(t, "--notify-keyspace-events", "Kx")
	t.Cleanup(func() { _ = s.Resume() }) // before redistest's Kill
	targets, err := realredis.ParseURLs(s.URL(), false)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := realredis.NewServers(targets, false)
	if err != nil {
		t.Fatal(err)
	}
	f, err := scenario.ParseBuiltin("scenarios.yaml", lockstep.Scenarios)
	if err != nil {
		t.Fatal(err)
	}
	sc, _ := f.Find("lua-cad-slow-release")
	ls, err := lesson.NewSession(sc, lesson.Config{Seed: sc.Seed, Servers: srv})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		start := time.Now()
		ls.Close()
		t.Logf("the session closed in %v on the stopped server", time.Since(start).Round(time.Millisecond))
	}()
	for ls.Cursor() < 10 {
		if ok, err := ls.Step(); !ok || err != nil {
			t.Fatalf("step %d before the stop: %v, %v", ls.Cursor(), ok, err)
		}
	}
	if err := ls.Run().World.Lost(); err != nil {
		t.Fatalf("lost before the stop: %v", err)
	}
	stoppedAt := ls.Cursor()
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	stopped := time.Now()
	// A step's wall time beyond the run's own clock (the scenario's waits:
	// on a real server the run's clock is the wall clock) is time spent
	// waiting for the server.
	stall := time.Duration(0)
	for ls.Cursor() < stoppedAt+20 {
		w := ls.Run().World
		began, at := time.Now(), w.Now()
		ok, err := ls.Step()
		if err != nil {
			t.Fatal(err)
		}
		stall = max(stall, time.Since(began)-(w.Now()-at))
		if !ok {
			break
		}
	}
	took := time.Since(stopped)
	log := ls.Log()
	last := log[len(log)-1]
	lost := ls.Run().World.Lost()
	if lost == nil || last.Kind != sim.KindError || last.Node != "redis" || !strings.Contains(last.Words().En, s.Addr) {
		t.Fatalf("20 steps after the stop (%v): lost %v, last event %s; want the run ended with an error event naming %s", took, lost, last, s.Addr)
	}
	if !strings.Contains(lost.Error(), "timeout") {
		t.Errorf("lost: %v; want the reply's timeout", lost)
	}
	if !ls.Run().Done() || len(ls.Run().Verdicts()) != 0 {
		t.Errorf("the run: done %v, verdicts %v; want it over with no verdict", ls.Run().Done(), ls.Run().Verdicts())
	}
	// The step that sent the command waits Timeout for its reply, and no
	// more: the reads of key state and of expiry reports in that step fail
	// at once (before, each waited Timeout too, 3 Timeouts in all). The
	// bound leaves a second for a loaded machine.
	if most := realredis.Timeout + time.Second; stall > most {
		t.Errorf("a step after the stop waited %v for the server: over %v (one reply's deadline)", stall, most)
	}
	t.Logf("stopped after step %d; the run ended %v later, at step %d, its longest step waiting %v for the server: %s",
		stoppedAt, took.Round(time.Millisecond), ls.Cursor(), stall.Round(time.Millisecond), last)

	opened := time.Now()
	r, err := lesson.New(sc, lesson.Config{Seed: sc.Seed, Servers: srv})
	if err == nil {
		defer r.Close()
		err = r.RunToEnd()
	}
	if err == nil || !strings.Contains(err.Error(), s.Addr) {
		t.Errorf("a run on the stopped server: got %v, want an error naming it", err)
	}
	if d := time.Since(opened); d > 2*realredis.Timeout {
		t.Errorf("a run on the stopped server failed after %v: over %v", d, 2*realredis.Timeout)
	}
	t.Logf("a run on the stopped server failed in %v: %v", time.Since(opened).Round(time.Millisecond), err)
}
