package server

import (
	"fmt"
	"strings"
	"testing"
)

// runawayScriptYAML is a scenario whose own lock acquires with script: a loop
// without end, or one that doubles a string without end.
func runawayScriptYAML(script string) string {
	return fmt.Sprintf(`scenarios:
  - id: runaway
    title: {en: runaway script}
    horizon: 2s
    locks:
      - name: runaway
        retry: 500ms
        acquire:
          lua: %q
          keys: [$key]
          ok: 1
        release:
          commands:
            - {run: [DEL, $key]}
    clients:
      - {name: A, algorithm: runaway}
    expect: [safe]
`, script)
}

// A scenario's own Lua that loops, or allocates, without end is stopped by
// the node's script budget: its EVAL is answered with the budget's error,
// the session steps on, and another session on the same server is
// answered meanwhile. Before the budget, the first EVAL held the embedded
// node's mutex for ever: the step was never answered (next fails after
// 10s).
func TestARunawayScriptIsStoppedAndTheServerGoesOn(t *testing.T) {
	_, url := newTestServer(t, Limits{})
	for _, tc := range []struct{ script, want string }{
		{"while true do end", "more than 1000000 instructions"},
		{"local s = 'x' while true do s = s .. s end", "built a string of"},
	} {
		a, _, err := dial(t, url, "")
		if err != nil {
			t.Fatal(err)
		}
		a.hello("")
		a.send(map[string]any{"op": "load", "yaml": runawayScriptYAML(tc.script)})
		a.next("state")
		stopped := false
		for i := 0; i < 20 && !stopped; i++ {
			a.send(map[string]any{"op": "step"})
			for _, e := range a.next("state").Events {
				stopped = stopped || e.Kind == "exec" && strings.Contains(e.Text, tc.want)
			}
		}
		if !stopped {
			t.Fatalf("%s: no exec answered with %q in 20 steps", tc.script, tc.want)
		}
		b, _, err := dial(t, url, "")
		if err != nil {
			t.Fatal(err)
		}
		b.hello("")
		b.send(map[string]any{"op": "load", "scenario": "no-lock-oversell"})
		b.next("state")
		b.send(map[string]any{"op": "step"})
		if s := b.next("state"); s.Snap.Step != 1 {
			t.Errorf("%s: the other session stepped to %d, want 1", tc.script, s.Snap.Step)
		}
		a.send(map[string]any{"op": "step"})
		a.next("state")
	}
}
