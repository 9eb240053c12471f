package realredis_test

import (
	"strings"
	"testing"

	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/realredis"
	"github.com/lockstep/lockstep/internal/realredis/redistest"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// A redis-server killed (SIGKILL) in the middle of a run ends the run at
// once: the command in flight fails, the next step logs an error event
// naming the node and the server, and the run is over with no verdict.
// Before, the run went on stepping with no events: the lock code's retries
// failed to dial, silently, until the horizon.
func TestADeadServerEndsTheRun(t *testing.T) {
	s := redistest.Start(t, "--notify-keyspace-events", "Kx")
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
	defer ls.Close()
	for ls.Cursor() < 10 {
		if ok, err := ls.Step(); !ok || err != nil {
			t.Fatalf("step %d before the kill: %v, %v", ls.Cursor(), ok, err)
		}
	}
	if err := ls.Run().World.Lost(); err != nil {
		t.Fatalf("lost before the kill: %v", err)
	}
	killedAt := ls.Cursor()
	s.Kill()
	for ls.Cursor() < killedAt+20 {
		ok, err := ls.Step()
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
	}
	log := ls.Log()
	last := log[len(log)-1]
	lost := ls.Run().World.Lost()
	if lost == nil || last.Kind != sim.KindError || last.Node != "redis" || !strings.Contains(last.Words().En, s.Addr) {
		t.Fatalf("20 steps after the kill: lost %v, last event %s; want the run ended with an error event naming %s", lost, last, s.Addr)
	}
	if !ls.Run().Done() || len(ls.Run().Verdicts()) != 0 {
		t.Errorf("the run: done %v, verdicts %v; want it over with no verdict", ls.Run().Done(), ls.Run().Verdicts())
	}
	r, err := lesson.New(sc, lesson.Config{Seed: sc.Seed, Servers: srv})
	if err == nil {
		defer r.Close()
		err = r.RunToEnd()
	}
	if err == nil || !strings.Contains(err.Error(), s.Addr) {
		t.Errorf("a run on the dead server: got %v, want an error naming it", err)
	}
	t.Logf("killed after step %d; %s", killedAt, last)
}
