package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// spin is a run that never ends by itself before its horizon: one client
// holds the lock for ten minutes while another retries every microsecond.
const spin = `scenarios:
  - id: spin
    title: {en: "A client spins on a lock held for ten minutes"}
    horizon: 10m
    data: {stock: "10"}
    clients:
      - {name: H, algorithm: set-nx-ex-blind-del, params: {ttl: 10m, retry: 1ms}, work: 10m}
      - {name: S, algorithm: set-nx-ex-blind-del, params: {ttl: 10m, retry: 1us}, start: 1ms}
    expect: [starvation]
`

// visualizer runs the command line and returns what it printed.
func visualizer(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(context.Background(), args, func(string) string { return "" }, &out, &errOut)
	return out.String() + errOut.String(), err
}

// A run cut short by the step cap says so before its verdict, in text and
// in JSON.
func TestRunSaysWhenTheStepCapStoppedIt(t *testing.T) {
	if testing.Short() {
		t.Skip("takes 100,000 steps")
	}
	path := filepath.Join(t.TempDir(), "spin.yaml")
	if err := os.WriteFile(path, []byte(spin), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := visualizer(t, "run", "spin", "--file", path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if n := len(lines); n < 2 || !strings.HasPrefix(lines[n-2], "stopped: the run reached the cap of 100000 steps") || !strings.HasPrefix(lines[n-1], "verdict:") {
		t.Errorf("run past the step cap: expected a stopped: line before the verdict, got the last lines %q", lines[max(len(lines)-2, 0):])
	}
	out, err = visualizer(t, "run", "spin", "--file", path, "--json")
	if err != nil {
		t.Fatal(err)
	}
	if last := out[strings.LastIndex(strings.TrimSpace(out), "\n")+1:]; !strings.Contains(last, `"stopped":"the run reached the cap of 100000 steps`) {
		t.Errorf("run --json past the step cap: expected stopped in the last object, got %s", last)
	}
}

// The built-in catalog checks as a file: a user who copies it to edit can
// check the copy.
func TestCheckAcceptsTheCatalog(t *testing.T) {
	out, err := visualizer(t, "check", "../../scenarios.yaml")
	if err != nil || !strings.Contains(out, "scenarios.yaml: ok, ") {
		t.Errorf("check scenarios.yaml: expected ok, got %v: %s", err, out)
	}
}
