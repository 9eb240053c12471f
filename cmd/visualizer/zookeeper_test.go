package main

import (
	"strings"
	"testing"

	"github.com/lockstep/lockstep/internal/zookeeper"
)

// run prints a ZooKeeper lesson's log on a ZooKeeper it starts, says
// first that it ran on a live server in real time, and ends with its
// verdict. Argued: the frozen holder's node expires, B enters while A is
// inside, and A's plain write lands after B's: mutual-exclusion and
// stale-write.
func TestRunZooKeeperLesson(t *testing.T) {
	if err := zookeeper.Available(); err != nil {
		t.Skip(err)
	}
	r := visualizer(t, "run", "zookeeper-frozen-holder")
	r.expect(t, "run zookeeper-frozen-holder", 0)
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if !strings.HasPrefix(lines[0], "live: live server, real time: the same schedule gives the same verdict, not the same milliseconds (ZooKeeper started here at 127.0.0.1:") {
		t.Errorf("first line %q, want the real-time notice", lines[0])
	}
	if last := lines[len(lines)-1]; last != "verdict: mutual-exclusion, stale-write" {
		t.Errorf("last line %q, want verdict: mutual-exclusion, stale-write", last)
	}
	if !strings.Contains(r.stdout, "A's session expired: ZooKeeper deleted job/") {
		t.Errorf("no expiry in the log:\n%s", r.stdout)
	}
}

// Without Java, test --zookeeper says what to install, in both languages.
func TestZooKeeperWithoutJava(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	r := visualizer(t, "test", "--zookeeper")
	r.expect(t, "test --zookeeper without java", 1, "apt-get install default-jre-headless libzookeeper-java")
	if !strings.Contains(r.stderr, "需要 Java") {
		t.Errorf("no Chinese advice:\n%s", r.stderr)
	}
}

// A --zookeeper that is no host:port is refused with a clear error.
func TestRunZooKeeperBadAddress(t *testing.T) {
	r := visualizer(t, "run", "--zookeeper=nohost", "zookeeper-two-workers")
	r.expect(t, "run --zookeeper=nohost", 2, `"nohost" is not a ZooKeeper server's host:port`)
}

// Without Java, list still lists the ZooKeeper lessons, each saying what
// it needs and what to install.
func TestListSaysZooKeeperNeedsJava(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	r := visualizer(t, "list")
	r.expect(t, "list without java", 0)
	for _, l := range zookeeper.Lessons {
		want := l.ID + "\t" + l.Title.En + " (in real time, on ZooKeeper; needs Java: apt-get install default-jre-headless libzookeeper-java)\n"
		if !strings.Contains(r.stdout, want) {
			t.Errorf("list without java should print %q:\n%s", want, r.stdout)
		}
	}
}

// run plays the server pause on a ZooKeeper it starts. Argued: whichever
// way the race on the resume goes, the lock is never handed on to B while
// A holds and A's fenced write comes after no later token: safe; the log
// says which branch this run took, in a line of its own.
func TestRunZooKeeperServerPause(t *testing.T) {
	if err := zookeeper.Available(); err != nil {
		t.Skip(err)
	}
	r := visualizer(t, "run", "zookeeper-server-pause")
	r.expect(t, "run zookeeper-server-pause", 0)
	for _, want := range []string{"fault zookeeper server-pause -- zookeeper is stopped for 1s", "fault zookeeper server-resume"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the log lacks %q:\n%s", want, r.stdout)
		}
	}
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	expired := strings.Contains(r.stdout, "say  pause-outcome -- This run: the session tracker won the race and expired every session")
	lived := strings.Contains(r.stdout, "say  pause-outcome -- This run: the pings queued while the server was stopped reached it first")
	split := strings.Contains(r.stdout, "say  pause-outcome -- This run: the race split: A's session expired on the resume and B's lived on")
	want := "verdict: safe"
	if split {
		want = "verdict: mutual-exclusion" // the rare branch: B enters while A believes
	}
	if last := lines[len(lines)-1]; last != want {
		t.Errorf("last line %q, want %s", last, want)
	}
	if n := strings.Count(r.stdout, "say  pause-outcome -- "); n != 1 || !expired && !lived && !split {
		t.Errorf("want one line naming the branch the run took:\n%s", r.stdout)
	}
	if expired != strings.Contains(r.stdout, "B's session expired: ZooKeeper deleted job/") {
		t.Errorf("the line names a branch the log does not show:\n%s", r.stdout)
	}
}

// An external server cannot be stopped: run refuses the server pause in
// both languages, before it connects anywhere.
func TestRunZooKeeperServerPauseRefusesAnExternalServer(t *testing.T) {
	r := visualizer(t, "run", "--zookeeper=127.0.0.1:1", "zookeeper-server-pause")
	r.expect(t, "run --zookeeper=127.0.0.1:1 zookeeper-server-pause", 1, zookeeper.CannotPause.En)
	if !strings.Contains(r.stderr, zookeeper.CannotPause.Zh) {
		t.Errorf("no Chinese words:\n%s", r.stderr)
	}
}
