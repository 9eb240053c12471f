package narrate_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/check"
	"github.com/lockstep/lockstep/internal/check/reference"
	"github.com/lockstep/lockstep/internal/check/reference/gen"
	"github.com/lockstep/lockstep/internal/embedded"
	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/narrate"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// Every sentence of every story is true of its run: the test walks the
// catalog, the labs, a corpus of generated scenarios, the scenarios of
// testdata/stories.yaml and the checker's scenarios written outside the
// catalog (../lesson/testdata/checker: mixed algorithms on one key,
// counters that restart, failovers), tells each run's story, and checks
// each line's claim, at the event that made it, against the checker's model (who is
// inside, who holds which key, what a command removed) and against the log
// (where a failed Redlock vote really released). It keeps its own account
// of what each thread's commands did to lock keys since it acquired, so
// that a release's sentence is checked by other code than the one that
// wrote it.
func TestEveryStorySentenceIsTrue(t *testing.T) {
	n := 150
	if testing.Short() {
		n = 40
	}
	all := corpus(t, 20, n)
	kinds := map[narrate.ClaimKind]int{}
	lines, crossChecked := 0, 0 // crossChecked: lines verify also checked in the reference's model
	for _, sc := range all {
		log := run(t, sc)
		for _, l := range verify(t, sc, log) {
			kinds[l.Claim.Kind]++
			lines++
			if whoseKey(l.Claim) != "" || len(l.Claim.Holds) > 0 {
				crossChecked++
			}
		}
	}
	t.Logf("%d scenarios, %d lines: %v; %d of them checked in the reference's model too", len(all), lines, kinds, crossChecked)
	if crossChecked < 100 {
		t.Errorf("%d lines checked in the reference checker's model: it checks little", crossChecked)
	}
	for _, k := range []narrate.ClaimKind{narrate.ClaimAcquires, narrate.ClaimEnters, narrate.ClaimReleases, narrate.ClaimRemovedNot,
		narrate.ClaimDeletedNone, narrate.ClaimRemoves, narrate.ClaimOverwrites, narrate.ClaimExpires, narrate.ClaimShort,
		narrate.ClaimStaleWrite, narrate.ClaimLapsedWrite, narrate.ClaimVotes, narrate.ClaimNow, narrate.ClaimGivesBack, narrate.ClaimRefused,
		narrate.ClaimFoundNone, narrate.ClaimEnds} {
		if kinds[k] == 0 {
			t.Errorf("no line of the corpus claims %s: the test checks nothing of it", k)
		}
	}
}

// The scenarios of testdata/stories.yaml say what their stories must say
// (want:) and must never say (never:), argued before they were run.
func TestUserStoriesSayWhatWasArgued(t *testing.T) {
	text, err := os.ReadFile("testdata/stories.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want, never := argued(string(text))
	for _, sc := range userScenarios(t) {
		t.Run(sc.ID, func(t *testing.T) {
			log := run(t, sc)
			var story []string
			for _, l := range narrate.Tell(log, lesson.CheckOptions(sc)) {
				story = append(story, l.Text.En)
			}
			all := strings.Join(story, "\n")
			if len(want[sc.ID]) == 0 {
				t.Fatal("the scenario argues no sentence")
			}
			for _, w := range want[sc.ID] {
				if !slices.Contains(story, w) {
					t.Errorf("the story lacks %q; it says:\n%s", w, all)
				}
			}
			for _, nv := range never[sc.ID] {
				if strings.Contains(all, nv) {
					t.Errorf("the story says %q; it says:\n%s", nv, all)
				}
			}
		})
	}
}

// argued reads the want: and never: comments above each scenario.
func argued(text string) (want, never map[string][]string) {
	want, never = map[string][]string{}, map[string][]string{}
	line := regexp.MustCompile(`^\s*#\s+(want|never): "(.*)"$`)
	id := regexp.MustCompile(`^\s*- id: (\S+)$`)
	var w, nv []string
	for _, l := range strings.Split(text, "\n") {
		if m := line.FindStringSubmatch(l); m != nil {
			if m[1] == "want" {
				w = append(w, m[2])
			} else {
				nv = append(nv, m[2])
			}
		}
		if m := id.FindStringSubmatch(l); m != nil {
			want[m[1]], never[m[1]] = w, nv
			w, nv = nil, nil
		}
	}
	return want, never
}

func userScenarios(t *testing.T) []*scenario.Scenario {
	t.Helper()
	text, err := os.ReadFile("testdata/stories.yaml")
	if err != nil {
		t.Fatal(err)
	}
	f, err := scenario.Parse("stories.yaml", text)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]*scenario.Scenario, len(f.Scenarios))
	for i := range f.Scenarios {
		out[i] = &f.Scenarios[i]
	}
	return out
}

// checkerScenarios are the scenarios of the checker's files outside the
// catalog (internal/lesson/testdata/checker/*.yaml).
func checkerScenarios(t *testing.T) []*scenario.Scenario {
	t.Helper()
	paths, err := filepath.Glob("../lesson/testdata/checker/*.yaml")
	if err != nil || len(paths) < 3 {
		t.Fatalf("../lesson/testdata/checker holds %v (%v), want defects, truth and users", paths, err)
	}
	var out []*scenario.Scenario
	for _, p := range paths {
		f, err := scenario.Load(p)
		if err != nil {
			t.Fatal(err)
		}
		for i := range f.Scenarios {
			out = append(out, &f.Scenarios[i])
		}
	}
	return out
}

// run runs a scenario to its end and gives its log.
func run(t *testing.T, sc *scenario.Scenario) []*sim.Event {
	t.Helper()
	r, err := lesson.New(sc, lesson.Config{Seed: sc.Seed, Servers: embedded.Servers{}})
	if err != nil {
		t.Fatalf("%s: %v", sc.ID, err)
	}
	t.Cleanup(r.Close)
	if err := r.RunToEnd(); err != nil {
		t.Fatal(err)
	}
	return r.World.Log()
}

// verify tells the story of log and checks each line's claim; it gives
// the lines. The story is told from the checker's model, and checked
// against it; whose lock a line says was removed, overwritten or expired
// is checked against the reference checker's own model too (crossCheck),
// so that a line is not only true of the model it was told from.
func verify(t *testing.T, sc *scenario.Scenario, log []*sim.Event) []narrate.Line {
	t.Helper()
	c := check.New(lesson.CheckOptions(sc))
	ref := reference.NewReplay(lesson.CheckOptions(sc))
	n := narrate.New(c)
	a := &account{since: map[string][]check.Change{}, inside: map[string]bool{}}
	var out []narrate.Line
	fail := func(e *sim.Event, l narrate.Line, err error) {
		t.Errorf("%s #%d %q: %v\n  event: %s", sc.ID, e.Seq, l.Text.En, err, e)
	}
	for i, e := range log {
		if e.Kind == sim.KindSay || e.Kind == sim.KindVerdict {
			continue
		}
		for _, v := range c.Observe(e) {
			if err := cites(v.Say); err != nil {
				t.Errorf("%s: the %s verdict at #%d: %v", sc.ID, v.Name, e.Seq, err)
			}
		}
		lines := n.Observe(e)
		var before map[string][]string // the reference's holders of each claimed key before e
		for _, l := range lines {
			if err := a.check(c.View(), c.Changes(), e, log[i+1:], l.Claim); err != nil {
				fail(e, l, err)
			}
			if whose := whoseKey(l.Claim); whose != "" {
				if before == nil {
					before = map[string][]string{}
				}
				before[whose] = refHolders(ref.State(), l.Claim.Node, l.Claim.Key)
			}
		}
		ref.Observe(e)
		for _, l := range lines {
			if err := crossCheck(ref.State(), before, l.Claim); err != nil {
				fail(e, l, fmt.Errorf("the reference checker's model: %w", err))
			}
		}
		out = append(out, lines...)
		a.note(c, e)
		if i%17 == 0 {
			if l, ok := n.Now(); ok {
				if err := checkNow(c.View(), l.Claim); err != nil {
					fail(e, l, err)
				}
				if err := crossCheck(ref.State(), nil, l.Claim); err != nil {
					fail(e, l, fmt.Errorf("the reference checker's model: %w", err))
				}
				out = append(out, l)
			}
		}
	}
	return out
}

// whoseKey is the node and key a line says whose lock it took away ("" for
// other lines).
func whoseKey(c narrate.Claim) string {
	switch c.Kind {
	case narrate.ClaimRemoves, narrate.ClaimOverwrites, narrate.ClaimExpires:
		return c.Node + "\x00" + c.Key
	}
	return ""
}

// refHolders are the clients and threads (both forms) holding key on node
// in the reference's model.
func refHolders(s *reference.State, node, key string) []string {
	var out []string
	for _, h := range s.Holders(node, key) {
		c, _, _ := strings.Cut(h.Who, "/")
		out = append(out, h.Who, c)
	}
	return out
}

// crossCheck checks, in the reference's model, a line that says whose
// lock an event took away: each client or thread it names held the key
// just before the event and holds it no more after. A line that says
// which keys hold whose lock now is checked the same way.
func crossCheck(s *reference.State, before map[string][]string, c narrate.Claim) error {
	if k := whoseKey(c); k != "" {
		after := refHolders(s, c.Node, c.Key)
		for _, w := range c.Whose {
			if !slices.Contains(before[k], w) {
				return fmt.Errorf("%s did not hold %s on %s before (holders %v)", w, c.Key, c.Node, before[k])
			}
			if slices.Contains(after, w) {
				return fmt.Errorf("%s still holds %s on %s (holders %v)", w, c.Key, c.Node, after)
			}
		}
	}
	for _, h := range c.Holds {
		now := refHolders(s, h.Node, h.Key)
		for _, w := range h.Whose {
			if !slices.Contains(now, w) {
				return fmt.Errorf("the line says %s holds %s on %s; the holders are %v", w, h.Key, h.Node, now)
			}
		}
	}
	return nil
}

// seqRef is an event cited in a sentence as its text shows it.
var seqRef = regexp.MustCompile(`#[0-9]+`)

// cites checks that a verdict's sentence carries every event it cites as
// data (Text.Cites), where its text shows it, and nothing else.
func cites(say *sim.Text) error {
	if say == nil {
		return fmt.Errorf("no sentence")
	}
	for _, x := range []struct {
		s  string
		zh bool
	}{{say.En, false}, {say.Zh, true}} {
		if strings.ContainsAny(x.s, "\x02\x03") {
			return fmt.Errorf("the sentence keeps its citation marks: %q", x.s)
		}
		shown := seqRef.FindAllString(x.s, -1)
		var carried []string
		for _, c := range say.Cites {
			if c.Zh == x.zh {
				carried = append(carried, x.s[c.From:c.To])
				if x.s[c.From:c.To] != fmt.Sprintf("#%d", c.Seq) {
					return fmt.Errorf("the citation of #%d stands over %q", c.Seq, x.s[c.From:c.To])
				}
			}
		}
		if err := sameSet("citations", carried, shown); err != nil || len(carried) != len(shown) {
			return fmt.Errorf("%q cites %v, carries %v", x.s, shown, carried)
		}
	}
	return nil
}

// account is the test's own record of what each thread's commands did to
// lock keys since it last acquired or released.
type account struct {
	since  map[string][]check.Change
	inside map[string]bool // threads inside a critical section, by their enter and leave marks
}

// note records e's changes, once its lines are checked.
func (a *account) note(c *check.Checker, e *sim.Event) {
	switch {
	case e.Kind == sim.KindExec && e.Client != "" && sim.Writes(e.Cmd):
		for _, ch := range c.Changes() {
			if ch.IsLock {
				a.since[e.Who()] = append(a.since[e.Who()], ch)
			}
		}
	case e.Kind == sim.KindMark && (e.Name == sim.MarkAcquired || e.Name == sim.MarkReleased || e.Name == sim.MarkReleaseRefused):
		delete(a.since, e.Who())
	}
	switch {
	case e.Kind == sim.KindMark && e.Name == sim.MarkEnter:
		a.inside[e.Who()] = true
	case e.Kind == sim.KindMark && e.Name == sim.MarkLeave, e.Kind == sim.KindDone:
		delete(a.inside, e.Who())
	case e.Kind == sim.KindFault && e.Name == string(sim.FaultCrash):
		for who := range a.inside {
			if c, _, _ := strings.Cut(who, "/"); c == e.Client {
				delete(a.inside, who)
			}
		}
	}
}

// check checks one claim made at event e (rest: the events after it).
func (a *account) check(v check.View, chs []check.Change, e *sim.Event, rest []*sim.Event, c narrate.Claim) error {
	client, _, _ := strings.Cut(c.Who, "/")
	mark := func(names ...string) error {
		if e.Kind != sim.KindMark || !slices.Contains(names, e.Name) || e.Who() != c.Who {
			return fmt.Errorf("claims %s of %s at an event that is not its %v mark", c.Kind, c.Who, names)
		}
		return nil
	}
	switch c.Kind {
	case narrate.ClaimEvent:
		return nil
	case narrate.ClaimAcquires:
		return mark(sim.MarkAcquired)
	case narrate.ClaimLeaves:
		if err := mark(sim.MarkLeave); err != nil {
			return err
		}
		if slices.ContainsFunc(v.Insiders(), func(in check.Insider) bool { return in.Who == c.Who && in.Lock == e.Lock }) {
			return fmt.Errorf("%s is still inside %s", c.Who, e.Lock)
		}
	case narrate.ClaimEnters:
		if err := mark(sim.MarkEnter); err != nil {
			return err
		}
		return sameSet("inside", c.Inside, insideWith(v, c.Who, c.Lock))
	case narrate.ClaimStock:
		if err := mark("deduct"); err != nil {
			return err
		}
		return sameSet("inside", c.Inside, othersInside(v, client))
	case narrate.ClaimGivesBack:
		if err := mark(sim.MarkReleased); err != nil {
			return err
		}
		if on := v.HeldOnBy(c.Who, c.Lock); (on == 0) != c.Gone {
			return fmt.Errorf("%s holds %s on %d nodes, the line says gone: %v", c.Who, c.Lock, on, c.Gone)
		}
	case narrate.ClaimRefused:
		if err := mark(sim.MarkReleaseRefused); err != nil {
			return err
		}
		if on, need := v.HeldOnBy(c.Who, c.Lock), 0; on > 0 {
			_, need = v.HeldOn(client, c.Lock)
			if on >= need {
				return fmt.Errorf("%s still holds %s on %d of the %d nodes it needs", c.Who, c.Lock, on, need)
			}
		}
	case narrate.ClaimFoundNone:
		if err := mark(sim.MarkReleaseRefused); err != nil {
			return err
		}
		for _, k := range v.Held() {
			if k.IsLock && k.Lock == c.Lock && !v.Down(k.Node) && v.Serving(k.Node) {
				return fmt.Errorf("%s on %s holds %v's lock", k.Key, k.Node, k.After)
			}
		}
	case narrate.ClaimEnds:
		if !e.Failed() || e.Who() != c.Who {
			return fmt.Errorf("claims %s ended on an error at an event that is not its failed done", c.Who)
		}
		if wasIn := slices.Contains(c.Inside, c.Who); wasIn != a.inside[c.Who] {
			return fmt.Errorf("the line says %s was inside: %v; its marks say %v", c.Who, wasIn, a.inside[c.Who])
		}
		if v.Inside(c.Who) {
			return fmt.Errorf("%s is still inside", c.Who)
		}
	case narrate.ClaimReleases, narrate.ClaimRemovedNot, narrate.ClaimDeletedNone:
		if err := mark(sim.MarkReleased); err != nil {
			return err
		}
		return a.release(c)
	case narrate.ClaimRemoves, narrate.ClaimOverwrites:
		return removal(chs, e, c)
	case narrate.ClaimExpires:
		ch, ok := change(chs, c.Node, c.Key)
		if !ok || !ch.Existed || ch.Exists || ch.Removed {
			return fmt.Errorf("the event did not take %s on %s away by itself: %+v", c.Key, c.Node, ch)
		}
		if err := sameSet("whose", c.Whose, clients(ch.Before)); err != nil {
			return err
		}
		var inside []string
		for _, w := range c.Whose {
			if v.Inside(w) {
				inside = append(inside, w)
			}
		}
		return sameSet("inside", c.Inside, inside)
	case narrate.ClaimShort:
		on, need := v.HeldOn(c.Who, c.Lock)
		if !v.Believes(c.Who, c.Lock) || on != c.On || need != c.Need || on >= need {
			return fmt.Errorf("the model has %s on %d of %d (believes: %v), the line says %d of %d", c.Who, on, need, v.Believes(c.Who, c.Lock), c.On, c.Need)
		}
	case narrate.ClaimStaleWrite, narrate.ClaimLapsedWrite:
		if e.Kind != sim.KindExec || e.Client != c.Who || e.Answer.Type != sim.AnswerOK {
			return fmt.Errorf("not an accepted write of %s", c.Who)
		}
		on, need := v.HeldOn(c.Who, c.Lock)
		if !v.Believes(c.Who, c.Lock) || on >= need {
			return fmt.Errorf("%s holds %s on %d of %d (believes: %v): the write is not stale", c.Who, c.Lock, on, need, v.Believes(c.Who, c.Lock))
		}
	case narrate.ClaimVotes:
		return votes(v, e, rest, client, c.ReleasedOn)
	default:
		return fmt.Errorf("a claim this test does not know: %s", c.Kind)
	}
	return nil
}

// release checks what a release line says against the thread's own
// account: its own keys removed (on which nodes), another's, or none.
func (a *account) release(c narrate.Claim) error {
	var own, others []string
	wrote := false
	for _, ch := range a.since[c.Who] {
		if ch.Lock != c.Lock {
			continue
		}
		wrote = true
		if !ch.Removed && ch.Exists {
			// the key stays: the thread's hold left it, or it did not
			gone := false
			for _, h := range ch.Before {
				if h.Who() == c.Who && !slices.ContainsFunc(ch.After, func(a check.Holder) bool { return a.Who() == c.Who && a.Incarnation == h.Incarnation }) {
					gone = true
				}
			}
			if gone && !slices.Contains(own, ch.Node) {
				own = append(own, ch.Node)
			}
			continue
		}
		if !ch.Removed || ch.By.Who() != c.Who {
			continue
		}
		mine := false
		for _, h := range ch.Before {
			if h.Who() == c.Who && h.Incarnation == ch.By.Incarnation {
				mine = true
			}
		}
		if mine {
			if !slices.Contains(own, ch.Node) {
				own = append(own, ch.Node)
			}
			continue
		}
		others = append(others, clients(ch.Before)...)
	}
	switch c.Kind {
	case narrate.ClaimReleases:
		if len(own) == 0 && wrote {
			return fmt.Errorf("%s's commands removed none of its own keys (others': %v)", c.Who, others)
		}
		return sameSet("nodes", c.Nodes, own)
	case narrate.ClaimRemovedNot:
		if len(own) > 0 || len(others) == 0 {
			return fmt.Errorf("%s removed its own on %v and others' %v", c.Who, own, others)
		}
		return sameSet("whose", c.Whose, others)
	case narrate.ClaimDeletedNone:
		if !wrote || len(own) > 0 || len(others) > 0 {
			return fmt.Errorf("%s wrote %v and removed its own on %v, others' %v", c.Who, wrote, own, others)
		}
	}
	return nil
}

// removal checks a line that says a command took a key from others.
func removal(chs []check.Change, e *sim.Event, c narrate.Claim) error {
	ch, ok := change(chs, c.Node, c.Key)
	if !ok || e.Kind != sim.KindExec || e.Who() != c.Who || !ch.Existed {
		return fmt.Errorf("no command of %s changed %s on %s: %+v", c.Who, c.Key, c.Node, ch)
	}
	if c.Kind == narrate.ClaimRemoves && (!ch.Removed || ch.Exists) {
		return fmt.Errorf("%s on %s was not removed by a command: %+v", c.Key, c.Node, ch)
	}
	if c.Kind == narrate.ClaimOverwrites && (ch.Removed || !ch.Exists || !ch.Moved) {
		return fmt.Errorf("%s on %s was not rewritten: %+v", c.Key, c.Node, ch)
	}
	for _, w := range c.Whose {
		held := slices.ContainsFunc(ch.Before, func(h check.Holder) bool {
			return (h.Client == w || h.Who() == w) && !(h.Who() == ch.By.Who() && h.Incarnation == ch.By.Incarnation)
		})
		if !held {
			return fmt.Errorf("%s did not hold %s on %s before (holders %v)", w, c.Key, c.Node, ch.Before)
		}
		if slices.ContainsFunc(ch.After, func(h check.Holder) bool { return h.Client == w || h.Who() == w }) {
			return fmt.Errorf("%s still holds %s on %s", w, c.Key, c.Node)
		}
	}
	if c.Kind == narrate.ClaimRemoves {
		// every other thread that held the key is named
		for _, h := range ch.Before {
			if !(h.Who() == ch.By.Who() && h.Incarnation == ch.By.Incarnation) && !slices.Contains(c.Whose, h.Client) && !slices.Contains(c.Whose, h.Who()) {
				return fmt.Errorf("the line leaves out %s, who held %s on %s too", h.Who(), c.Key, c.Node)
			}
		}
	}
	return nil
}

// votes checks a Redlock vote's line: a won vote holds a quorum in the
// model; a failed one releases, in the log that follows, on every master
// or only on the masters that said yes, as its fact says.
func votes(v check.View, e *sim.Event, rest []*sim.Event, client string, said fact.Release) error {
	if e.Kind != sim.KindMark || e.Fact == nil || e.Fact.Votes == nil {
		return fmt.Errorf("a vote's line at an event without votes")
	}
	vt := e.Fact.Votes
	if e.Name == "quorum" {
		if on, need := v.HeldOn(client, e.Lock); on < need || vt.Yes < vt.Need {
			return fmt.Errorf("a won vote, but the model has %s on %d of %d (votes %+v)", client, on, need, vt)
		}
		return nil
	}
	released := map[string]bool{}
	for _, x := range rest {
		if x.Client != e.Client {
			continue
		}
		if x.Kind == sim.KindMark || x.Kind == sim.KindFault || x.Kind == sim.KindDone {
			break
		}
		if x.Kind == sim.KindSend && x.Script == "compare_and_delete.lua" {
			released[x.Node] = true
		}
		if x.Kind == sim.KindLost && x.Name == "refused" && x.Script == "compare_and_delete.lua" {
			released[x.Node] = true
		}
	}
	want := vt.Of
	if said == fact.ReleaseYes {
		want = vt.Yes
	}
	if len(released) != want {
		return fmt.Errorf("the vote says it releases on %s (%d), the log shows releases on %d: %v", vt.ReleasedOn, want, len(released), released)
	}
	return nil
}

// checkNow checks "where things stand" against the model.
func checkNow(v check.View, c narrate.Claim) error {
	var inside []string
	for _, in := range v.Insiders() {
		if !slices.Contains(inside, in.Who) {
			inside = append(inside, in.Who)
		}
	}
	if err := sameSet("inside", c.Inside, inside); err != nil {
		return err
	}
	var held []string
	for _, k := range v.Held() {
		if k.IsLock && !v.Down(k.Node) && v.Serving(k.Node) {
			held = append(held, k.Node+"/"+k.Key+"="+strings.Join(clients(k.After), ","))
		}
	}
	var said []string
	for _, h := range c.Holds {
		said = append(said, h.Node+"/"+h.Key+"="+strings.Join(h.Whose, ","))
	}
	return sameSet("holds", said, held)
}

func change(chs []check.Change, node, key string) (check.Change, bool) {
	for _, ch := range chs {
		if ch.Node == node && ch.Key == key {
			return ch, true
		}
	}
	return check.Change{}, false
}

// insideWith are the threads other than who inside lock l.
func insideWith(v check.View, who, l string) []string {
	var out []string
	for _, in := range v.Insiders() {
		if in.Who != who && in.Lock == l && !slices.Contains(out, in.Who) {
			out = append(out, in.Who)
		}
	}
	return out
}

// othersInside are the threads inside of clients other than client.
func othersInside(v check.View, client string) []string {
	var out []string
	for _, in := range v.Insiders() {
		c, _, _ := strings.Cut(in.Who, "/")
		if c != client && !slices.Contains(out, in.Who) {
			out = append(out, in.Who)
		}
	}
	return out
}

func clients(hs []check.Holder) []string {
	var out []string
	for _, h := range hs {
		if !slices.Contains(out, h.Client) {
			out = append(out, h.Client)
		}
	}
	return out
}

func sameSet(what string, said, model []string) error {
	a, b := slices.Sorted(slices.Values(said)), slices.Sorted(slices.Values(model))
	a, b = slices.Compact(a), slices.Compact(b)
	if !slices.Equal(a, b) {
		return fmt.Errorf("%s: the line says %v, the model has %v", what, said, model)
	}
	return nil
}

// corpus is what the story tests read: the catalog, the labs, the
// stories and checker scenarios of testdata, and n scenarios generated
// from seed.
func corpus(t *testing.T, seed uint64, n int) []*scenario.Scenario {
	t.Helper()
	var all []*scenario.Scenario
	f, err := scenario.ParseBuiltin("scenarios.yaml", lockstep.Scenarios)
	if err != nil {
		t.Fatal(err)
	}
	for i := range f.Scenarios {
		all = append(all, &f.Scenarios[i])
	}
	names, files := lockstep.Labs()
	for i := range names {
		lf, err := scenario.ParseBuiltin(names[i], files[i])
		if err != nil {
			t.Fatal(err)
		}
		for j := range lf.Scenarios {
			all = append(all, &lf.Scenarios[j])
		}
	}
	all = append(all, userScenarios(t)...)
	all = append(all, checkerScenarios(t)...)
	for i := range n {
		if g := gen.Generate(seed, i); g.Scenario != nil {
			all = append(all, g.Scenario)
		}
	}
	return all
}
