package lesson

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// The checker on scenarios written outside the catalog: each of
// testdata/checker/defects.yaml's scenarios is a case an earlier checker
// misjudged (locks on other keys taken for one critical section, owners
// that are bare thread ids, a lock nobody can ever release called safe, a
// long lease called a deadlock, a crashed holder's lock cleared by
// recovery called a foreign unlock, lost updates judged by the final count
// alone, stale writes that ignore Redlock's quorum), and users.yaml's are
// runs a user would write that the catalog does not have (other keys, three
// to five clients, lost replies, node crashes, clock jumps, other seeds).
// Each has its verdict argued in a comment above it, and the story told
// from its events calls only locks locks: never the stock, a token counter
// or the storage's file.
func TestCheckerOnScenariosOutsideTheCatalog(t *testing.T) {
	paths, err := filepath.Glob("testdata/checker/*.yaml")
	if err != nil || len(paths) < 2 {
		t.Fatalf("testdata/checker holds %v (%v), want defects.yaml and users.yaml", paths, err)
	}
	for _, path := range paths {
		f, err := scenario.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, sc := range f.Scenarios {
			t.Run(sc.ID, func(t *testing.T) {
				r, err := New(&sc, cfg(sc.Seed))
				if err != nil {
					t.Fatal(err)
				}
				defer r.Close()
				if err := r.RunToEnd(); err != nil {
					t.Fatal(err)
				}
				if got := r.Verdicts(); !SameVerdicts(got, sc.Expect) {
					t.Errorf("verdicts = %v, want %v\n%s", got, sc.Expect, text(r.World.Log()))
				}
				storyCallsOnlyLocksLocks(t, r.World.Log())
			})
		}
	}
}

// storyCallsOnlyLocksLocks fails on a line of the story that calls a key
// someone's lock ("B's SET overwrites A's lock (key stock)") when no mark
// of the run names it a lock.
func storyCallsOnlyLocksLocks(t *testing.T, log []*sim.Event) {
	t.Helper()
	locks := map[string]bool{"lock": true} // lockOf leaves the key lock unnamed
	for _, e := range log {
		if e.Kind == sim.KindMark && e.Lock != "" {
			locks[e.Lock] = true
		}
	}
	named := regexp.MustCompile(`lock \(key ([^)]+)\)`)
	for _, e := range log {
		if e.Kind != sim.KindSay || e.Say == nil {
			continue
		}
		for _, m := range named.FindAllStringSubmatch(e.Say.En, -1) {
			if !locks[sim.LockOfKey(m[1])] {
				t.Errorf("#%d calls %s a lock, but no mark names it one: %q", e.Seq, m[1], e.Say.En)
			}
		}
	}
}

// A release the failover lost is no program that finished without
// releasing: truth.yaml's failover-loses-the-release (argued there) must
// say A released at its mark, name the failover, and never say A finished
// without releasing.
func TestDeadlockTextNamesAReleaseLostInAFailover(t *testing.T) {
	r := runTruth(t, "failover-loses-the-release")
	var say *sim.Text
	var refs []int
	var released, failover int
	for _, e := range r.World.Log() {
		switch {
		case e.Kind == sim.KindVerdict && e.Name == sim.VerdictDeadlock:
			say, refs = e.Say, e.Refs
		case e.Kind == sim.KindMark && e.Name == sim.MarkReleased && e.Client == "A":
			released = e.Seq
		case e.Kind == sim.KindFault && e.Name == string(sim.FaultFailover):
			failover = e.Seq
		}
	}
	if say == nil || released == 0 || failover == 0 {
		t.Fatalf("deadlock %v, A's release #%d, failover #%d: the run is not the one argued\n%s", say, released, failover, text(r.World.Log()))
	}
	want := fmt.Sprintf("released it at #%d, but the failover at #%d promoted", released, failover)
	if !strings.Contains(say.En, want) || strings.Contains(say.En, "without releasing") {
		t.Errorf("the deadlock says %q, want %q and no \"without releasing\"", say.En, want)
	}
	if !strings.Contains(say.Zh, fmt.Sprintf("在 #%d 释放了它", released)) {
		t.Errorf("the deadlock's Chinese says %q", say.Zh)
	}
	if !slices.Contains(refs, released) || !slices.Contains(refs, failover) {
		t.Errorf("the deadlock points at %v, want A's release #%d and the failover #%d among them", refs, released, failover)
	}
}

// A release lost on the way is no program that finished without
// releasing either: truth.yaml's lost-release-no-expiry (argued there)
// must name A's failed release, point at it, and never say A finished
// without releasing.
func TestDeadlockTextNamesAFailedRelease(t *testing.T) {
	r := runTruth(t, "lost-release-no-expiry")
	var say *sim.Text
	var refs []int
	failed := 0
	for _, e := range r.World.Log() {
		switch {
		case e.Kind == sim.KindVerdict && e.Name == sim.VerdictDeadlock:
			say, refs = e.Say, e.Refs
		case e.Kind == sim.KindMark && e.Name == sim.MarkReleaseFailed && e.Client == "A":
			failed = e.Seq
		}
	}
	if say == nil || failed == 0 {
		t.Fatalf("deadlock %v, A's failed release #%d: the run is not the one argued\n%s", say, failed, text(r.World.Log()))
	}
	if want := fmt.Sprintf("its release failed at #%d", failed); !strings.Contains(say.En, want) || strings.Contains(say.En, "without releasing") {
		t.Errorf("the deadlock says %q, want %q and no \"without releasing\"", say.En, want)
	}
	if !strings.Contains(say.Zh, fmt.Sprintf("在 #%d 的释放失败了", failed)) {
		t.Errorf("the deadlock's Chinese says %q", say.Zh)
	}
	if !slices.Contains(refs, failed) {
		t.Errorf("the deadlock points at %v, want A's failed release #%d among them", refs, failed)
	}
}

// runTruth runs truth.yaml's scenario id to its end.
func runTruth(t *testing.T, id string) *Run {
	t.Helper()
	f, err := scenario.Load("testdata/checker/truth.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sc, ok := f.Find(id)
	if !ok {
		t.Fatalf("no scenario %s", id)
	}
	r, err := New(sc, cfg(sc.Seed))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	if err := r.RunToEnd(); err != nil {
		t.Fatal(err)
	}
	return r
}
