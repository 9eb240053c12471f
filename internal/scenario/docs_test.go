package scenario

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lockstep/lockstep/internal/sim"
)

// Every complete example in docs/scenarios.md (a yaml block that starts
// with scenarios:) parses without a single problem and round-trips, so a
// teacher who copies one starts from a valid file.
func TestDocExamplesParse(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "scenarios.md"))
	if err != nil {
		t.Fatal(err)
	}
	examples := 0
	for i, block := range strings.Split(string(b), "```yaml\n")[1:] {
		body, _, _ := strings.Cut(block, "```")
		if !strings.HasPrefix(body, "scenarios:") {
			continue
		}
		examples++
		f, err := Parse("example.yaml", []byte(body))
		if err != nil {
			t.Errorf("example %d of docs/scenarios.md does not parse:\n%v", i+1, err)
			continue
		}
		out, err := Marshal(f)
		if err != nil {
			t.Fatalf("example %d: Marshal: %v", i+1, err)
		}
		if _, err := Parse("marshalled.yaml", out); err != nil {
			t.Errorf("example %d does not round-trip:\n%v", i+1, err)
		}
	}
	if examples < 3 {
		t.Fatalf("want at least 3 complete examples in docs/scenarios.md, found %d", examples)
	}
}

// docs/scenarios.md's table of faults is sim.Actions as a reader sees it:
// one row per fault kind, in its order, with the targets it needs and the
// amount it requires; and the budget's kinds are sim.SearchKinds. A kind
// added to the table and not to the doc (or the other way) fails here.
func TestDocFaultTableIsTheTable(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "scenarios.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	_, table, _ := strings.Cut(doc, "| `do` | needs | with | what happens |")
	table, _, _ = strings.Cut(table, "\n\n")
	var kinds []string
	for _, line := range strings.Split(table, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 5 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		do := strings.Trim(strings.TrimSpace(cells[1]), "`")
		kinds = append(kinds, do)
		a, ok := sim.ActionOf(do)
		if !ok || !a.Fault {
			t.Errorf("docs/scenarios.md lists fault %q, which sim.Actions does not declare", do)
			continue
		}
		if want := map[sim.Target]string{sim.TargetClient: "`client`", sim.TargetNode: "`node`", sim.TargetLink: "`node`"}[a.Target]; strings.TrimSpace(cells[2]) != want {
			t.Errorf("%s: the doc says it needs %s, the table %s", do, cells[2], want)
		}
		if req := "`" + a.Amount.Field() + "` (required)"; a.Required != strings.Contains(cells[3], req) {
			t.Errorf("%s: the doc's %q disagrees with the table (required %v)", do, cells[3], a.Required)
		}
	}
	var want []string
	for _, k := range sim.FaultKinds {
		want = append(want, string(k))
	}
	if !slices.Equal(kinds, want) {
		t.Errorf("docs/scenarios.md's fault table lists %v; sim.Actions declares %v", kinds, want)
	}
	var quoted []string
	for _, k := range sim.SearchKinds {
		quoted = append(quoted, "`"+k+"`")
	}
	if list := strings.Join(quoted, ", "); !strings.Contains(strings.Join(strings.Fields(doc), " "), "`do` is one of "+list+";") {
		t.Errorf("docs/scenarios.md should say a budget entry's `do` is one of %s;", list)
	}
}
