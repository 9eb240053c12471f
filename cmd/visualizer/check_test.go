package main

import (
	"strings"
	"testing"
)

// check replays each recorded schedule: a manual step of a client that
// has crashed cannot be taken, and an action past the run's end is never
// reached. Both files are reported, each with its reason; a schedule
// that fits is ok. One file failing makes the whole check fail.
func TestCheckReplaysSchedules(t *testing.T) {
	head := buyersHead + "    expect: [safe]\n    schedule:\n"
	crashed := writeFile(t, "crashed.yaml", head+"      - {step: 1, do: crash, client: A}\n      - {step: 2, do: step, client: A}\n")
	late := writeFile(t, "late.yaml", head+"      - {step: 5000, do: pause, client: A, for: 1s}\n")
	fits := writeFile(t, "fits.yaml", head+"      - {step: 1, do: crash, client: A}\n")
	r := visualizer(t, "check", crashed, late, fits)
	r.expect(t, "check crashed late fits", 1)
	want := []string{
		crashed + ": scenario buyers: schedule: recorded step of A at step 2: A has no move to make there",
		late + ": scenario buyers: schedule: recorded pause at step 5000 is never reached",
		fits + ": ok, 1 scenarios",
	}
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if len(lines) != len(want) || r.stderr != "" {
		t.Fatalf("check printed\n%s(stderr %q), want one line per file", r.stdout, r.stderr)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d = %q, want it to start %q", i+1, lines[i], w)
		}
	}
	r = visualizer(t, "check", fits)
	r.expect(t, "check fits", 0)
	if r.stdout != fits+": ok, 1 scenarios\n" {
		t.Errorf("check of a good file printed %q", r.stdout)
	}
}

// Every problem of a file is a FILE:LINE:COL: line on stdout, whichever
// file it is in; a file that cannot be read says why; the check fails.
func TestCheckPrintsEveryProblem(t *testing.T) {
	typo := writeFile(t, "typo.yaml", "scenarios:\n  - id: a\n    titel: {en: A}\n    clients: [{name: A, algorithm: no-lok}]\n    expect: [oversell]\n")
	good := writeFile(t, "good.yaml", buyersHead+"    expect: [oversell]\n")
	r := visualizer(t, "check", typo, "missing.yaml", good)
	r.expect(t, "check typo missing good", 1)
	for _, want := range []string{
		typo + `:3:5: unknown field "titel" — did you mean "title"?`,
		typo + `:4:36: unknown algorithm "no-lok" — did you mean "no-lock"?`,
		"missing.yaml",
		good + ": ok, 1 scenarios",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("check output lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, typo+": ok") {
		t.Errorf("a file with problems is said to be ok:\n%s", r.stdout)
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
	r := visualizer(t, "check", path)
	r.expect(t, "check modes.yaml", 1)
	for _, want := range []string{
		path + `:5:67: unknown owner "uuid:thred" — did you mean "uuid:thread"?`,
		path + `:6:72: unknown recover "dell" — did you mean "del"?`,
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("check output lacks %q:\n%s", want, r.stdout)
		}
	}
}

// The built-in catalog checks as a file: a user who copies it to edit can
// check the copy.
func TestCheckAcceptsTheCatalog(t *testing.T) {
	r := visualizer(t, "check", "../../scenarios.yaml")
	r.expect(t, "check scenarios.yaml", 0)
	if !strings.HasPrefix(r.stdout, "../../scenarios.yaml: ok, ") {
		t.Errorf("check scenarios.yaml: expected ok, got %s", r.stdout)
	}
}

// check takes its files as the other commands take one, too: --file PATH
// and --file=PATH name the file (they were read as a file named
// "--file": "stat --file: no such file or directory").
func TestCheckTakesFileAsTheOtherCommands(t *testing.T) {
	for _, args := range [][]string{
		{"check", "--file", "../../scenarios.yaml"},
		{"check", "--file=../../scenarios.yaml"},
		{"check", "-file", "../../scenarios.yaml"},
	} {
		r := visualizer(t, args...)
		r.expect(t, strings.Join(args, " "), 0)
		if !strings.HasPrefix(r.stdout, "../../scenarios.yaml: ok, ") {
			t.Errorf("%s: expected ok, got %s", strings.Join(args, " "), r.stdout)
		}
	}
}

// What a file says that would run otherwise than written is a warning, at
// its line and column, and the file still passes: a watchdog TTL of 1500ms
// that the scripts' EXPIRE runs as 2s, and a compare-and-delete client
// writing to a fenced storage, which refuses every write without a token.
// A whole-second TTL and the fencing lock's own writer say nothing.
func TestCheckWarns(t *testing.T) {
	path := writeFile(t, "warn.yaml", `scenarios:
  - id: rounded
    title: {en: "A TTL the scripts round"}
    data: {stock: "10"}
    clients:
      - {name: A, algorithm: watchdog, params: {ttl: 1500ms}, work: 100ms}
      - {name: B, algorithm: watchdog, params: {ttl: 2s}, work: 100ms}
  - id: fenced
    title: {en: "A writer with no token on a fenced storage"}
    storage: {fencing: true}
    clients:
      - {name: A, algorithm: fencing-token, task: write, work: 100ms}
      - {name: B, algorithm: lua-compare-delete, task: write, work: 100ms}
`)
	r := visualizer(t, "check", path)
	r.expect(t, "check warn", 0)
	want := path + ":6:54: warning: ttl 1.5s runs as 2s: watchdog sets its TTL with EXPIRE, in whole seconds\n" +
		path + ":13:56: warning: the fenced storage refuses every write that carries no fencing token, and lua-compare-delete issues none: every write of client B will be refused\n" +
		path + ": ok, 2 scenarios\n"
	if r.stdout != want {
		t.Errorf("check printed\n%s\nwant\n%s", r.stdout, want)
	}
}
