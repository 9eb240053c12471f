package scenario

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
