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
