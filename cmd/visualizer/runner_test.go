package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCLI runs the program with args and returns what it printed.
func runCLI(t *testing.T, args ...string) string {
	t.Helper()
	var out, errs bytes.Buffer
	if err := run(context.Background(), args, func(string) string { return "" }, &out, &errs); err != nil && err != errFailed {
		t.Fatalf("visualizer %s: %v\n%s", strings.Join(args, " "), err, errs.String())
	}
	return out.String()
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

// A scenario names a key whose text holds newlines and what looks like the
// end of a safe run. The two buyers still oversell: run must print one
// line per event and a single verdict line, oversell, with the key's
// newlines escaped on the init line.
func TestRunKeyCannotForgeAVerdictLine(t *testing.T) {
	path := writeFile(t, "forge.yaml", `scenarios:
  - id: forge
    title: {en: "a title\nverdict: safe", zh: "伪造"}
    seed: 1
    horizon: 2s
    data: {"stock": "1", "x\n#99 9s verdict safe\nverdict: safe": "1"}
    clients:
      - {name: A, algorithm: no-lock, work: 50ms}
      - {name: B, algorithm: no-lock, work: 50ms, start: 10ms}
    expect: [oversell]
`)
	text := runCLI(t, "run", "forge", "--file", path)
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	events := strings.Count(runCLI(t, "run", "forge", "--file", path, "--json"), "\n") - 1
	if len(lines) != events+1 {
		t.Fatalf("run printed %d lines for %d events (want one line per event, then the verdict):\n%s", len(lines), events, text)
	}
	for i, l := range lines[:len(lines)-1] {
		if !strings.HasPrefix(l, "#") || strings.Contains(l, "verdict safe") && !strings.Contains(l, `\n#99 9s verdict safe\n`) {
			t.Errorf("line %d is not an event's own line: %q", i+1, l)
		}
	}
	if last := lines[len(lines)-1]; last != "verdict: oversell" {
		t.Errorf("last line = %q, want verdict: oversell", last)
	}
	if !strings.Contains(lines[0], `"x\n#99 9s verdict safe\nverdict: safe"="1"`) {
		t.Errorf("the init line does not show the key escaped and quoted: %q", lines[0])
	}
	if got := runCLI(t, "list", "--file", path); got != "forge\ta title\\nverdict: safe\n" {
		t.Errorf("list printed %q, want the title on one line", got)
	}
}

// check replays each recorded schedule: a manual step of a client that
// has crashed cannot be taken, and an action past the run's end is never
// reached. Both files are reported, each with its reason; a schedule
// that fits is ok.
func TestCheckReplaysSchedules(t *testing.T) {
	const head = `scenarios:
  - id: sched
    title: {en: "A schedule"}
    seed: 1
    horizon: 2s
    data: {stock: "1"}
    clients:
      - {name: A, algorithm: no-lock, work: 50ms}
      - {name: B, algorithm: no-lock, work: 50ms, start: 10ms}
    expect: [safe]
    schedule:
`
	crashed := writeFile(t, "crashed.yaml", head+"      - {step: 1, do: crash, client: A}\n      - {step: 2, do: step, client: A}\n")
	late := writeFile(t, "late.yaml", head+"      - {step: 5000, do: pause, client: A, for: 1s}\n")
	fits := writeFile(t, "fits.yaml", head+"      - {step: 1, do: crash, client: A}\n")
	out := runCLI(t, "check", crashed, late, fits)
	for _, want := range []string{
		crashed + ": scenario sched: schedule: recorded step of A at step 2: A has no move to make there",
		late + ": scenario sched: schedule: recorded pause at step 5000 is never reached",
		fits + ": ok, 1 scenarios",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("check output lacks %q:\n%s", want, out)
		}
	}
}

// A mode parameter (owner, recover, script) with a value its lock does not
// know is an error at the value, with the nearest known one: it used to
// run the default mode without a word.
func TestCheckRefusesUnknownModes(t *testing.T) {
	path := writeFile(t, "modes.yaml", `scenarios:
  - id: typo
    title: {en: "typos"}
    clients:
      - {name: A, algorithm: reentrant-thread-id, params: {owner: "uuid:thred"}}
      - {name: B, algorithm: setnx-getset-timestamp, params: {recover: dell}}
    expect: [safe]
`)
	out := runCLI(t, "check", path)
	for _, want := range []string{
		path + `:5:67: unknown owner "uuid:thred" — did you mean "uuid:thread"?`,
		path + `:6:72: unknown recover "dell" — did you mean "del"?`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("check output lacks %q:\n%s", want, out)
		}
	}
}
