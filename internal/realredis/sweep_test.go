package realredis_test

import (
	"context"
	"testing"

	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/realredis"
	"github.com/lockstep/lockstep/internal/realredis/redistest"
	"github.com/lockstep/lockstep/internal/scenario"
)

// crashMidRun starts the no-lock lesson on servers and takes five steps:
// the process "dies" there, leaving the run's keys on Redis (the run is
// closed only when the test ends). It gives the lesson.
func crashMidRun(t *testing.T, servers *realredis.Servers) *scenario.Scenario {
	t.Helper()
	cat, err := scenario.ParseBuiltin("scenarios.yaml", lockstep.Scenarios)
	if err != nil {
		t.Fatal(err)
	}
	sc, _ := cat.Find("no-lock-oversell")
	r, err := lesson.New(sc, lesson.Config{Seed: sc.Seed, Servers: servers})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	for i := 0; i < 5 && stepped(t, r); i++ {
	}
	return sc
}

// A server process that dies mid-run leaves its run's keys on Redis; the
// next start of the same instance removes them before anything else, and
// leaves other keys alone.
func TestARestartRemovesWhatACrashLeft(t *testing.T) {
	s := redistest.Start(t)
	targets, err := realredis.ParseURLs("redis://"+s.Addr, false)
	if err != nil {
		t.Fatal(err)
	}
	first, err := realredis.NewServersFor(targets, false, "host-8080")
	if err != nil {
		t.Fatal(err)
	}
	crashMidRun(t, first)
	// The process died there: the run is not closed (until the test ends).
	left, err := realredis.Leftover(targets[0])
	if err != nil || left == 0 {
		t.Fatalf("after a crash mid-run: expected keys left under %s, got %d (%v)", realredis.PrefixRoot, left, err)
	}
	ctx := context.Background()
	admin := s.Client()
	defer admin.Close()
	if err := admin.Set(ctx, realredis.PrefixRoot+"host-9090.abc:stock", "7", 0).Err(); err != nil {
		t.Fatal(err)
	}

	again, err := realredis.NewServersFor(targets, true, "host-8080")
	if err != nil {
		t.Fatalf("restart: %v", err)
	}
	if again.Swept() != left {
		t.Errorf("restart: expected the %d keys of the crashed run removed, got %d", left, again.Swept())
	}
	if v, _ := admin.Get(ctx, realredis.PrefixRoot+"host-9090.abc:stock").Result(); v != "7" {
		t.Errorf("another instance's key: expected it untouched (7), got %q", v)
	}
	if n, _ := realredis.Leftover(targets[0]); n != 1 {
		t.Errorf("after the restart: expected only the other instance's key left, got %d keys", n)
	}
}

// The same, as the minimal ACL user of docs/real-redis.md, who may not
// list keys (no SCAN): the instance's registry names what the crashed run
// wrote, and the restart removes exactly that.
func TestARestartRemovesWhatACrashLeftAsTheACLUser(t *testing.T) {
	s := redistest.Start(t)
	ctx := context.Background()
	admin := s.Client()
	defer admin.Close()
	addACLUser(t, admin)
	// The ACL user may not run CONFIG: an administrator turns on the
	// expiry notifications, as docs/real-redis.md says.
	notifyExpiries(t, admin)
	targets, err := realredis.ParseURLs("redis://lockstep:secret@"+s.Addr, false)
	if err != nil {
		t.Fatal(err)
	}
	first, err := realredis.NewServersFor(targets, false, "host-8080")
	if err != nil {
		t.Fatal(err)
	}
	sc := crashMidRun(t, first)
	// The process dies here. What it left: the run's keys, and the
	// registry naming each of them.
	keys, err := admin.Keys(ctx, realredis.PrefixRoot+"*").Result()
	if err != nil {
		t.Fatal(err)
	}
	named, err := admin.HKeys(ctx, first.Registry()).Result()
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) < 2 || len(named) != len(keys)-1 {
		t.Fatalf("after a crash mid-run: expected the run's keys and a registry naming each, got keys %v, registry %v", keys, named)
	}
	if err := admin.Set(ctx, realredis.PrefixRoot+"host-9090.abc:stock", "7", 0).Err(); err != nil {
		t.Fatal(err)
	}

	again, err := realredis.NewServersFor(targets, true, "host-8080")
	if err != nil {
		t.Fatalf("restart as the ACL user: %v", err)
	}
	if again.Swept() != len(keys) {
		t.Errorf("restart as the ACL user: expected the %d keys of the crashed run (its registry too) removed, got %d", len(keys), again.Swept())
	}
	left, _ := admin.Keys(ctx, realredis.PrefixRoot+"*").Result()
	if len(left) != 1 || left[0] != realredis.PrefixRoot+"host-9090.abc:stock" {
		t.Errorf("after the restart: expected only the other instance's key left, got %v", left)
	}
	// A clean run leaves neither keys nor registry behind.
	r2, err := lesson.New(sc, lesson.Config{Seed: sc.Seed, Servers: again})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5 && stepped(t, r2); i++ {
	}
	r2.Close()
	if left, _ := admin.Keys(ctx, realredis.PrefixRoot+"*").Result(); len(left) != 1 {
		t.Errorf("after a clean run: expected only the other instance's key, got %v", left)
	}
}

// stepped takes one step of r, failing the test on an error.
func stepped(t *testing.T, r *lesson.Run) bool {
	t.Helper()
	ok, err := r.Step()
	if err != nil {
		t.Fatal(err)
	}
	return ok
}
