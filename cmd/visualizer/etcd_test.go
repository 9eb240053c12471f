package main

import (
	"strings"
	"testing"
)

// run prints an etcd lesson's log on the embedded etcd, says first that
// it ran on a live server in real time, and ends with its verdict. Argued:
// the guarded write of the paused holder is refused, so safe.
func TestRunEtcdLessonOnTheEmbeddedServer(t *testing.T) {
	r := visualizer(t, "run", "etcd-guarded-write")
	r.expect(t, "run etcd-guarded-write", 0)
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if !strings.HasPrefix(lines[0], "live: live server, real time: the same schedule gives the same verdict, not the same milliseconds (embedded etcd at 127.0.0.1:") {
		t.Errorf("first line %q, want the real-time notice", lines[0])
	}
	if last := lines[len(lines)-1]; last != "verdict: safe" {
		t.Errorf("last line %q, want verdict: safe", last)
	}
	if !strings.Contains(r.stdout, "mark A write-rejected job -- Txn If IsOwner() failed") {
		t.Errorf("no refused write in the log:\n%s", r.stdout)
	}
}

// An --etcd that is no etcd URL is refused with a clear error.
func TestRunEtcdBadURL(t *testing.T) {
	r := visualizer(t, "run", "--etcd", "redis://127.0.0.1:6379", "etcd-two-workers")
	r.expect(t, "run --etcd redis://…", 1, `"redis://127.0.0.1:6379" is not an etcd client URL (http://host:port)`)
}
