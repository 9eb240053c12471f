package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
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
			var out lockedBuffer
			cmd := exec.Command(bin, c.args...)
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			if err := atWork(cmd.Process.Pid, &out, c.name == "serve", done); err != nil {
				t.Fatalf("%v:\n%s", err, out.String())
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

// atWork waits until a started command is past its start-up and at its
// work, so that a signal tests what the command does with it: a signal
// that comes before main has asked for it ends a Go program as the
// default action does ("signal: interrupt"), and on a loaded machine a
// process's start can take longer than any fixed wait (it took over 0.7 s
// at load average 12). A server is at work once it has said where it
// listens; any other command once it has used 0.2 s of CPU (its start-up
// takes about 0.06 s), read from /proc (where there is none: 0.7 s of wall
// time). It waits at least 0.7 s, at most 30 s, and fails when the
// command ended first.
func atWork(pid int, out *lockedBuffer, serve bool, done chan error) error {
	start := time.Now()
	for {
		select {
		case err := <-done:
			return fmt.Errorf("ended before the signal (%w)", err)
		case <-time.After(20 * time.Millisecond):
		}
		waited := time.Since(start)
		if waited > 30*time.Second {
			return fmt.Errorf("not at work after %s", waited.Round(time.Millisecond))
		}
		if waited < 700*time.Millisecond {
			continue
		}
		if serve {
			if strings.Contains(out.String(), "Lockstep on") {
				return nil
			}
			continue
		}
		cpu, err := cpuTicks(pid)
		if err != nil || cpu >= 20 { // clock ticks of 10 ms
			return nil
		}
	}
}

// cpuTicks is the user and system time a process has used, in clock
// ticks, from /proc/PID/stat (fields 14 and 15, after the command name).
func cpuTicks(pid int) (int, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, fmt.Errorf("/proc/%d/stat: %q", pid, b)
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: %q", pid, b)
	}
	utime, err1 := strconv.Atoi(f[11])
	stime, err2 := strconv.Atoi(f[12])
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("/proc/%d/stat: %q", pid, b)
	}
	return utime + stime, nil
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
