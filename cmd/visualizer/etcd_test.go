package main

import (
	"os/exec"
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

// Without the etcd server program, run etcd-server-pause says what to
// install in English and Chinese, and runs nothing; on an external server
// it says why it cannot stop it.
func TestEtcdServerPauseNeedsTheProgram(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	r := visualizer(t, "run", "etcd-server-pause")
	if r.code == 0 || !strings.Contains(r.stderr, "apt-get install etcd-server") || !strings.Contains(r.stderr, "etcd 服务器程序") {
		t.Errorf("run without etcd: exit %d, stderr %q", r.code, r.stderr)
	}
	ext := visualizer(t, "run", "etcd-server-pause", "--etcd", "http://127.0.0.1:1")
	if ext.code == 0 || !strings.Contains(ext.stderr, "--etcd URL") || !strings.Contains(ext.stderr, "无法从这里停住") {
		t.Errorf("run on an external server: exit %d, stderr %q", ext.code, ext.stderr)
	}
	restart := visualizer(t, "run", "etcd-server-restart")
	if restart.code == 0 || !strings.Contains(restart.stderr, "apt-get install etcd-server") || !strings.Contains(restart.stderr, "杀掉再重启") {
		t.Errorf("run etcd-server-restart without etcd: exit %d, stderr %q", restart.code, restart.stderr)
	}
	ext = visualizer(t, "run", "etcd-server-restart", "--etcd", "http://127.0.0.1:1")
	if ext.code == 0 || !strings.Contains(ext.stderr, "--etcd URL") || !strings.Contains(ext.stderr, "无法从这里停住") {
		t.Errorf("run etcd-server-restart on an external server: exit %d, stderr %q", ext.code, ext.stderr)
	}
}

// test --etcd skips etcd-server-pause where it cannot run, saying why in
// both languages: on an external server, and without the program.
func TestEtcdSkipSaysWhy(t *testing.T) {
	if why := etcdSkip("http://127.0.0.1:2379"); why == nil || !strings.Contains(why.En, "external --etcd server") || !strings.Contains(why.Zh, "外部的 --etcd 服务器") {
		t.Errorf("external: %+v", why)
	}
	if _, err := exec.LookPath("etcd"); err == nil {
		if why := etcdSkip("embedded"); why != nil {
			t.Errorf("embedded, with etcd installed: skipped (%+v)", why)
		}
	}
	t.Setenv("PATH", t.TempDir())
	if why := etcdSkip(""); why == nil || !strings.Contains(why.En, "apt-get install etcd-server") || !strings.Contains(why.Zh, "apt-get install etcd-server") {
		t.Errorf("without etcd: %+v", why)
	}
}
