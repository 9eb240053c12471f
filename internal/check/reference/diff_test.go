package reference_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/check/reference"
	"github.com/lockstep/lockstep/internal/check/reference/gen"
	"github.com/lockstep/lockstep/internal/embedded"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// The generated corpus: LOCKSTEP_GEN=N (or -gen N) runs N scenarios instead
// of the default, LOCKSTEP_GEN_SEED=S (or -gen-seed S) draws another corpus.
var (
	genN    = flag.Int("gen", 0, "generated scenarios to run (0: $LOCKSTEP_GEN, else 200)")
	genSeed = flag.Uint64("gen-seed", 0, "seed of the generated corpus (0: $LOCKSTEP_GEN_SEED, else 1)")
)

const defaultCorpus = 200

func corpusSize() int {
	if *genN > 0 {
		return *genN
	}
	if n, err := strconv.Atoi(os.Getenv("LOCKSTEP_GEN")); err == nil && n > 0 {
		return n
	}
	return defaultCorpus
}

func corpusSeed() uint64 {
	if *genSeed > 0 {
		return *genSeed
	}
	if n, err := strconv.ParseUint(os.Getenv("LOCKSTEP_GEN_SEED"), 10, 64); err == nil && n > 0 {
		return n
	}
	return 1
}

// run runs a scenario to its end and returns its log and the production
// checker's verdicts, read from the log: a verdict logged before the world
// ended is reported right after the event (neither verdict nor say) that
// precedes it; one logged when the run finished, at the horizon.
func run(sc *scenario.Scenario, seed int64) ([]sim.Event, []reference.Verdict, error) {
	r, err := lesson.New(sc, lesson.Config{Seed: seed, Servers: embedded.Servers{}})
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	for r.World.Step() {
	}
	ended := len(r.World.Log())
	if err := r.RunToEnd(); err != nil {
		return nil, nil, err
	}
	log := make([]sim.Event, len(r.World.Log()))
	for i, e := range r.World.Log() {
		log[i] = *e
	}
	return log, logged(log, ended), nil
}

// logged reads the verdict events of a log; those at index ended or later
// are reported at the horizon.
func logged(log []sim.Event, ended int) []reference.Verdict {
	var out []reference.Verdict
	last := 0
	for i, e := range log {
		switch e.Kind {
		case sim.KindVerdict:
			after := last
			if i >= ended {
				after = 0
			}
			out = append(out, reference.Verdict{Name: e.Name, Refs: slices.Clone(e.Refs), After: after})
		case sim.KindSay:
		default:
			last = e.Seq
		}
	}
	return out
}

func same(a, b []reference.Verdict) bool {
	return slices.EqualFunc(a, b, func(x, y reference.Verdict) bool {
		return x.Name == y.Name && x.After == y.After && slices.Equal(x.Refs, y.Refs)
	})
}

// diff is one disagreement between the checkers.
type diff struct {
	what      string
	yaml      []byte
	seed      int64
	log       []sim.Event
	prod, ref []reference.Verdict
}

func (d diff) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "=== %s: the checkers disagree (seed %d)\n", d.what, d.seed)
	fmt.Fprintf(&b, "production: %v\nreference:  %v\n", d.prod, d.ref)
	if len(d.yaml) > 0 {
		b.WriteString("--- scenario\n")
		b.Write(d.yaml)
	}
	b.WriteString("--- log\n")
	for i := range d.log {
		b.WriteString(d.log[i].String() + "\n")
	}
	return b.String()
}

// causes sorts a disagreement by verdict name: a verdict only one side
// reports, or the same verdict (by name and moment) with other proving
// events, or at another moment.
func causes(prod, ref []reference.Verdict) []string {
	var out []string
	add := func(s string) {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	rest := slices.Clone(ref)
	var unmatched []reference.Verdict
	for _, p := range prod {
		i := slices.IndexFunc(rest, func(r reference.Verdict) bool {
			return r.Name == p.Name && r.After == p.After && slices.Equal(r.Refs, p.Refs)
		})
		if i >= 0 {
			rest = slices.Delete(rest, i, i+1)
			continue
		}
		unmatched = append(unmatched, p)
	}
	for _, p := range unmatched {
		i := slices.IndexFunc(rest, func(r reference.Verdict) bool { return r.Name == p.Name && r.After == p.After })
		if i < 0 {
			i = slices.IndexFunc(rest, func(r reference.Verdict) bool { return r.Name == p.Name })
			if i < 0 {
				add(p.Name + ": only production")
				continue
			}
			add(p.Name + ": reported at another moment")
		} else {
			add(p.Name + ": other proving events")
		}
		rest = slices.Delete(rest, i, i+1)
	}
	for _, r := range rest {
		add(r.Name + ": only reference")
	}
	if len(out) == 0 {
		add("order differs")
	}
	return out
}

// report fails t with each difference in full (the first few, all with
// -v; LOCKSTEP_DIFF_CAUSE="deadlock: only reference" shows only the runs of
// one cause) and a summary of their causes.
func report(t *testing.T, ds []diff, of int) {
	t.Helper()
	if len(ds) == 0 {
		return
	}
	byCause := map[string]int{}
	only := os.Getenv("LOCKSTEP_DIFF_CAUSE") // print only the runs of this cause
	shown := 0
	for _, d := range ds {
		cs := causes(d.prod, d.ref)
		for _, c := range cs {
			byCause[c]++
		}
		if only != "" && !slices.Contains(cs, only) {
			continue
		}
		if shown < 5 || testing.Verbose() {
			t.Error(d.String())
		}
		shown++
	}
	var lines []string
	for k, n := range byCause {
		lines = append(lines, fmt.Sprintf("%4d runs  %s", n, k))
	}
	slices.Sort(lines)
	t.Errorf("%d of %d runs differ; by cause:\n%s", len(ds), of, strings.Join(lines, "\n"))
}

// Every built-in lesson, run with its own seed: both checkers give the same
// verdicts, proving events and moments.
func TestDifferentialCatalog(t *testing.T) {
	f, err := scenario.ParseBuiltin("scenarios.yaml", lockstep.Scenarios)
	if err != nil {
		t.Fatal(err)
	}
	var ds []diff
	for i := range f.Scenarios {
		sc := &f.Scenarios[i]
		log, prod, err := run(sc, sc.Seed)
		if err != nil {
			t.Fatalf("%s: %v", sc.ID, err)
		}
		ref := reference.Check(log, lesson.CheckOptions(sc))
		if !same(prod, ref) {
			text, _ := scenario.MarshalScenario(sc)
			ds = append(ds, diff{what: "lesson " + sc.ID, yaml: text, seed: sc.Seed, log: log, prod: prod, ref: ref})
		}
	}
	report(t, ds, len(f.Scenarios))
}

// The generated corpus: both checkers agree on every run, and the corpus
// covers every algorithm and every fault kind of the menu (as faults the
// engine applied, not only as faults asked for).
func TestDifferentialGenerated(t *testing.T) {
	n, seed := corpusSize(), corpusSeed()
	algos, applied, variants, shapes := map[string]int{}, map[string]int{}, map[string]int{}, map[string]int{}
	verdicts := map[string]int{}
	var ds []diff
	refused, ran := 0, 0
	for i := range n {
		g := gen.Generate(seed, i)
		if g.Scenario == nil {
			refused++
			if refused <= 3 {
				t.Logf("generated scenario %d refused: %v\n%s", i, g.Err, g.YAML)
			}
			continue
		}
		sc := g.Scenario
		log, prod, err := run(sc, sc.Seed)
		if err != nil {
			refused++
			t.Logf("generated scenario %d does not build: %v", i, err)
			continue
		}
		ran++
		for _, c := range sc.Clients {
			algos[c.Algorithm]++
		}
		for _, f := range sc.Faults {
			variants[f.Do+map[bool]string{true: " for", false: ""}[f.For > 0]]++
			variants[f.Do+map[bool]string{true: " keep_data", false: ""}[f.KeepData]]++
			variants[map[bool]string{true: "on an event", false: "at a time"}[f.On != nil]]++
		}
		for _, e := range log {
			if e.Kind == sim.KindFault && e.Applied() {
				applied[e.Name]++
			}
		}
		for _, sh := range shapesOf(sc, log) {
			shapes[sh]++
		}
		for _, v := range prod {
			verdicts[v.Name]++
		}
		ref := reference.Check(log, lesson.CheckOptions(sc))
		if !same(prod, ref) {
			ds = append(ds, diff{what: fmt.Sprintf("generated %d (corpus seed %d)", i, seed), yaml: g.YAML, seed: sc.Seed, log: log, prod: prod, ref: ref})
		}
	}
	t.Logf("corpus seed %d: %d generated, %d ran, %d refused; algorithms %v; faults applied %v; shapes %v; verdicts %v", seed, n, ran, refused, algos, applied, shapes, verdicts)
	if refused*10 > n {
		t.Errorf("%d of %d generated scenarios were refused: the generator should rarely make invalid ones", refused, n)
	}
	if n >= defaultCorpus {
		for _, id := range lock.IDs() {
			if algos[id] == 0 {
				t.Errorf("no generated scenario runs algorithm %s", id)
			}
		}
		for _, k := range gen.FaultKinds {
			if applied[k] == 0 {
				t.Errorf("no generated run applied the fault %s", k)
			}
		}
		for _, sh := range []string{shapeMixed, shapeReissued, shapeFailoverStock} {
			if shapes[sh] == 0 {
				t.Errorf("no generated run has the shape %q", sh)
			}
		}
		for _, sh := range []string{shapeTokenless, shapeNobodyIn} {
			if n >= largeCorpus && shapes[sh] == 0 {
				t.Errorf("no generated run of %d has the shape %q", n, sh)
			}
		}
		for _, v := range []string{"crash", "crash for", "node-crash", "node-crash for", "node-crash keep_data",
			"node-restart keep_data", "partition", "partition for", "on an event", "at a time"} {
			if variants[v] == 0 {
				t.Errorf("no generated scenario has a fault %q", v)
			}
		}
	}
	report(t, ds, ran)
}

// The scenarios written outside the catalog (internal/lesson/testdata/checker:
// earlier misjudgements, a user's runs, issue by issue the classes the
// checkers once got wrong), each with its own seed: both checkers give the
// same verdicts, proving events and moments.
func TestDifferentialUserScenarios(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("..", "..", "lesson", "testdata", "checker", "*.yaml"))
	if len(paths) < 3 {
		t.Fatalf("found %v, want defects.yaml, users.yaml and truth.yaml", paths)
	}
	var ds []diff
	n := 0
	for _, path := range paths {
		f, err := scenario.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		for i := range f.Scenarios {
			sc := &f.Scenarios[i]
			log, prod, err := run(sc, sc.Seed)
			if err != nil {
				t.Fatalf("%s: %v", sc.ID, err)
			}
			n++
			ref := reference.Check(log, lesson.CheckOptions(sc))
			if !same(prod, ref) {
				text, _ := scenario.MarshalScenario(sc)
				ds = append(ds, diff{what: filepath.Base(path) + " " + sc.ID, yaml: text, seed: sc.Seed, log: log, prod: prod, ref: ref})
			}
		}
	}
	report(t, ds, n)
}

// The shapes that once fooled a checker, which the corpus must hold.
const (
	shapeMixed         = "two algorithms on one key"
	shapeReissued      = "a fencing token issued twice"
	shapeFailoverStock = "a stock write lost on failover"
	// rarer, required of a larger corpus (largeCorpus)
	shapeTokenless = "a token-less holder before a fenced write"
	shapeNobodyIn  = "nobody in, tries for 10s"
)

// largeCorpus is the corpus size from which the rarer shapes are required
// (scripts/test.sh runs 3,000).
const largeCorpus = 1000

// shapesOf names the shapes a run has: clients of two algorithms on one
// lock key, a fencing token number issued to two clients, a failover that
// lost a stock write its master had executed.
func shapesOf(sc *scenario.Scenario, log []sim.Event) []string {
	var out []string
	algos := map[string]map[string]bool{}
	for _, c := range sc.Clients {
		key := "lock"
		if k, ok := c.Params["key"].(string); ok {
			key = k
		}
		if algos[key] == nil {
			algos[key] = map[string]bool{}
		}
		algos[key][c.Algorithm] = true
	}
	for _, as := range algos {
		if len(as) > 1 {
			out = append(out, shapeMixed)
			break
		}
	}
	issued := map[int64]string{}
	for _, e := range log {
		n, ok := e.FencingToken()
		if !ok {
			continue
		}
		if c, ok := issued[n]; ok && c != e.Client {
			out = append(out, shapeReissued)
			break
		}
		issued[n] = e.Client
	}
	if tokenlessBeforeFencedWrite(sc, log) {
		out = append(out, shapeTokenless)
	}
	if nobodyIn(sc, log) {
		out = append(out, shapeNobodyIn)
	}
	for _, e := range log {
		if e.Kind == sim.KindFault && e.Name == "failover" && e.Applied() && e.Fact != nil && slices.ContainsFunc(e.Fact.Cmds, func(c string) bool { return strings.HasPrefix(c, "SET stock") }) {
			out = append(out, shapeFailoverStock)
			break
		}
	}
	return out
}

// tokenlessBeforeFencedWrite: on a fenced storage, a client whose
// algorithm draws no token wrote a lock key (SET, SETNX, EVAL...) between
// another client's token mark for that lock and that client's accepted
// WRITE with a token.
func tokenlessBeforeFencedWrite(sc *scenario.Scenario, log []sim.Event) bool {
	opt := lesson.CheckOptions(sc)
	if !opt.FencedStorage || len(opt.Tokenless) == 0 {
		return false
	}
	tokenAt := map[string]int{} // client -> its latest token mark
	wroteLock := map[string][]int{}
	for _, e := range log {
		switch {
		case e.Kind == sim.KindMark && e.Name == sim.MarkToken:
			tokenAt[e.Client] = e.Seq
		case e.Kind == sim.KindExec && slices.Contains(opt.Tokenless, e.Client) && slices.ContainsFunc(e.Keys, func(k sim.KeyState) bool { return slices.Contains(opt.Locks, k.Key) }):
			wroteLock[e.Client] = append(wroteLock[e.Client], e.Seq)
		case e.Kind == sim.KindExec && len(e.Cmd) == 5 && strings.EqualFold(e.Cmd[0], "WRITE") && e.Answer.Type == sim.AnswerOK && tokenAt[e.Client] > 0:
			for c, seqs := range wroteLock {
				if c != e.Client && slices.ContainsFunc(seqs, func(s int) bool { return s > tokenAt[e.Client] }) {
					return true
				}
			}
		}
	}
	return false
}

// nobodyIn: no acquired or enter mark in the whole log, and clients'
// commands on lock keys span 10s or more.
func nobodyIn(sc *scenario.Scenario, log []sim.Event) bool {
	opt := lesson.CheckOptions(sc)
	var first, last time.Duration
	seen := false
	for _, e := range log {
		if e.Kind == sim.KindMark && (e.Name == sim.MarkAcquired || e.Name == sim.MarkEnter) {
			return false
		}
		if e.Kind == sim.KindExec && e.Client != "" && slices.ContainsFunc(e.Keys, func(k sim.KeyState) bool { return slices.Contains(opt.Locks, k.Key) }) {
			if !seen {
				first, seen = e.T, true
			}
			last = e.T
		}
	}
	return seen && last-first >= 10*time.Second
}
