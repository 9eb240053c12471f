package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/etcd"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/zookeeper"
)

// list prints every built-in scenario, one line each: its id, a tab, its
// title; in the catalog's order; then the etcd and ZooKeeper lessons,
// each saying that it runs in real time, and where.
func TestListPrintsTheCatalog(t *testing.T) {
	f, err := scenario.ParseBuiltin("scenarios.yaml", lockstep.Scenarios)
	if err != nil {
		t.Fatal(err)
	}
	r := visualizer(t, "list")
	r.expect(t, "list", 0)
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	live := len(etcd.Lessons) + len(zookeeper.Lessons)
	if len(lines) != len(f.Scenarios)+live {
		t.Fatalf("list printed %d lines for %d scenarios and %d live lessons:\n%s", len(lines), len(f.Scenarios), live, r.stdout)
	}
	for i, sc := range f.Scenarios {
		if want := sc.ID + "\t" + sc.Title.En; lines[i] != want {
			t.Errorf("line %d = %q, want %q", i+1, lines[i], want)
		}
	}
	// then the lessons that run in real time, each saying where
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, zookeeper.Lessons[len(zookeeper.Lessons)-1].ID+"\t") ||
		!strings.HasSuffix(last, "(in real time, on ZooKeeper)") {
		t.Errorf("the last line should be the last ZooKeeper lesson, with Java installed here: %q", last)
	}
	r = visualizer(t, "list", "--file", "no-such-file.yaml")
	r.expect(t, "list --file no-such-file.yaml", 1, "visualizer: ", "no-such-file.yaml")
}

// run prints one line per event and then the verdict; with --json, one
// object per event and then one with the verdict. Two buyers without a
// lock sell the last item twice.
func TestRunPrintsTheLogAndTheVerdict(t *testing.T) {
	path := writeFile(t, "buyers.yaml", buyersHead+"    expect: [oversell]\n")
	r := visualizer(t, "run", "buyers", "--file", path)
	r.expect(t, "run buyers", 0)
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if last := lines[len(lines)-1]; last != "verdict: oversell" {
		t.Errorf("last line = %q, want verdict: oversell", last)
	}
	for _, buyer := range []string{"A", "B"} {
		if want := " mark " + buyer + " deduct -- stock 1 -> 0\n"; !strings.Contains(r.stdout, want) {
			t.Errorf("want %s to read the stock at 1 and write 0 (%q) in the log:\n%s", buyer, want, r.stdout)
		}
	}

	js := visualizer(t, "run", "--json", "buyers", "--file", path)
	js.expect(t, "run --json buyers", 0)
	objs := strings.Split(strings.TrimSuffix(js.stdout, "\n"), "\n")
	if len(objs) != len(lines) {
		t.Errorf("--json printed %d lines, the text log %d", len(objs), len(lines))
	}
	for i, o := range objs {
		var v map[string]any
		if err := json.Unmarshal([]byte(o), &v); err != nil {
			t.Fatalf("--json line %d is not JSON: %v\n%s", i+1, err, o)
		}
	}
	if last := objs[len(objs)-1]; last != `{"verdict":["oversell"]}` {
		t.Errorf("last JSON line = %s, want {\"verdict\":[\"oversell\"]}", last)
	}
}

// run's failures: a scenario the file does not have, a file that is not
// there, a recorded schedule that does not replay, Redis URLs it refuses
// before connecting. Each is one line on stderr and status 1.
func TestRunErrors(t *testing.T) {
	crashed := writeFile(t, "crashed.yaml", buyersHead+"    expect: [safe]\n    schedule:\n      - {step: 1, do: crash, client: A}\n      - {step: 2, do: step, client: A}\n")
	for args, want := range map[string]string{
		"run nope":                                            `visualizer: no scenario "nope" (see visualizer list)`,
		"run buyers --file missing.yaml":                      "missing.yaml",
		"run nope --file " + crashed:                          `visualizer: no scenario "nope" in ` + crashed + ` (see visualizer list --file ` + crashed + `)`,
		"run buyers --file " + crashed:                        "visualizer: buyers: recorded step of A at step 2: A has no move to make there",
		"run no-lock-oversell --redis ftp://127.0.0.1:6379":   "scheme must be redis://",
		"run no-lock-oversell --redis redis://192.0.2.1:6379": "outside loopback (use --allow-remote)",
	} {
		r := visualizer(t, strings.Fields(args)...)
		r.expect(t, args, 1, want)
		if strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("visualizer %s: want one line on stderr, got:\n%s", args, r.stderr)
		}
	}
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
	text := visualizer(t, "run", "forge", "--file", path).stdout
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	events := strings.Count(visualizer(t, "run", "forge", "--file", path, "--json").stdout, "\n") - 1
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
	if got := visualizer(t, "list", "--file", path).stdout; got != "forge\ta title\\nverdict: safe\n" {
		t.Errorf("list printed %q, want the title on one line", got)
	}
}

// The line that says what a fencing storage kept out names the lock's
// key, which is the user's text: a key holding a newline and "verdict:
// safe" stays on the kept line, escaped, and the run still ends with its
// one verdict line (A's write with token 1 refused after B's token 2:
// the lease ran out under A, so mutual-exclusion, and nothing else).
func TestRunKeptLineCannotForgeAVerdict(t *testing.T) {
	lock := `key: "l\nverdict: safe"`
	path := writeFile(t, "forge-kept.yaml", `scenarios:
  - id: forge-kept
    title: {en: "fenced, with a key that forges"}
    seed: 1
    horizon: 15s
    storage: {fencing: true}
    clients:
      - {name: A, algorithm: fencing-token, params: {ttl: 3s, retry: 500ms, `+lock+`}, task: write, work: 100ms}
      - {name: B, algorithm: fencing-token, params: {ttl: 3s, retry: 500ms, `+lock+`}, task: write, work: 100ms, start: 100ms}
    faults:
      - {on: {kind: mark, name: enter, client: A}, do: pause, client: A, for: 5s}
`)
	text := visualizer(t, "run", "forge-kept", "--file", path).stdout
	var kept, verdicts []string
	for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		switch {
		case strings.HasPrefix(l, "kept: "):
			kept = append(kept, l)
		case strings.HasPrefix(l, "#"):
		default:
			verdicts = append(verdicts, l)
		}
	}
	if len(kept) != 1 || !strings.Contains(kept[0], `l\nverdict: safe`) || !strings.Contains(kept[0], "it did not land") {
		t.Errorf("want one kept line naming the key escaped, got %q:\n%s", kept, text)
	}
	if len(verdicts) != 1 || verdicts[0] != "verdict: mutual-exclusion" {
		t.Errorf("want one line besides the events and the kept line, verdict: mutual-exclusion; got %q", verdicts)
	}
}

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

// A run cut short by the step cap says so before its verdict, in text and
// in JSON.
func TestRunSaysWhenTheStepCapStoppedIt(t *testing.T) {
	if testing.Short() {
		t.Skip("takes 100,000 steps")
	}
	path := writeFile(t, "spin.yaml", spin)
	r := visualizer(t, "run", "spin", "--file", path)
	r.expect(t, "run spin", 0)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if n := len(lines); n < 2 || !strings.HasPrefix(lines[n-2], "stopped: the run reached the cap of 100000 steps") || !strings.HasPrefix(lines[n-1], "verdict:") {
		t.Errorf("run past the step cap: expected a stopped: line before the verdict, got the last lines %q", lines[max(len(lines)-2, 0):])
	}
	r = visualizer(t, "run", "spin", "--file", path, "--json")
	r.expect(t, "run spin --json", 0)
	out := r.stdout
	if last := out[strings.LastIndex(strings.TrimSpace(out), "\n")+1:]; !strings.Contains(last, `"stopped":"the run reached the cap of 100000 steps`) {
		t.Errorf("run --json past the step cap: expected stopped in the last object, got %s", last)
	}
	// test compares verdicts: a run the cap cut short has none to compare,
	// even when the steps it ran end as expect: says (starvation).
	r = visualizer(t, "test", "--file", path)
	r.expect(t, "test --file spin.yaml", 1)
	if !strings.Contains(r.stdout, "FAIL spin: the run reached the step cap before it ended: 100000 steps") || strings.Contains(r.stdout, "ok ") {
		t.Errorf("test past the step cap: expected FAIL with the cap, got\n%s", r.stdout)
	}
}

// expect: is for test: run answers without it, and test says it lacks it.
func TestRunNeedsNoExpect(t *testing.T) {
	path := writeFile(t, "ask.yaml", `scenarios:
  - id: ask
    title: {en: "What happens with no lock?"}
    data: {stock: "1"}
    clients:
      - {name: A, algorithm: no-lock}
      - {name: B, algorithm: no-lock}
`)
	r := visualizer(t, "check", path)
	r.expect(t, "check ask.yaml", 0)
	r = visualizer(t, "run", "ask", "--file", path)
	r.expect(t, "run ask", 0)
	if !strings.Contains(r.stdout, "verdict: oversell") {
		t.Errorf("run ask: expected the checker's verdict oversell, got\n%s", r.stdout)
	}
	r = visualizer(t, "test", "--file", path)
	r.expect(t, "test --file ask.yaml", 1)
	if !strings.Contains(r.stdout, "FAIL ask: no expect: to compare with (the run ended oversell)") {
		t.Errorf("test without expect: expected it to say so, got\n%s", r.stdout)
	}
}
