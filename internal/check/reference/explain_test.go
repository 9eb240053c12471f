package reference_test

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/check"
	"github.com/lockstep/lockstep/internal/check/reference"
	"github.com/lockstep/lockstep/internal/check/reference/gen"
	"github.com/lockstep/lockstep/internal/embedded"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// Every explanation says only what the run shows: each verdict the checker
// gives — on every lesson, every scenario written outside the catalog and
// a generated corpus — comes with the claims its sentences make, every
// event its text cites (#N, in English and Chinese) is the subject of one
// of them, and every claim holds in the reference checker's model of the
// log. An explanation that says "A never got it" while A's SET had won the
// key, or "B never let go" of a lock B released, fails here.
func TestExplanationsHoldInTheModel(t *testing.T) {
	type run struct {
		what string
		sc   *scenario.Scenario
	}
	var runs []run
	f, err := scenario.ParseBuiltin("scenarios.yaml", lockstep.Scenarios)
	if err != nil {
		t.Fatal(err)
	}
	for i := range f.Scenarios {
		runs = append(runs, run{"lesson " + f.Scenarios[i].ID, &f.Scenarios[i]})
	}
	paths, _ := filepath.Glob(filepath.Join("..", "..", "lesson", "testdata", "checker", "*.yaml"))
	for _, path := range paths {
		uf, err := scenario.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		for i := range uf.Scenarios {
			runs = append(runs, run{filepath.Base(path) + " " + uf.Scenarios[i].ID, &uf.Scenarios[i]})
		}
	}
	n := corpusSize()
	for i := range n {
		if g := gen.Generate(corpusSeed(), i); g.Scenario != nil {
			runs = append(runs, run{fmt.Sprintf("generated %d (corpus seed %d)", i, corpusSeed()), g.Scenario})
		}
	}
	kinds := map[check.ClaimKind]int{}
	failed := 0
	for _, r := range runs {
		lr, err := lesson.New(r.sc, lesson.Config{Seed: r.sc.Seed, Servers: embedded.Servers{}})
		if err != nil {
			t.Fatalf("%s: %v", r.what, err)
		}
		if err := lr.RunToEnd(); err != nil {
			t.Fatalf("%s: %v", r.what, err)
		}
		log := make([]sim.Event, len(lr.World.Log()))
		for i, e := range lr.World.Log() {
			log[i] = *e
		}
		opt := lesson.CheckOptions(r.sc)
		explained := lr.Checker.Explained()
		lr.Close()
		var verdicts []sim.Event
		for _, e := range log {
			if e.Kind == sim.KindVerdict {
				verdicts = append(verdicts, e)
			}
		}
		if len(verdicts) != len(explained) {
			t.Fatalf("%s: %d verdict events, %d explained", r.what, len(verdicts), len(explained))
		}
		for i, v := range verdicts {
			ex := explained[i]
			for _, c := range ex.Claims {
				kinds[c.Kind]++
			}
			var problems []string
			problems = append(problems, uncited(v, ex.Claims)...)
			for _, c := range ex.Claims {
				if why := holds(log, opt, v.Seq, c); why != "" {
					problems = append(problems, fmt.Sprintf("claim %+v: %s", c, why))
				}
			}
			if len(problems) > 0 {
				failed++
				if failed <= 5 {
					t.Errorf("%s: #%d %s: %s\n  %s\n  %s", r.what, v.Seq, v.Name, v.Say.En, v.Say.Zh, strings.Join(problems, "\n  "))
				}
			}
		}
	}
	t.Logf("%d runs; claims checked by kind: %v", len(runs), kinds)
	if failed > 0 {
		t.Errorf("%d explanations say what the model does not show", failed)
	}
}

var citation = regexp.MustCompile(`#(\d+)`)

// uncited lists the events a verdict's text cites that no claim is about.
func uncited(v sim.Event, claims []check.Claim) []string {
	var out []string
	for _, text := range []string{v.Say.En, v.Say.Zh} {
		for _, m := range citation.FindAllStringSubmatch(text, -1) {
			n, _ := strconv.Atoi(m[1])
			if !slices.ContainsFunc(claims, func(c check.Claim) bool { return c.At == n || c.Until == n }) {
				out = append(out, fmt.Sprintf("#%d is cited but no claim is about it", n))
			}
		}
	}
	return out
}

// holds checks one claim of the verdict logged at seq against the log and
// the reference model; it returns why the claim does not hold ("" when it
// does).
func holds(log []sim.Event, opt check.Options, seq int, c check.Claim) string {
	ev := func(s int) *sim.Event {
		if s < 1 || s > len(log) || log[s-1].Seq != s {
			return nil
		}
		return &log[s-1]
	}
	whoOf := func(e *sim.Event) string {
		if e.Thread == "" || e.Thread == "main" {
			return e.Client
		}
		return e.Client + "/" + e.Thread
	}
	client, _, _ := strings.Cut(c.Who, "/")
	// before is the model right before event s (0: at the end of the run).
	before := func(s int) *reference.State { return reference.At(log, opt, s) }
	after := func(s int) *reference.State { return reference.At(log, opt, s+1) }
	incAt := func(s int) int { i, _ := before(s).Inc(client); return i }
	end := before(0)
	switch c.Kind {
	case check.ClaimEnter:
		e := ev(c.At)
		if e == nil || e.Kind != sim.KindMark || e.Name != sim.MarkEnter || whoOf(e) != c.Who || e.Lock != c.Lock || incAt(c.At) != c.Inc {
			return "no such enter mark"
		}
	case check.ClaimInside:
		if in, ok := before(c.Until).Inside(c.Who, c.Inc, c.Lock); !ok || in != c.At {
			return fmt.Sprintf("not inside since #%d right before #%d (inside: %v since #%d)", c.At, c.Until, ok, in)
		}
	case check.ClaimRemoved:
		e := ev(c.At)
		if e == nil || e.Kind != sim.KindExec || whoOf(e) != c.Who || e.Node != c.Node {
			return "no such exec"
		}
		if _, was := before(c.At).Key(c.Node, c.Key); !was {
			return "the key was not there before it"
		}
		if _, is := after(c.At).Key(c.Node, c.Key); is {
			return "the key is still there after it"
		}
	case check.ClaimHeld:
		s := end
		if c.Until > 0 {
			s = before(c.Until)
		}
		if !slices.ContainsFunc(s.Holders(c.Node, c.Key), func(h reference.Holder) bool {
			return h.Who == c.Who && h.Inc == c.Inc && h.Since == c.At
		}) {
			return fmt.Sprintf("holders are %+v", s.Holders(c.Node, c.Key))
		}
	case check.ClaimBelieved:
		s := end
		if c.Until > 0 {
			s = before(c.Until)
		}
		if s.Believes(c.Who, c.Inc, c.Lock) != (c.N == 1) {
			return "belief differs"
		}
	case check.ClaimNoExpiry:
		if k, ok := end.Key(c.Node, c.Key); !ok || k.TTL != -1 {
			return fmt.Sprintf("at the end: %+v (exists %v)", k, ok)
		}
	case check.ClaimCrashed:
		e := ev(c.At)
		if e == nil || e.Kind != sim.KindFault || e.Name != string(sim.FaultCrash) || e.Client != client || !e.Applied() || incAt(c.At) != c.Inc {
			return "no such crash"
		}
	case check.ClaimEnded:
		e := ev(c.At)
		if e == nil || e.Kind != sim.KindDone || whoOf(e) != c.Who || e.Failed() != (c.N == 1) || incAt(c.At) != c.Inc {
			return "no such done"
		}
	case check.ClaimReleased:
		e := ev(c.At)
		name := sim.MarkReleased
		if c.N == 1 {
			name = sim.MarkReleaseFailed
		}
		if e == nil || e.Kind != sim.KindMark || e.Name != name || whoOf(e) != c.Who || e.Lock != c.Lock || c.At <= c.Until || incAt(c.At) != c.Inc {
			return "no such released mark"
		}
	case check.ClaimPromoted:
		e := ev(c.At)
		if e == nil || e.Kind != sim.KindFault || e.Name != string(sim.FaultFailover) || !e.Applied() || opt.ReplicaOf[c.Node] != e.Node {
			return "no such failover"
		}
	case check.ClaimUnanswered:
		e := ev(c.At)
		want := sim.KindLost
		if c.N == 1 {
			want = sim.KindTimeout
		}
		if e == nil || e.Kind != want {
			return "no such lost or timeout event"
		}
		if !slices.ContainsFunc(end.Holders(c.Node, c.Key), func(h reference.Holder) bool {
			return h.Who == c.Who && h.Inc == c.Inc && h.Since == c.Until && h.Req == e.Req
		}) {
			return fmt.Sprintf("its request does not give the holder its key: holders %+v", end.Holders(c.Node, c.Key))
		}
	case check.ClaimAsksSelf:
		var writes []int
		for _, a := range end.Attempts(c.Who, c.Inc, c.Node, c.Key) {
			if a.Seq > c.Until && a.Write {
				if a.Changed {
					return fmt.Sprintf("its write #%d changed the key", a.Seq)
				}
				writes = append(writes, a.Seq)
			}
		}
		if int64(len(writes)) != c.N || len(writes) == 0 {
			return fmt.Sprintf("%d writes since #%d", len(writes), c.Until)
		}
		re, ok := end.Reenter(c.Who, c.Inc, c.Lock)
		if !(ok && re > c.Until && re == c.At || !(ok && re > c.Until) && writes[0] == c.At) {
			return "the event is neither its reenter mark nor its first write"
		}
	case check.ClaimRecovers:
		k, _ := end.Key(c.Node, c.Key)
		i := slices.IndexFunc(opt.Recoverers, func(r check.Recoverer) bool { return r.Lock == c.Lock && r.Client == c.Who })
		if i < 0 {
			return "no such recoverer"
		}
		if c.N == 1 {
			if rc := opt.Recoverers[i]; rc.Frees == nil || rc.Frees(k.Type, k.Value) {
				return "its algorithm frees this value"
			}
			break
		}
		e := ev(c.At)
		inc, up := end.Inc(c.Who)
		switch {
		case e == nil:
			return "no such event"
		case e.Kind == sim.KindFault && e.Name == string(sim.FaultCrash) && e.Client == c.Who:
			if up {
				return "it is up again at the end"
			}
		case e.Kind == sim.KindDone && e.Client == c.Who && (e.Thread == "" || e.Thread == "main"):
			if incAt(c.At) != inc {
				return "a done of another incarnation"
			}
		default:
			return "neither its crash nor its program's end"
		}
	case check.ClaimRefused:
		lock := sim.LockOfKey(c.Key)
		var in []int
		for _, s := range end.Refusals(c.Who, c.Inc, lock) {
			if s >= c.At && s <= c.Until {
				in = append(in, s)
			}
		}
		if len(in) == 0 || in[0] != c.At || in[len(in)-1] != c.Until || int64(len(in)) != c.N {
			return fmt.Sprintf("refusals from #%d to #%d: %v", c.At, c.Until, in)
		}
		for _, s := range end.Turns(c.Who, c.Inc) {
			if s >= c.At {
				return fmt.Sprintf("it got a lock key, acquired or gave up at #%d", s)
			}
		}
	case check.ClaimNoEntry:
		if end.Entered() {
			return "a thread entered a critical section"
		}
	case check.ClaimTried:
		ts := end.Tries(c.Who, c.Inc)
		if len(ts) == 0 || ts[0] != c.At || ts[len(ts)-1] != c.Until || int64(len(ts)) != c.N {
			return fmt.Sprintf("its tries are %v", ts)
		}
		if e, l := ev(c.At), ev(c.Until); e == nil || l == nil || l.T-e.T < check.StarveAfter {
			return "its tries span less than check.StarveAfter"
		}
	case check.ClaimFree:
		if hs := end.Holders(c.Node, c.Key); len(hs) > 0 {
			return fmt.Sprintf("held at the end by %+v", hs)
		}
	case check.ClaimAccepted:
		e := ev(c.At)
		if e == nil || e.Kind != sim.KindExec || whoOf(e) != c.Who || e.Node != c.Node || len(e.Cmd) == 0 || !strings.EqualFold(e.Cmd[0], "WRITE") || e.Reply != "OK" {
			return "no such accepted write"
		}
	case check.ClaimLease:
		if int64(before(0).Quorum(c.Who, c.Lock)) != c.N {
			return "another quorum"
		}
		if before(c.At).Holding(c.Who, c.Inc, c.Lock) || !after(c.At).Holding(c.Who, c.Inc, c.Lock) {
			return fmt.Sprintf("it did not come to hold the lock at #%d", c.At)
		}
		if c.Until > 0 && (!before(c.Until).Holding(c.Who, c.Inc, c.Lock) || after(c.Until).Holding(c.Who, c.Inc, c.Lock)) {
			return fmt.Sprintf("it did not fall below the quorum at #%d", c.Until)
		}
	case check.ClaimHolding:
		if before(c.Until).Holding(c.Who, c.Inc, c.Lock) {
			return "it held the lock"
		}
	case check.ClaimToken:
		e := ev(c.At)
		if e == nil || e.Kind != sim.KindMark || e.Name != sim.MarkToken || e.Client != c.Who || e.Lock != c.Lock || func() bool { n, ok := e.FencingToken(); return !ok || n != c.N }() {
			return "no such token mark"
		}
		if c.At >= seq {
			return "issued after the verdict's event"
		}
	case check.ClaimDerived, check.ClaimOverwrote, check.ClaimNegative:
		ws := end.StockWrites()
		i := slices.IndexFunc(ws, func(w reference.StockWrite) bool { return w.Seq == c.At })
		if i < 0 {
			return "no such stock write"
		}
		w := ws[i]
		switch c.Kind {
		case check.ClaimDerived:
			if e := ev(c.At); w.Read != c.Until || whoOf(e) != c.Who {
				return fmt.Sprintf("derived from #%d", w.Read)
			}
		case check.ClaimOverwrote:
			if w.Latest != c.Until {
				return fmt.Sprintf("the latest version was #%d", w.Latest)
			}
		default:
			if n, err := strconv.Atoi(w.Value); err != nil || n >= 0 {
				return "not below zero"
			}
		}
	case check.ClaimFailover:
		e := ev(c.At)
		if e == nil || e.Kind != sim.KindFault || e.Name != string(sim.FaultFailover) || e.Node != c.Node || !e.Applied() {
			return "no such failover"
		}
		for r, m := range opt.ReplicaOf {
			if m == c.Node && before(c.At).Stock(r) == c.Until {
				return fmt.Sprintf("its replica %s held that version", r)
			}
		}
	case check.ClaimSales, check.ClaimInitial:
		ws := end.StockWrites()
		sales := 0
		for _, w := range ws {
			if n, err := strconv.Atoi(w.ReadValue); err == nil && w.ReadVersion != 0 && n > 0 {
				sales++
			}
		}
		init, _ := strconv.Atoi(end.Initial())
		if c.Kind == check.ClaimSales && int64(sales) != c.N || c.Kind == check.ClaimInitial && int64(init) != c.N {
			return fmt.Sprintf("%d sales of %d", sales, init)
		}
	default:
		return "unknown kind"
	}
	return ""
}
