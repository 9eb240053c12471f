package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// result is what one command line did: what it printed on each stream,
// what run returned, and the exit status main gives for that.
type result struct {
	stdout, stderr string
	err            error
	code           int
}

// testEnv is the environment the commands see in tests. GOMEMLIMIT is set
// so that serve leaves the test process's memory limit alone.
func testEnv(key string) string {
	if key == "GOMEMLIMIT" {
		return "off"
	}
	return ""
}

// visualizer runs the command line as main does, with its output captured.
func visualizer(t *testing.T, args ...string) result {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(context.Background(), args, testEnv, &out, &errOut)
	code := exitCode(err, &errOut)
	return result{stdout: out.String(), stderr: errOut.String(), err: err, code: code}
}

// expect fails the test unless the command ended with code and its
// stderr holds every one of inStderr.
func (r result) expect(t *testing.T, args string, code int, inStderr ...string) {
	t.Helper()
	if r.code != code {
		t.Errorf("visualizer %s: exit status %d, want %d\nstdout:\n%s\nstderr:\n%s", args, r.code, code, r.stdout, r.stderr)
		return
	}
	for _, want := range inStderr {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("visualizer %s: stderr lacks %q:\n%s", args, want, r.stderr)
		}
	}
}

// writeFile writes text to a file of the test's own and returns its path.
func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// buyers is two clients without a lock and one item in stock: A reads the
// stock at about 1ms and writes it back after 50ms of work; B reads it at
// about 11ms, before A has written, so both sell the last item. head is
// the file up to the scenario's expect:.
const buyersHead = `scenarios:
  - id: buyers
    title: {en: "Two buyers, no lock"}
    seed: 1
    horizon: 2s
    data: {stock: "1"}
    clients:
      - {name: A, algorithm: no-lock, work: 50ms}
      - {name: B, algorithm: no-lock, work: 50ms, start: 10ms}
`

// help prints the usage on stdout and succeeds; an unknown command prints
// it on stderr, says which command it did not know, and ends with status
// 2, a command line it cannot read.
func TestHelpAndUnknownCommand(t *testing.T) {
	for _, args := range []string{"help", "-h", "--help"} {
		r := visualizer(t, args)
		r.expect(t, args, 0)
		if r.stdout != usage || r.stderr != "" {
			t.Errorf("visualizer %s: want the usage on stdout and nothing on stderr, got stdout %q, stderr %q", args, r.stdout, r.stderr)
		}
	}
	r := visualizer(t, "frobnicate")
	r.expect(t, "frobnicate", 2, usage, `visualizer: unknown command "frobnicate"`)
	if r.stdout != "" {
		t.Errorf("an unknown command printed on stdout: %q", r.stdout)
	}
}

// -h on a command lists its flags and is not a failure; a flag the
// command does not have, or a value of the wrong type, is said once (by
// the flag package, with the flags) and ends with status 2.
func TestFlagErrors(t *testing.T) {
	for _, c := range []struct {
		args string
		code int
		want []string
	}{
		{"run -h", 0, []string{"-seed int", "-json"}},
		{"explore -h", 0, []string{"-strategy string"}},
		{"run no-lock-oversell --seed abc", 2, []string{`invalid value "abc" for flag -seed`, "-seed int"}},
		{"run no-lock-oversell --colour", 2, []string{"flag provided but not defined: -colour"}},
		{"test --file", 2, []string{"flag needs an argument: -file"}},
		{"list --json", 2, []string{"flag provided but not defined: -json"}},
		{"explore no-lock-oversell --runs many", 2, []string{`invalid value "many" for flag -runs`}},
		{"serve --idle soon", 2, []string{`invalid value "soon" for flag -idle`}},
		{"docs --out", 2, []string{"flag needs an argument: -out"}},
	} {
		r := visualizer(t, strings.Fields(c.args)...)
		r.expect(t, c.args, c.code, c.want...)
		if strings.Contains(r.stderr, "visualizer:") {
			t.Errorf("visualizer %s: the flag error is said twice:\n%s", c.args, r.stderr)
		}
	}
}

// Arguments a command does not take are a command line it cannot read:
// status 2, and a line saying what was wrong.
func TestArgumentErrors(t *testing.T) {
	for args, want := range map[string]string{
		"run":                       "visualizer: run takes one scenario id (see visualizer list)",
		"run no-lock-oversell more": "visualizer: run takes one scenario id",
		"list extra":                `visualizer: list takes no arguments, got "extra"`,
		"test no-lock-oversell":     `visualizer: test takes no arguments, got "no-lock-oversell"`,
		"check":                     "visualizer: check takes one or more scenario files",
		"explore":                   "visualizer: explore takes one scenario id (or --file with one scenario)",
		"compare":                   "visualizer: compare takes one scenario id (see visualizer list), then --with ALGORITHM|ID",
		"compare no-lock-oversell lua-compare-delete": "visualizer: compare takes one scenario id",
		"serve extra": `visualizer: serve takes no arguments, got "extra"`,
		"docs extra":  `visualizer: docs takes no arguments, got "extra"`,
	} {
		r := visualizer(t, strings.Fields(args)...)
		r.expect(t, args, 2, want)
		if r.stdout != "" {
			t.Errorf("visualizer %s printed on stdout: %q", args, r.stdout)
		}
	}
}

// list --algorithms names every lock of the registry with the lessons that
// run it: the two libraries run as they are (rows 18 and 19) with their
// module, version and licence, and lessons from their users' reports.
func TestListAlgorithms(t *testing.T) {
	r := visualizer(t, "list", "--algorithms")
	r.expect(t, "list --algorithms", 0)
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if len(lines) != 21 {
		t.Fatalf("%d algorithms listed, want 19 of the registry, etcd's Mutex and ZooKeeper's lock:\n%s", len(lines), r.stdout)
	}
	for _, want := range []string{
		"18\tredsync\t", "github.com/go-redsync/redsync/v4 v4.18.1, BSD-3-Clause", "redsync-unlock-after-expiry",
		"19\tredislock\t", "github.com/bsm/redislock v0.9.4, Apache-2.0", "redislock-pause-no-watchdog",
		"13\twatchdog\t", "redisson-watchdog-misses-renewals",
		"-\tetcd-mutex\t", "go.etcd.io/etcd/client/v3 v3.7.3, Apache-2.0", "etcd-pause-past-lease",
		"-\tzookeeper-lock\t", "github.com/go-zookeeper/zk v1.0.4, BSD-3-Clause", "zookeeper-czxid-fencing",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("list --algorithms lacks %q:\n%s", want, r.stdout)
		}
	}
	for _, l := range lines {
		if strings.HasSuffix(l, "\tno scenario") {
			t.Errorf("an algorithm without a lesson in the catalog: %q", l)
		}
	}
}
