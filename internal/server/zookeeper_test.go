package server

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lockstep/lockstep/internal/zookeeper"
)

// A ZooKeeper lesson, opened from the page's list, runs on a real
// ZooKeeper that its first move starts (a JVM), and streams its log as it
// happens: A's freeze of 2 s takes 2 s of the wall clock, B's token-
// carrying write is taken, A's later one, with the older czxid, refused,
// and the verdict is safe.
func TestAZooKeeperLessonRunsLiveInTheSession(t *testing.T) {
	if err := zookeeper.Available(); err != nil {
		t.Skip(err)
	}
	svc, err := zookeeper.NewService("")
	if err != nil {
		t.Fatal(err)
	}
	_, url := liveApp(t, svc)
	c, _, err := dial(t, url, "")
	if err != nil {
		t.Fatal(err)
	}
	w := c.hello("")
	i := slices.IndexFunc(w.Catalog, func(e catalogEntry) bool { return e.ID == "zookeeper-czxid-fencing" })
	if i < 0 || w.Catalog[i].Live != "ZooKeeper" || w.Catalog[i].Title.Zh == "" {
		t.Fatalf("the catalog should list zookeeper-czxid-fencing as a ZooKeeper lesson in both languages, got %+v", w.Catalog)
	}
	if w.Catalog[i].Needs != nil {
		t.Errorf("with Java installed the lesson should need nothing, got %+v", w.Catalog[i].Needs)
	}
	c.send(map[string]any{"op": "load", "scenario": "zookeeper-czxid-fencing"})
	if m := c.next("state"); m.Snap.Live == nil || m.Snap.Live.Service != "ZooKeeper" || len(m.Events) != 0 {
		t.Fatalf("a loaded ZooKeeper lesson should say it is live and not yet started, got %+v", m.Snap)
	}
	if svc.Startup() != 0 {
		t.Fatal("the ZooKeeper server started before any run asked for it")
	}
	start := time.Now()
	c.send(map[string]any{"op": "step"})
	evs, _ := c.follow(nil, 60*time.Second, func(s *Snapshot) bool { return s.Step >= 1 })
	t.Logf("ZooKeeper ready in %s; the first event %s after the first step", svc.Startup(), time.Since(start).Round(time.Millisecond))
	c.send(map[string]any{"op": "seek", "step": 50000})
	evs, snap := c.follow(evs, 60*time.Second, func(s *Snapshot) bool { return s.Ended })
	if !strings.HasPrefix(snap.Live.Server, "ZooKeeper (a JVM started by Lockstep") {
		t.Errorf("the snapshot should say where the run is, got %q", snap.Live.Server)
	}
	if !slices.Equal(snap.Verdicts, []string{"safe"}) || snap.Step != len(evs) {
		t.Errorf("the run should end safe with its cursor at its last event, got %v at %d of %d", snap.Verdicts, snap.Step, len(evs))
	}
	if last := time.Duration(evs[len(evs)-1].T); last < 2*time.Second {
		t.Errorf("A's freeze of 2s should take 2s of the wall clock: its log ends at %s", last)
	}
	var writes []string
	for _, e := range evs {
		if e.Kind == "exec" && len(e.Cmd) > 0 && e.Cmd[0] == "WRITE" {
			writes = append(writes, e.Client+" "+strings.Fields(e.Reply)[0])
		}
	}
	if !slices.Equal(writes, []string{"B OK", "A (refused)"}) {
		for _, e := range evs {
			t.Logf("%+v", e)
		}
		t.Errorf("B's write should be taken and A's refused, got %v", writes)
	}
}

// Without Java the first move of a ZooKeeper lesson says what to install,
// in both languages, and the session goes on.
func TestAZooKeeperWithoutJavaSaysWhatToInstall(t *testing.T) {
	t.Setenv("PATH", t.TempDir()) // no java on it
	svc, err := zookeeper.NewService("")
	if err != nil {
		t.Fatal(err)
	}
	_, url := liveApp(t, svc)
	c, _, err := dial(t, url, "")
	if err != nil {
		t.Fatal(err)
	}
	w := c.hello("")
	// the list says so before anything is started: a few words, and what
	// to install, in both languages
	i := slices.IndexFunc(w.Catalog, func(e catalogEntry) bool { return e.ID == "zookeeper-two-workers" })
	if i < 0 || w.Catalog[i].Needs == nil || w.Catalog[i].Needs.Short.En != "needs Java" || w.Catalog[i].Needs.Short.Zh != "需要 Java" ||
		!strings.Contains(w.Catalog[i].Needs.Say.En, "apt-get install default-jre-headless libzookeeper-java") ||
		!strings.Contains(w.Catalog[i].Needs.Say.Zh, "需要 Java") {
		t.Fatalf("without Java the catalog entry should say what it needs, got %+v", w.Catalog)
	}
	c.send(map[string]any{"op": "load", "scenario": "zookeeper-two-workers"})
	c.next("state")
	c.send(map[string]any{"op": "step"})
	m := c.next("error")
	detail, _ := m.Args["detail"].(map[string]any)
	en, _ := detail["en"].(string)
	zh, _ := detail["zh"].(string)
	if m.Code != "live-unavailable" || m.Args["service"] != "ZooKeeper" ||
		!strings.Contains(en, "apt-get install default-jre-headless libzookeeper-java") || !strings.Contains(zh, "需要 Java") {
		t.Fatalf("expected live-unavailable saying what to install in both languages, got %s %v: %s", m.Code, m.Args, m.Error)
	}
	c.send(map[string]any{"op": "load", "scenario": "no-lock-oversell"})
	if m := c.next("state"); m.Snap.Live != nil {
		t.Errorf("a catalog lesson after it should run on the engine, got %+v", m.Snap.Live)
	}
}
