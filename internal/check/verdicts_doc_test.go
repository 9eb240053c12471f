package check

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lockstep/lockstep/internal/sim"
)

// docs/verdicts.md's table of verdicts has one row per name of
// sim.Verdicts: a verdict added to the vocabulary and not
// defined there (or the other way) fails here.
func TestVerdictsDocIsTheTable(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "verdicts.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, table, _ := strings.Cut(string(b), "| verdict | reported when | proving events |")
	table, _, _ = strings.Cut(table, "\n\n")
	var names []string
	for _, line := range strings.Split(table, "\n") {
		if cells := strings.Split(line, "|"); len(cells) > 2 && strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			names = append(names, strings.Trim(strings.TrimSpace(cells[1]), "`"))
		}
	}
	if !slices.Equal(slices.Sorted(slices.Values(names)), slices.Sorted(slices.Values(sim.Verdicts))) {
		t.Errorf("docs/verdicts.md's table defines %v; sim.Verdicts declares %v", names, sim.Verdicts)
	}
}
