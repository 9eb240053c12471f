package reference_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/check/reference"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
)

// Every lesson's golden log (internal/lesson/testdata/golden): the lesson
// runs again, its log is the golden file line for line (the file is the
// production checker's verdicts when it was written, its kept: and
// verdict: lines aside), and the reference,
// given the run's events, gives the verdicts the log records. The events
// are the run's own, never read back from their text.
func TestDifferentialGolden(t *testing.T) {
	f, err := scenario.ParseBuiltin("scenarios.yaml", lockstep.Scenarios)
	if err != nil {
		t.Fatal(err)
	}
	paths, _ := filepath.Glob(filepath.Join("..", "..", "lesson", "testdata", "golden", "*.txt"))
	if len(paths) == 0 {
		t.Fatal("no golden logs found")
	}
	var ds []diff
	for _, path := range paths {
		id := strings.TrimSuffix(filepath.Base(path), ".txt")
		i := slices.IndexFunc(f.Scenarios, func(s scenario.Scenario) bool { return s.ID == id })
		if i < 0 {
			t.Errorf("%s: no lesson %q in the catalog", path, id)
			continue
		}
		sc := &f.Scenarios[i]
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		log, prod, err := run(sc, sc.Seed)
		if err != nil {
			t.Errorf("%s: %v", id, err)
			continue
		}
		var text strings.Builder
		for _, e := range log {
			text.WriteString(e.String() + "\n")
		}
		var events strings.Builder // the golden file's event lines, without its kept: and verdict: lines
		for _, line := range strings.SplitAfter(string(data), "\n") {
			if !strings.HasPrefix(line, "kept: ") && !strings.HasPrefix(line, "verdict: ") {
				events.WriteString(line)
			}
		}
		if text.String() != events.String() {
			t.Errorf("%s: the run's log is not its golden file (go test ./internal/lesson -run TestGoldenLogs says where)", id)
			continue
		}
		ref := reference.Check(log, lesson.CheckOptions(sc))
		if !same(prod, ref) {
			ds = append(ds, diff{what: "golden " + filepath.Base(path), seed: sc.Seed, log: log, prod: prod, ref: ref})
		}
	}
	report(t, ds, len(paths))
}
