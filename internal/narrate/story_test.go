package narrate_test

import (
	"github.com/lockstep/lockstep/internal/fact"
	"strings"
	"testing"

	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/check"
	"github.com/lockstep/lockstep/internal/embedded"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/narrate"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// story runs a built-in lesson and tells it from its events alone.
func story(t *testing.T, id string) ([]*sim.Event, []narrate.Line) {
	t.Helper()
	f, err := scenario.ParseBuiltin("scenarios.yaml", lockstep.Scenarios)
	if err != nil {
		t.Fatal(err)
	}
	sc, ok := f.Find(id)
	if !ok {
		t.Fatalf("no lesson %s", id)
	}
	r, err := lesson.New(sc, lesson.Config{Seed: sc.Seed, Servers: embedded.Servers{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	if err := r.RunToEnd(); err != nil {
		t.Fatal(err)
	}
	return r.World.Log(), narrate.Tell(r.World.Log(), lesson.CheckOptions(sc))
}

// find returns the line whose English is want, or fails.
func find(t *testing.T, lines []narrate.Line, want string) narrate.Line {
	t.Helper()
	for _, l := range lines {
		if l.Text.En == want {
			return l
		}
	}
	var all []string
	for _, l := range lines {
		all = append(all, l.Text.En)
	}
	t.Fatalf("the story lacks %q; it says:\n%s", want, strings.Join(all, "\n"))
	return narrate.Line{}
}

// In blind-del-long-work each 3s lease runs out under its holder: A's,
// then B's. C takes the free key with A and B both inside, and A's blind
// DEL removes C's lock. The story says exactly that, and each sentence
// points at the event it describes.
func TestTheStoryOfBlindDelLongWork(t *testing.T) {
	log, lines := story(t, "blind-del-long-work")
	at := func(l narrate.Line) *sim.Event { return log[l.Refs[0]-1] }

	exp := find(t, lines, "A's lock on redis expires while A is still inside.")
	if e := at(exp); e.Kind != sim.KindExpire {
		t.Errorf("the expiry line points at %s", e)
	}
	find(t, lines, "B's lock on redis expires while B is still inside.")
	enter := find(t, lines, "C enters the critical section while A, B are still inside.")
	if e := at(enter); e.Kind != sim.KindMark || e.Name != "enter" || e.Client != "C" || len(enter.Refs) != 3 {
		t.Errorf("C's entry points at %s and refs %v, want C's enter mark and A's and B's", e, enter.Refs)
	}
	del := find(t, lines, "A's DEL removes C's lock on redis.")
	if e := at(del); e.Kind != sim.KindExec || e.Client != "A" || e.Cmd[0] != "DEL" {
		t.Errorf("the removal points at %s, want A's DEL", e)
	}
	if find(t, lines, "A's DEL removes C's lock on redis.").Text.Zh != "A 的 DEL 删掉了 C 在 redis 上的锁。" {
		t.Errorf("the removal's Chinese is %q", del.Text.Zh)
	}
	for _, l := range lines {
		if strings.Contains(l.Text.En, "B's lock on redis.") && strings.Contains(l.Text.En, "removes") {
			t.Errorf("the story says B's lock was removed: %q", l.Text.En)
		}
	}
}

// A GETSET that writes over another client's live timestamp is told as an
// overwrite, with the client whose lock it was.
func TestTheStoryOfAnOverwrite(t *testing.T) {
	_, lines := story(t, "getset-skewed-clock")
	find(t, lines, "B's GETSET overwrites A's lock on redis.")
	find(t, lines, "B enters the critical section while A is still inside.")
}

// Now says where things stand, leaving out nodes that are down.
func TestNowLeavesOutNodesThatAreDown(t *testing.T) {
	c := check.New(check.Options{Locks: []string{"lock"}})
	n := narrate.New(c)
	for _, e := range []*sim.Event{
		{Seq: 1, Kind: sim.KindExec, Client: "A", Node: "r1", Cmd: []string{"SET", "lock", "a"}, Keys: []sim.KeyState{{Key: "lock", Type: "string", Value: "a", Owner: "A", TTL: 3000}}},
		{Seq: 2, Kind: sim.KindExec, Client: "A", Node: "r2", Cmd: []string{"SET", "lock", "a"}, Keys: []sim.KeyState{{Key: "lock", Type: "string", Value: "a", Owner: "A", TTL: 3000}}},
		{Seq: 3, Kind: sim.KindMark, Client: "A", Name: "enter", Lock: "lock"},
		{Seq: 4, Kind: sim.KindFault, Node: "r2", Name: "node-crash", Fact: &fact.Fact{Key: fact.Down, Node: "r2"}},
	} {
		c.Observe(e)
		n.Observe(e)
	}
	l, ok := n.Now()
	if want := "Where things stand: A is inside; lock on r1 holds A's lock."; !ok || l.Text.En != want {
		t.Fatalf("Now = %q, want %q", l.Text.En, want)
	}
	if len(l.Refs) != 1 || l.Refs[0] != 3 {
		t.Errorf("Now refs %v, want A's enter (#3)", l.Refs)
	}
}

// A hash lock whose field is a bare thread id holds no token the engine
// can name: the story takes its owner from the command that wrote it. A's
// lease expires under it; B takes the lock under the same thread id; A's
// late unlock removes B's lock, and the story says so rather than calling
// it A's release.
func TestTheStoryOfALockOwnedByABareThreadID(t *testing.T) {
	hash := func(v string, ttl int64) []sim.KeyState {
		return []sim.KeyState{{Key: "lock", Type: "hash", Value: v, TTL: ttl}}
	}
	gone := []sim.KeyState{{Key: "lock", TTL: -2}}
	log := []*sim.Event{
		{Seq: 1, Kind: sim.KindExec, Client: "A", Node: "redis", Cmd: []string{"EVAL", "lock"}, Keys: hash("exec-1=1", 1000)},
		{Seq: 2, Kind: sim.KindMark, Client: "A", Name: "enter", Lock: "lock"},
		{Seq: 3, Kind: sim.KindExpire, Node: "redis", Keys: gone},
		{Seq: 4, Kind: sim.KindExec, Client: "B", Node: "redis", Cmd: []string{"EVAL", "lock"}, Keys: hash("exec-1=1", 3000)},
		{Seq: 5, Kind: sim.KindExec, Client: "B", Node: "redis", Cmd: []string{"HEXISTS", "lock", "exec-1"}, Keys: hash("exec-1=1", 2999)},
		{Seq: 6, Kind: sim.KindExec, Client: "A", Node: "redis", Cmd: []string{"EVAL", "lock"}, Keys: gone},
	}
	lines := narrate.Tell(log, check.Options{Locks: []string{"lock"}})
	find(t, lines, "A's lock on redis expires while A is still inside.")
	find(t, lines, "A's EVAL removes B's lock on redis.")
	for _, l := range lines {
		if strings.Contains(l.Text.En, "overwrites") {
			t.Errorf("no one overwrote anything: %q", l.Text.En)
		}
	}
}
