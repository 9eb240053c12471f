package compare

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// testdata/team-lock.yaml is the user's file of the issue that found the
// unfair side by side: a team's lock (Lua compare-and-delete, 1s TTL, 200ms
// of work), four workers, and a 2s pause of W1 as it enters its critical
// section. Left: mutual-exclusion (W1 sleeps past its lease inside, the
// next worker takes the expired lock and enters beside it).
//
// Worked out before running, each from its own lesson:
//   - watchdog: the pause stops W1's whole process, its watchdog thread
//     too (watchdog-process-pause): no renewal reaches redis for 2s, the
//     lease (1s) runs out, another worker takes the lock and enters while
//     W1 sleeps inside: mutual-exclusion.
//   - redlock: W1 entered, so its acquisition was valid; a pause after
//     acquiring is what Redlock's validity check cannot see
//     (redlock-pause-after-acquire): the lease runs out on the node, another
//     worker takes a majority and enters beside W1: mutual-exclusion.
//   - fencing-token: the lock alone is a lease like the others: another
//     worker enters while W1 sleeps (mutual-exclusion, as the fencing
//     lesson expects too). The workers deduct from a stock that checks no
//     token, so the tokens protect nothing here: lost-update can follow;
//     the comparison must say the tokens go unchecked.
//
// None of the three may read "safe": the pause lands as W1 enters, on
// every side (the right's fault event comes right after W1's enter mark).
func TestTeamLockPauseOnEnter(t *testing.T) {
	f, err := scenario.Load("testdata/team-lock.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sc := &f.Scenarios[0]
	for _, with := range []string{"watchdog", "redlock", "fencing-token"} {
		t.Run(with, func(t *testing.T) {
			res := compareWith(t, f, sc, with)
			if !slices.Contains(res.Left.Verdicts, "mutual-exclusion") {
				t.Fatalf("left verdicts %v, want mutual-exclusion", res.Left.Verdicts)
			}
			if !slices.Contains(res.Right.Verdicts, "mutual-exclusion") {
				t.Errorf("right verdicts %v, want mutual-exclusion (notes %v)", res.Right.Verdicts, res.Notes)
			}
			if len(res.Faults) != 1 || res.Faults[0].How != Trigger || res.Faults[0].Right < 0 {
				t.Fatalf("faults %+v: want the pause on W1's enter kept and taken on the right", res.Faults)
			}
			pauseAfterEnter(t, res.Right.Log, "W1")
			pauseAfterEnter(t, res.Left.Log, "W1")
			tokens := slices.ContainsFunc(res.Notes, func(n sim.Text) bool { return strings.Contains(n.En, "nothing here checks them") })
			if tokens != (with == "fencing-token") || !res.Fair() {
				t.Errorf("notes %v (fair %v): want the unchecked tokens said for fencing-token alone", res.Notes, res.Fair())
			}
		})
	}
}

// pauseAfterEnter checks that client's pause comes right after its first
// enter mark: nothing of the client's own between them.
func pauseAfterEnter(t *testing.T, log []*sim.Event, client string) {
	t.Helper()
	entered := false
	for _, e := range log {
		switch {
		case e.Kind == sim.KindMark && e.Name == sim.MarkEnter && e.Client == client:
			entered = true
		case e.Kind == sim.KindFault && e.Name == "pause" && e.Client == client:
			if !entered {
				t.Fatalf("%s's pause (%s) comes before it enters", client, e)
			}
			return
		case entered && e.Client == client && e.Kind != sim.KindSay && e.Kind != sim.KindVerdict:
			t.Fatalf("%s's event %s comes between its enter and its pause", client, e)
		}
	}
	t.Fatalf("no pause of %s", client)
}

// The library rows name their lease otherwise (redsync: expiry, 8s by
// default, 32 tries 50-250ms apart; redislock: ttl, but one attempt by
// default): the team's 1s ttl and 100ms retry reach them under their own
// names, and the comparison says so. Worked out before running, from the
// libraries' own code:
//   - redsync: W1 takes the lock on the one node (quorum 1 of 1) with a 1s
//     expiry and never extends (the library has no watchdog, PR #153). Its
//     2s pause outlasts the key; a worker retrying every 100ms SETs it once
//     it expires and enters beside the sleeping W1: mutual-exclusion. W1's
//     unlock then finds another's value ("failed to unlock, lock was
//     already expired"). With the library's 8s default instead, the key
//     outlasts the pause, W1 releases at about 2.2s and the right reads
//     safe: the run this test guards against.
//   - redislock: W1 obtains with PX 1000 and nothing refreshes it; the
//     others retry linearly every 100ms until one SETs the expired key and
//     enters beside W1: mutual-exclusion; W1's release answers "lock not
//     held". With the default NoRetry, the others try once at 0s, give up,
//     and the right reads safe.
func TestTeamLockAgainstTheLibrariesCarriesTheLease(t *testing.T) {
	f, err := scenario.Load("testdata/team-lock.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sc := &f.Scenarios[0]
	for _, c := range []struct{ with, given, library string }{
		{"redsync", "expiry: 1s, retry_delay: 100ms, tries: 1000", "redsync: failed to unlock, lock was already expired"},
		{"redislock", "ttl: 1s, backoff: 100ms, deadline: 1m, retry_strategy: linear", "redislock: lock not held"},
	} {
		t.Run(c.with, func(t *testing.T) {
			res := compareWith(t, f, sc, c.with)
			if got := sorted(res.Right.Verdicts); !slices.Equal(got, []string{"mutual-exclusion"}) {
				t.Errorf("right verdicts %v, want [mutual-exclusion] (notes %v)", got, res.Notes)
			}
			pauseAfterEnter(t, res.Right.Log, "W1")
			for _, rc := range res.Right.Scenario.Clients {
				if _, ok := rc.Params["ttl"]; ok != (c.with == "redislock") {
					t.Errorf("%s's params %v", rc.Name, rc.Params)
				}
			}
			want := sim.Text{
				En: "The left's ttl: 1s, retry: 100ms (W1, W2, W3, W4) reach " + c.with + " under its own names: " + c.given + ", as on the report card (its own defaults give up sooner).",
				Zh: "左侧的 ttl: 1s、retry: 100ms（W1、W2、W3、W4）以 " + c.with + " 自己的参数名传给它：" + strings.ReplaceAll(c.given, ", ", "、") + "，与选锁报告卡相同（它自己的默认值会更早放弃）。"}
			if len(res.Notes) != 1 || res.Notes[0].En != want.En || res.Notes[0].Zh != want.Zh || !res.Fair() {
				t.Errorf("notes %v (fair %v), want only %v", res.Notes, res.Fair(), want)
			}
			refused := slices.ContainsFunc(res.Right.Log, func(e *sim.Event) bool {
				return e.Kind == sim.KindMark && e.Name == "release-refused" && e.Client == "W1" && strings.Contains(e.String(), c.library)
			})
			if !refused {
				t.Errorf("W1's release on the right is not refused with %q", c.library)
			}
		})
	}
}

// The built-in pair "no fencing vs fencing": the pause that lets the stale
// write land on the left lands as A enters on the right too, so B takes
// the lock with a larger token and writes, and A's late write with token 1
// is refused by the storage: no stale-write on the right, a write-rejected
// mark of A's, and mutual-exclusion (A still believes it holds the lock,
// as the fencing lesson expects).
func TestNoFencingVsFencingRefusesAWrite(t *testing.T) {
	f := catalog(t)
	res := compareWith(t, f, lessonOf(t, f, "lease-pause-stale-write"), "fencing-token-rejects-stale")
	if got := sorted(res.Left.Verdicts); !slices.Equal(got, []string{"mutual-exclusion", "stale-write"}) {
		t.Errorf("left verdicts %v", got)
	}
	if got := sorted(res.Right.Verdicts); !slices.Equal(got, []string{"mutual-exclusion"}) {
		t.Errorf("right verdicts %v, want [mutual-exclusion] (the lesson's own)", got)
	}
	refused := false
	for _, e := range res.Right.Log {
		refused = refused || e.Kind == sim.KindMark && e.Name == "write-rejected" && e.Client == "A"
	}
	if !refused {
		t.Error("the storage on the right never refused A's write")
	}
	if !res.Fair() {
		t.Errorf("notes: %v", res.Notes)
	}
}

// A fault placed on a command (a lost reply on A's GET lock, the first
// command of its GET-then-DEL release) has no command to name on the
// other side: it is placed at the same point of A's progress, its 1st
// command executed after it leaves its critical section. With Lua's
// release that is the script: its reply is lost there, not a reply of A's
// work or of its acquire.
func TestFaultOnACommandIsPlacedByMeaning(t *testing.T) {
	const src = `scenarios:
  - id: lost-get
    title: {en: "A lost reply on the release's GET", zh: "释放时 GET 的回复丢失"}
    seed: 1
    horizon: 10s
    data: {stock: "10"}
    clients:
      - {name: A, algorithm: owner-check-get-del, params: {ttl: 2s}, work: 300ms}
      - {name: B, algorithm: owner-check-get-del, params: {ttl: 2s}, work: 300ms, start: 50ms}
    faults:
      - {on: {kind: exec, client: A, cmd: GET, key: lock}, do: drop-reply, client: A}
    expect: [safe]
`
	f, err := scenario.Parse("lost-get.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	res := compareWith(t, f, &f.Scenarios[0], "lua-compare-delete")
	if len(res.Faults) != 1 {
		t.Fatalf("faults %+v", res.Faults)
	}
	get := res.Faults[0]
	if get.How != AtPlace || get.Place.Mark != sim.MarkLeave || get.Place.Kind != sim.KindExec || get.Place.K != 1 || get.Right < 0 || !res.Fair() {
		t.Fatalf("the GET's fault: %+v, notes %v", get, res.Notes)
	}
	for _, e := range res.Right.Log {
		if e.Kind == sim.KindLost && e.Client == "A" && e.Seq > get.Right {
			if !strings.Contains(e.String(), "compare_and_delete") {
				t.Errorf("the right lost %s, want the reply to A's release script", e)
			}
			return
		}
	}
	t.Error("no reply of A's lost on the right")
}

// A pause as A gets its fencing token (the fencing lock's own mark) has no
// equivalent with Lua compare-and-delete, which hands out no token: the
// comparison says so in words, in both languages, rather than offer the
// right's safe run as an answer. (The left is safe: A stops before it
// enters; B takes the expired lock with token 2, writes and is done by the
// time A wakes, enters alone and has its write with token 1 refused.)
func TestNoEquivalentPointIsSaid(t *testing.T) {
	const src = `scenarios:
  - id: pause-at-token
    title: {en: "A pause as A gets its token", zh: "A 拿到 token 时停顿"}
    seed: 1
    horizon: 10s
    storage: {fencing: true}
    clients:
      - {name: A, algorithm: fencing-token, params: {ttl: 1s}, task: write, work: 100ms}
      - {name: B, algorithm: fencing-token, params: {ttl: 1s}, task: write, work: 100ms, start: 100ms}
    faults:
      - {on: {kind: mark, name: token, client: A}, do: pause, client: A, for: 2s}
    expect: [safe]
`
	f, err := scenario.Parse("pause-at-token.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	res := compareWith(t, f, &f.Scenarios[0], "lua-compare-delete")
	if len(res.Faults) != 1 || res.Faults[0].How != Trigger || res.Faults[0].Right >= 0 {
		t.Fatalf("faults %+v: want the trigger kept and never reached on the right", res.Faults)
	}
	if res.Fair() || len(res.Notes) != 1 {
		t.Fatalf("notes %v, want one", res.Notes)
	}
	n := res.Notes[0]
	if !strings.Contains(n.En, "No equivalent point on the right: pause A (2s) at A's token mark") ||
		!strings.Contains(n.Zh, "右侧没有对应的时机：A 停顿（2s）") {
		t.Errorf("note: %v", n)
	}
}

// A parameter the right's lock does not take is said, once per value, with
// the clients that had it: the team's 1s TTL means nothing to a lock with
// no expiry (so the right is safe, and the reader knows why it is not the
// same lease), and no note for a lock that takes it.
func TestDroppedParametersAreSaid(t *testing.T) {
	f, err := scenario.Load("testdata/team-lock.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sc := &f.Scenarios[0]
	res := compareWith(t, f, sc, "setnx-no-expiry")
	want := "The left's ttl: 1s (W1, W2, W3, W4) is not a parameter of setnx-no-expiry"
	if !slices.ContainsFunc(res.Notes, func(n sim.Text) bool {
		return strings.HasPrefix(n.En, want) && strings.Contains(n.Zh, "不是 setnx-no-expiry 的参数")
	}) {
		t.Errorf("notes %v, want %q", res.Notes, want)
	}
	if !res.Fair() {
		t.Errorf("a dropped parameter is no unplaced fault: notes %v", res.Notes)
	}
	if res := compareWith(t, f, sc, "redlock"); len(res.Notes) != 0 {
		t.Errorf("redlock takes ttl: notes %v", res.Notes)
	}
}

// A row of the right is reached when the left has shown everything up to
// its moment. The team lock and the watchdog part at row 3: the clients'
// starts at 0s are the same rows in another order (W3 first on the left,
// W1 on the right), and the first row either side lacks is the first
// request (the team lock's SET against the watchdog's script), so every
// row of the right is placed by its virtual time. Worked out before the run: at
// the left's step 0 only the initial stock is shown, and no start of the
// right (all at 0s) may show before the left has started all its clients;
// and no row of the right at a time the left has not reached by that step.
func TestTheRightsRowsWaitForTheLeftsMoment(t *testing.T) {
	f, err := scenario.Load("testdata/team-lock.yaml")
	if err != nil {
		t.Fatal(err)
	}
	res := compareWith(t, f, &f.Scenarios[0], "watchdog")
	if res.Diverge != 2 || !strings.Contains(res.Left.Texts[2], "send") || !strings.Contains(res.Right.Texts[2], "EVALSHA") {
		t.Fatalf("the runs part at row %d (left %q, right %q), want row 3, the first request", res.Diverge+1, res.Left.Texts[res.Diverge], res.Right.Texts[res.Diverge])
	}
	shownAt := func(s Side, step int) (n int) {
		for _, at := range s.At {
			if at <= step {
				n++
			}
		}
		return n
	}
	if l, r := shownAt(res.Left, 0), shownAt(res.Right, 0); l != 1 || r != 1 {
		t.Errorf("at step 0 the left shows %d rows and the right %d, want the initial stock alone on both", l, r)
	}
	// The left's time at each step: the latest moment it has shown.
	end := map[int]time.Duration{}
	for _, e := range res.Left.Log {
		end[e.Step] = max(end[e.Step], e.T)
	}
	last := res.Left.Log[len(res.Left.Log)-1].Step
	for i, e := range res.Right.Rows {
		if at := res.Right.At[i]; at <= last && e.T > end[at] {
			t.Fatalf("the right's row %d (%s, at %v) is shown at the left's step %d, which has reached only %v",
				i+1, res.Right.Texts[i], e.T, at, end[at])
		}
	}
}

// A fault on a node the left's clients use and the right's never do lands
// on the right and changes nothing: Redlock's clock jump on r3 and its
// partitions of r4 and r5 against a single-node watchdog. The right's
// "safe" would answer nothing, so each is said and the comparison is not
// fair; the faults on r1, which both use, are not.
func TestAFaultOnANodeTheRightNeverUsesIsSaid(t *testing.T) {
	f := catalog(t)
	sc, ok := f.Find("redlock-clock-jump")
	if !ok {
		t.Fatal("no redlock-clock-jump lesson")
	}
	res := compareWith(t, f, sc, "watchdog")
	if res.Fair() {
		t.Fatalf("fair, with notes %v: the faults on r3, r4 and r5 reach nothing on the right", res.Notes)
	}
	said := map[string]bool{}
	for _, n := range res.Notes {
		for _, node := range []string{"r1", "r3", "r4", "r5"} {
			if strings.Contains(n.En, "no client on the right uses "+node+",") {
				said[node] = true
			}
		}
	}
	if !said["r3"] || !said["r4"] || !said["r5"] || said["r1"] {
		t.Errorf("nodes said unused on the right: %v, want r3, r4 and r5 only; notes %v", said, res.Notes)
	}
	// The same lesson against another Redlock of the same masters: every
	// node is used on both sides, nothing to say about nodes.
	res = compareWith(t, f, sc, "redsync")
	for _, n := range res.Notes {
		if strings.Contains(n.En, "no client on the right uses") {
			t.Errorf("against redsync: %s", n.En)
		}
	}
}

// Clients that start at one instant come in the engine's tie-break order
// on the left and the left's winners first on the right; that order alone
// is no difference between the locks. A shop's blind-DEL lock against
// Lua compare-and-delete: both take the lock with the same SET NX EX, so
// the first difference, argued before the run, is a release (the left's
// DEL where the right sends its script); against the watchdog, whose
// acquire is a script, it is the first request at 0s, never a start.
func TestTheOrderOfOneInstantIsNoDifference(t *testing.T) {
	const src = `scenarios:
  - id: shop-lock
    title: {en: "Three buyers, alice stalls inside"}
    seed: 7
    horizon: 12s
    data: {stock: "50"}
    clients:
      - {name: alice, algorithm: set-nx-ex-blind-del, params: {ttl: 2s, retry: 150ms}, work: 300ms}
      - {name: bob, algorithm: set-nx-ex-blind-del, params: {ttl: 2s, retry: 150ms}, work: 300ms}
      - {name: carol, algorithm: set-nx-ex-blind-del, params: {ttl: 2s, retry: 150ms}, work: 300ms}
    faults:
      - {on: {kind: mark, name: enter, client: alice}, do: pause, client: alice, for: 3s}
`
	f, err := scenario.Parse("shop.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	sc := &f.Scenarios[0]
	res := compareWith(t, f, sc, "lua-compare-delete")
	l, r := res.Left.Texts[res.Diverge], res.Right.Texts[res.Diverge]
	if strings.Contains(l, " start ") || !strings.Contains(l+r, "compare_and_delete") && !strings.Contains(l+r, "DEL lock") && !strings.Contains(l+r, "leave") {
		t.Errorf("against lua-compare-delete the runs part at row %d:\n left: %s\nright: %s\nwant a release", res.Diverge+1, l, r)
	}
	res = compareWith(t, f, sc, "watchdog")
	l, r = res.Left.Texts[res.Diverge], res.Right.Texts[res.Diverge]
	if !strings.Contains(l, " send ") || !strings.Contains(r, "EVALSHA") {
		t.Errorf("against watchdog the runs part at row %d:\n left: %s\nright: %s\nwant the first request", res.Diverge+1, l, r)
	}
}
