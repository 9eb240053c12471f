package main

import (
	"testing"
)

// test runs every scenario of a file and compares its verdicts with its
// expect: one ok or FAIL line each, then the counts; it fails if any
// scenario does. Two buyers without a lock oversell: the scenario that
// expects it passes, the one that expects safe fails and says both lists,
// and the one whose recorded schedule cannot replay fails with the reason.
func TestTestComparesVerdicts(t *testing.T) {
	scenarios := buyersHead + "    expect: [oversell]\n" +
		indentScenario("wrong", "    expect: [safe]\n") +
		indentScenario("broken", "    expect: [oversell]\n    schedule:\n      - {step: 1, do: crash, client: A}\n      - {step: 2, do: step, client: A}\n")
	path := writeFile(t, "three.yaml", scenarios)
	r := visualizer(t, "test", "--file", path)
	r.expect(t, "test --file three.yaml", 1)
	want := "ok   buyers: oversell\n" +
		"FAIL wrong: got oversell, want safe\n" +
		"FAIL broken: recorded step of A at step 2: A has no move to make there\n" +
		"1 passed, 2 failed\n"
	if r.stdout != want || r.stderr != "" {
		t.Errorf("test printed\n%s(stderr %q), want\n%s", r.stdout, r.stderr, want)
	}

	good := writeFile(t, "good.yaml", buyersHead+"    expect: [oversell]\n")
	r = visualizer(t, "test", "--file", good)
	r.expect(t, "test --file good.yaml", 0)
	if r.stdout != "ok   buyers: oversell\n1 passed, 0 failed\n" {
		t.Errorf("test of a passing file printed %q", r.stdout)
	}

	r = visualizer(t, "test", "--file", "missing.yaml")
	r.expect(t, "test --file missing.yaml", 1, "visualizer: ", "missing.yaml")
}

// indentScenario is buyersHead's scenario again under another id, with
// the rest of its fields, for a second entry of the same file.
func indentScenario(id, rest string) string {
	const head = "scenarios:\n"
	body := buyersHead[len(head):]
	return "  - id: " + id + body[len("  - id: buyers"):] + rest
}
