package explore

import (
	"bufio"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lockstep/lockstep/internal/embedded"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// warmServers are embedded servers that have run the scenario once
// before, as a real redis-server shared by earlier runs has: its script
// cache already holds every script the run sends (an EVALSHA succeeds
// at once, with no NOSCRIPT and no EVAL after it), and a restart
// without persistence deletes keys and keeps the scripts, as the real
// backend's restart does (realredis.Backend.Flush). The keys of the
// first run are gone before the second starts.
type warmServers struct{}

func (warmServers) Place(sc *scenario.Scenario, nodes []string, seed int64) ([]sim.Backend, sim.Pacer, error) {
	bs, _, err := embedded.Servers{}.Place(sc, nodes, seed)
	if err != nil {
		return nil, nil, err
	}
	warm := make([]sim.Backend, len(bs))
	for i, b := range bs {
		warm[i] = &warmBackend{Backend: b, keep: true}
	}
	r, err := lesson.New(sc, lesson.Config{Seed: seed, Servers: fixedServers(warm), Quiet: true})
	if err != nil {
		return nil, nil, err
	}
	if err := r.RunToEnd(); err != nil {
		return nil, nil, err
	}
	r.Close()
	for _, b := range warm {
		if err := b.Flush(); err != nil {
			return nil, nil, err
		}
		b.(*warmBackend).keep = false
	}
	return warm, nil, nil
}

// fixedServers places the run on the backends given.
type fixedServers []sim.Backend

func (f fixedServers) Place(*scenario.Scenario, []string, int64) ([]sim.Backend, sim.Pacer, error) {
	return f, nil, nil
}

// warmBackend is an embedded backend whose restart deletes keys only,
// and which stays open while keep is set.
type warmBackend struct {
	sim.Backend
	keep bool
}

func (b *warmBackend) Close() error {
	if b.keep {
		return nil
	}
	return b.Backend.Close()
}

// Flush deletes every key with a DEL on a connection of its own, and
// leaves the script cache alone.
func (b *warmBackend) Flush() error {
	keys, err := b.Keys()
	if err != nil || len(keys) == 0 {
		return err
	}
	c, err := b.Dial()
	if err != nil {
		return err
	}
	defer c.Close()
	var req strings.Builder
	fmt.Fprintf(&req, "*%d\r\n$3\r\nDEL\r\n", len(keys)+1)
	for _, k := range keys {
		fmt.Fprintf(&req, "$%d\r\n%s\r\n", len(k), k)
	}
	if _, err := c.Write([]byte(req.String())); err != nil {
		return err
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return err
	}
	if !strings.HasPrefix(line, ":") {
		return fmt.Errorf("DEL answered %q", line)
	}
	return nil
}

// cardCell is a two-client scenario of the report card's form (1s
// lease, 100ms retry, 500ms of work, 100ms client timeout) for lock
// algorithm with params, and budget as its explore section.
func cardCell(t *testing.T, algorithm, params, budget string) *scenario.Scenario {
	t.Helper()
	doc := fmt.Sprintf(`scenarios:
  - id: cell
    title: {en: cell}
    seed: 1
    horizon: 5s
    network: {timeout: 100ms}
    clients:
      - {name: A, algorithm: %[1]s, params: %[2]s, work: 500ms, task: none}
      - {name: B, algorithm: %[1]s, params: %[2]s, work: 500ms, task: none}
`, algorithm, params)
	f, err := scenario.Parse("cell.yaml", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	bs, err := ParseBudget(budget)
	if err != nil {
		t.Fatal(err)
	}
	return Neutral(&f.Scenarios[0], &scenario.Explore{Faults: bs})
}

// A fault the search placed after a step is recorded on an event, and
// the recording keeps its verdict on a server that has run it before.
//
// Argued first: redislock under one restart of its node (down up to
// 400ms, back empty) breaks: the node restarts empty while A is inside
// and B, retrying every 100ms, takes the lock beside A
// (mutual-exclusion). On embedded Redis every run starts with an empty
// script cache, so each client's first EVALSHA fails NOSCRIPT and is
// followed by an EVAL: two steps where a server that holds the script
// takes one. Recorded at its step number, the restart lands elsewhere
// there (at A's release: the run ends safe, as measured on redis-server
// before this rule); recorded on an event, it lands at the same moment.
// setnx-then-expire under one lost reply (a deadlock: B's SETNX takes
// the lock after A's release and B never learns it) sends no script:
// its fault is recorded on an event too, and warm servers change
// nothing there.
func TestFoundFaultsAreRecordedOnEvents(t *testing.T) {
	for _, c := range []struct {
		algorithm, params, budget, want string
	}{
		{"redislock", "{ttl: 1s, backoff: 100ms, retry_strategy: linear, deadline: 1m}", "node-crash:400ms", "mutual-exclusion"},
		{"setnx-then-expire", "{ttl: 1s, retry: 100ms}", "drop-reply", "deadlock"},
	} {
		t.Run(c.algorithm, func(t *testing.T) {
			sc := cardCell(t, c.algorithm, c.params, c.budget)
			res := search(t, sc, Options{Strategy: Exhaustive, KeepSizes: true, First: true, Want: []string{c.want}})
			if res.Verdict != c.want {
				t.Fatalf("want %s found, got %q (%s)", c.want, res.Verdict, res.CountsText())
			}
			rec := res.Recording
			for _, a := range rec.Schedule {
				if a.Do != scenario.StepAction {
					t.Errorf("a fault is recorded at step %d, not on an event: %+v", a.Step, a.Fault)
				}
			}
			placed := 0
			for _, f := range rec.Faults {
				if f.On != nil {
					placed++
				}
			}
			if placed == 0 {
				t.Fatalf("no fault on an event in the recording: faults %+v, schedule %+v", rec.Faults, rec.Schedule)
			}
			r, err := lesson.New(rec, lesson.Config{Seed: rec.Seed, Servers: warmServers{}})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if err := r.RunToEnd(); err != nil {
				t.Fatal(err)
			}
			if got := r.Verdicts(); !lesson.SameVerdicts(got, rec.Expect) {
				t.Errorf("on a server that ran it before, the recording ends %v, not %v:\n%s", got, rec.Expect, logText(r.World.Log()))
			}
		})
	}
}

// The search's margin against real latency: a found schedule keeps its
// verdict in at least as many jittered runs (RealJitter, JitterRuns
// seeds) as the same schedule with each fault size and the horizon
// Margin past the least that breaks the lock, the margin it kept before
// it chose the widest.
//
// Argued first: redlock-pause-in-flight's neutral schedule with a pause
// of up to 10s at A's quorum mark breaks when the pause leaves A too
// short a validity for its 1s of work (mutual-exclusion: B takes all
// five masters once A's keys expire, while A works). B retries every
// 500ms, so B's entry after A's keys expire falls anywhere in a 500ms
// window: a horizon 100ms past the earliest that holds cuts the run
// before B's retry in some jittered runs (measured: 4 of 8); a later
// one keeps it in all.
func TestShrinkKeepsTheWidestMargin(t *testing.T) {
	sc := lessonNamed(t, "redlock-pause-in-flight", "pause:10s")
	res := search(t, sc, Options{Strategy: Exhaustive, Marks: []string{"quorum"}, First: true, Want: []string{"mutual-exclusion"}})
	if res.Verdict != "mutual-exclusion" {
		t.Fatalf("want mutual-exclusion found, got %q (%s)", res.Verdict, res.CountsText())
	}
	p := newPacer(t.Context(), nil)
	sh := &shrinker{p: p, sc: searchScenario(sc, bounds{horizon: sc.Horizon.D()}), seed: sc.Seed, verdict: res.Verdict}
	got, err := sh.robust(res.Shrunk, res.Horizon.D())
	if err != nil {
		t.Fatal(err)
	}
	// The schedule with the least sizes and horizon, each Margin wider.
	least := append([]scenario.Action(nil), res.Shrunk...)
	for i := range least {
		if s := least[i].Size(); *s > 0 {
			d, err := smallest(0, s.D(), 10*time.Millisecond, func(d time.Duration) (bool, error) {
				*s = scenario.Duration(d)
				return sh.holds(least, res.Horizon.D())
			})
			if err != nil {
				t.Fatal(err)
			}
			*s = scenario.Duration(d + Margin)
		}
	}
	h, err := smallest(0, res.Horizon.D(), 100*time.Millisecond, func(d time.Duration) (bool, error) { return sh.holds(least, d) })
	if err != nil {
		t.Fatal(err)
	}
	narrow, err := sh.robust(least, h+Margin)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("found %+v, horizon %s: %d of %d jittered runs; least sizes and horizon + %s: %d of %d", res.Shrunk, res.Horizon, got, JitterRuns, Margin, narrow, JitterRuns)
	if got < narrow || got < JitterRuns {
		t.Errorf("the shrunk schedule keeps its verdict in %d of %d jittered runs (want all); with only %s of margin, %d", got, JitterRuns, Margin, narrow)
	}
}

// logText is a log, one event a line.
func logText(log []*sim.Event) string {
	var b strings.Builder
	for _, e := range log {
		b.WriteString(e.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// A node's fault is recorded on the node's own count of a command when
// that holds, not on the client whose command it was: which of two
// clients sending at the same moment a real server takes first is not
// the schedule's to decide.
//
// Argued first: two watch-multi-exec clients on a master with a replica
// 200ms behind, one failover to place. Both read the stock at once and
// send MULTI/EXEC at 0.504s; the first EXEC writes 9, the second finds
// its watched key changed and retries from WATCH. A failover after that
// retry's WATCH, before the first write reached the replica, loses the
// write: the retry reads 10 on the promoted replica and writes 9 again
// (lost-update). Embedded Redis runs B's EXEC first; with A starting 2ms
// earlier (as A did on redis-server, 1.5ms ahead), A's is first. A
// failover recorded after A's EXEC (the schedule's first form) lands
// there before B's EXEC, which the dead master refuses: safe. Recorded on
// the node's count, it lands after the retry's WATCH either way.
func TestANodeFaultIsRecordedOnTheNodesCount(t *testing.T) {
	doc := `scenarios:
  - id: wme
    title: {en: wme}
    seed: 1
    horizon: 5s
    nodes:
      - {name: redis}
      - {name: replica, replica_of: redis, lag: 200ms}
    network: {timeout: 100ms}
    data: {stock: '10'}
    clients:
      - {name: A, algorithm: watch-multi-exec, params: {retry: 100ms}, work: 500ms, task: deduct}
      - {name: B, algorithm: watch-multi-exec, params: {retry: 100ms}, work: 500ms, task: deduct}
`
	f, err := scenario.Parse("wme.yaml", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	sc := Neutral(&f.Scenarios[0], &scenario.Explore{Faults: []scenario.Budget{{Do: string(sim.FaultFailover), Count: 1}}})
	res := search(t, sc, Options{Strategy: Exhaustive, First: true, Want: []string{"lost-update"}})
	if res.Verdict != "lost-update" {
		t.Fatalf("want lost-update found, got %q (%s)", res.Verdict, res.CountsText())
	}
	rec := res.Recording
	if len(rec.Faults) != 1 || rec.Faults[0].On == nil || rec.Faults[0].On.Client != "" {
		t.Fatalf("want the failover recorded on the node's count alone, got faults %+v, schedule %+v", rec.Faults, rec.Schedule)
	}
	early := *rec
	early.Clients = append([]scenario.Client(nil), rec.Clients...)
	early.Clients[0].Start = scenario.Duration(2 * time.Millisecond)
	s, err := Replay(&early)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := s.Run().Verdicts(); !lesson.SameVerdicts(got, rec.Expect) {
		t.Errorf("with A 2ms ahead the recording (failover on %+v) ends %v, not %v:\n%s", *rec.Faults[0].On, got, rec.Expect, logText(s.Log()))
	}
}
