package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/lockstep/lockstep/internal/report"
)

// report --only etcd-mutex runs etcd's rows in real time, one run a cell
// here, and says they are samples of real runs. Argued: a Put from a
// holder paused past its lease lands (✗), the Txn If IsOwner is refused
// (✓ at the resource); the clock jump, the restart and the failover are
// n/a with why.
func TestReportOnlyEtcd(t *testing.T) {
	if testing.Short() {
		t.Skip("real-time runs on an embedded etcd")
	}
	r := visualizer(t, "report", "--only", "etcd-mutex", "--runs", "1", "--json")
	r.expect(t, "report --only etcd-mutex --json", 0)
	var card report.Card
	if err := json.Unmarshal([]byte(r.stdout), &card); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, r.stdout)
	}
	if len(card.Rows) != 0 || len(card.Live) != 2 || card.Live[0].Variant != "Put" || card.Live[1].Variant != "Txn If IsOwner" {
		t.Fatalf("rows %d, live rows %+v: want etcd-mutex's two live rows only", len(card.Rows), card.Live)
	}
	plain := cellOf(card.Live[0], "pause")
	txn := cellOf(card.Live[1], "pause")
	if plain.Kind != report.Broke || txn.Kind != report.Unbroken || cellOf(card.Live[0], "clock-jump").Kind != report.NA {
		t.Errorf("pause: Put %s, Txn %s; clock jump %s: want broke, unbroken, n/a", plain.Kind, txn.Kind, cellOf(card.Live[0], "clock-jump").Kind)
	}
	md := visualizer(t, "report", "--only", "etcd-mutex", "--runs", "1", "--markdown")
	md.expect(t, "report --only etcd-mutex --markdown", 0)
	if !strings.Contains(md.stdout, "| [`etcd-mutex (Put)`](#etcd-mutex-put) |") || !strings.Contains(md.stdout, "✗ 1/1 ◷") {
		t.Errorf("the Markdown lacks the etcd row or its tally:\n%s", md.stdout)
	}
}

// Without Java, report --only zookeeper-lock runs nothing and each cell
// says what to install, in both languages; never a fake server.
func TestReportOnlyZooKeeperWithoutJava(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	r := visualizer(t, "report", "--only", "zookeeper-lock", "--runs", "1")
	r.expect(t, "report --only zookeeper-lock without java", 0)
	if !strings.Contains(r.stdout, "? not run: ZooKeeper needs Java here: ") || !strings.Contains(r.stdout, "apt-get install default-jre-headless libzookeeper-java") {
		t.Errorf("no advice to install Java:\n%s", r.stdout)
	}
	zh := visualizer(t, "report", "--only", "zookeeper-lock", "--runs", "1", "--lang", "zh")
	if !strings.Contains(zh.stdout, "? 没有运行：这里需要 Java 才能运行 ZooKeeper") {
		t.Errorf("no Chinese advice:\n%s", zh.stdout)
	}
}

// A lock that is neither searched nor live is refused, naming both
// lists; --runs below 1 is a usage error.
func TestReportOnlyBadLiveInput(t *testing.T) {
	r := visualizer(t, "report", "--only", "etcd")
	r.expect(t, "report --only etcd", 1, `no lock "etcd"`, "on a live server, in real time: etcd-mutex, zookeeper-lock")
	r = visualizer(t, "report", "--only", "etcd-mutex", "--runs", "0")
	r.expect(t, "report --runs 0", 2, "--runs is at least 1")
	r = visualizer(t, "report", "--only", "zookeeper-lock", "--yaml")
	r.expect(t, "report --only zookeeper-lock --yaml", 1, "no counterexamples")
}

func cellOf(r *report.Row, column string) *report.Cell {
	for _, c := range r.Cells {
		if c.Column == column {
			return c
		}
	}
	return &report.Cell{}
}

// report --cell etcd-mutex/pause computes that one cell of etcd's two
// rows in real time, says so, and prints the record of a run that broke
// the lock (it does not replay). Argued as the card's cell: a Put from a
// holder paused past its lease lands (✗, the run's log ends with
// mutual-exclusion and stale-write); Txn If IsOwner is refused (no
// violation at the resource). A column etcd cannot take is n/a with why
// and runs nothing; an unknown column is an error naming the columns.
func TestReportLiveCell(t *testing.T) {
	if testing.Short() {
		t.Skip("real-time runs on an embedded etcd")
	}
	r := visualizer(t, "report", "--cell", "etcd-mutex/pause", "--runs", "1")
	r.expect(t, "report --cell etcd-mutex/pause", 0)
	for _, want := range []string{
		"# live server, real time: the same schedule gives the same verdict, not the same milliseconds",
		"# etcd-mutex (Put)/pause: ◷ ✗ 1 of 1 real-time runs",
		"# etcd-mutex (Txn If IsOwner)/pause: ",
		"a real-time run does not replay",
		"verdict mutual-exclusion",
		"verdict stale-write",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("report --cell etcd-mutex/pause lacks %q:\n%s", want, r.stdout)
		}
	}
	na := visualizer(t, "report", "--cell", "etcd-mutex/clock-jump")
	na.expect(t, "report --cell etcd-mutex/clock-jump", 0)
	if !strings.Contains(na.stdout, "# etcd-mutex (Put)/clock-jump: ") || strings.Contains(na.stdout, "real-time runs on") {
		t.Errorf("the clock jump is not n/a without runs:\n%s", na.stdout)
	}
	bad := visualizer(t, "report", "--cell", "etcd-mutex/nope")
	if bad.code == 0 || !strings.Contains(bad.stderr, `no column "nope"`) {
		t.Errorf("an unknown column: exit %d, stderr %q", bad.code, bad.stderr)
	}
}
