package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// stopBound is how long after SIGINT or SIGTERM a command's process may
// end in TestSignalsStopEveryCommand: the second the README promises, with a
// second's margin for a loaded machine (see the test).
const stopBound = 2 * time.Second

// runawayFile is the runaway search's scenario: one run of it takes tens
// of seconds, one schedule of a search about a minute.
const runawayFile = "../../internal/explore/testdata/runaway.yaml"

// buildVisualizer builds the command into dir, for the tests that send it
// signals as a shell would.
func buildVisualizer(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "visualizer")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// SIGINT and SIGTERM stop every command within a second, whatever it is
// doing: a search in the middle of a schedule (it stops itself and says
// so), a run, a test, a check or a comparison in the middle of 100,000
// engine steps (each looks at the signal every few steps, and main ends
// one that has not stopped after 750 ms), and serve (its documented shutdown, at most 3 s; with no browser connected
// it has no goodbyes to wait for). The test asserts stopBound, 2 s from
// the signal sent to the process reaped: the documented second plus the
// signal's delivery, the process's exit and its reaping by the test, each
// of which can wait for a CPU on a loaded 2-core machine running the rest
// of the suite under -race. The time each took is logged.
func TestSignalsStopEveryCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and runs heavy scenarios")
	}
	bin := buildVisualizer(t)
	dir := t.TempDir()
	withSchedule := filepath.Join(dir, "scheduled.yaml")
	b, err := os.ReadFile(runawayFile)
	if err != nil {
		t.Fatal(err)
	}
	// A schedule makes check replay the run: 100,000 steps of it.
	text := strings.Replace(string(b), "    expect: [safe]", "    schedule: [{step: 1, do: pause, client: C1, for: 1ms}]\n    expect: [safe]", 1)
	if err := os.WriteFile(withSchedule, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		sig  syscall.Signal
		args []string
		say  string // on stdout or stderr
	}{
		{"explore", syscall.SIGINT, []string{"explore", "--file", runawayFile, "--time", "60s"}, "interrupted"},
		{"explore-faults", syscall.SIGTERM, []string{"explore", "--file", runawayFile, "--time", "60s", "--budget", "pause:1s", "--steps", "100000"}, "interrupted"},
		{"run", syscall.SIGTERM, []string{"run", "--file", runawayFile, "runaway"}, "interrupted"},
		{"test", syscall.SIGINT, []string{"test", "--file", runawayFile}, "interrupted"},
		{"check", syscall.SIGTERM, []string{"check", withSchedule}, "interrupted"},
		{"compare", syscall.SIGINT, []string{"compare", "--file", runawayFile, "runaway", "--with", "set-nx-ex-blind-del"}, "interrupted"},
		{"serve", syscall.SIGTERM, []string{"serve", "--addr", "127.0.0.1:0"}, "Lockstep on"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			cmd := exec.Command(bin, c.args...)
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				t.Fatalf("ended before the signal (%v):\n%s", err, out.String())
			case <-time.After(700 * time.Millisecond):
			}
			sent := time.Now()
			if err := cmd.Process.Signal(c.sig); err != nil {
				t.Fatal(err)
			}
			select {
			case err := <-done:
				t.Logf("%s: %v", c.name, err) // the exit the signal caused
			case <-time.After(10 * time.Second):
				_ = cmd.Process.Kill()
				t.Logf("killed: %v", <-done)
				t.Fatalf("still running 10s after %s:\n%s", c.sig, out.String())
			}
			took := time.Since(sent)
			t.Logf("%s: ended %s after %s", c.name, took.Round(time.Millisecond), c.sig)
			if took > stopBound {
				t.Errorf("%s ended %s after %s: over %s", c.name, took.Round(time.Millisecond), c.sig, stopBound)
			}
			if !strings.Contains(out.String(), c.say) {
				t.Errorf("output lacks %q:\n%s", c.say, out.String())
			}
		})
	}
}

// A named pipe, a device or a directory given as a scenario file is
// refused at once, by every command that reads one: reading a pipe with
// no writer would wait for ever.
func TestOnlyRegularFilesAreRead(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "scenario.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, c := range []struct {
		path, what string
	}{{fifo, "a named pipe (FIFO)"}, {os.DevNull, "a device"}, {dir, "a directory"}} {
		for _, args := range [][]string{
			{"check", c.path}, {"run", "--file", c.path, "x"}, {"test", "--file", c.path},
			{"explore", "--file", c.path}, {"list", "--file", c.path}, {"compare", "--file", c.path, "x"},
		} {
			done := make(chan result, 1)
			go func() { done <- visualizer(t, args...) }()
			select {
			case r := <-done:
				all := r.stdout + r.stderr
				if r.code != 1 || !strings.Contains(all, c.what+", not a scenario file") {
					t.Errorf("visualizer %s: status %d, output %q; want 1 and %q", strings.Join(args, " "), r.code, all, c.what)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("visualizer %s: still reading %s after 10s", strings.Join(args, " "), c.what)
			}
		}
	}
}
