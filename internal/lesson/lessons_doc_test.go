package lesson

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// A catalog with one scenario on the first row: that row lists it, with
// its title in both languages, the pipe in its title escaped so that the
// table keeps its four columns, and its verdicts on embedded and on real
// Redis; every other row says it has no scenario yet. The rows come in
// the catalog's order, each under its number, algorithm and title.
func TestLessonsDocListsEachRowsScenarios(t *testing.T) {
	first := lock.Algorithms[0]
	f := &scenario.File{Scenarios: []scenario.Scenario{{
		ID:        "pipe-title",
		Title:     sim.Text{En: "GET | SET", Zh: "先读后写"},
		Source:    "seed 000 intro",
		Catalog:   []int{first.Row},
		Expect:    []string{"oversell"},
		RealRedis: &scenario.RealRedis{Expect: []string{"safe"}},
	}}}
	doc := LessonsDoc(f)

	row := "| `pipe-title` | GET \\| SET / 先读后写 | seed 000 intro | `oversell` (real Redis: `safe`) |\n"
	if n := strings.Count(doc, row); n != 1 {
		t.Errorf("want the scenario's row once, got it %d times; want the line %q in:\n%s", n, row, doc)
	}
	if got, want := strings.Count(doc, "| (none yet) | | | |\n"), len(lock.Algorithms)-1; got != want {
		t.Errorf("rows without a scenario: got %d, want %d (every row but the first)", got, want)
	}
	last := -1
	for _, a := range lock.Algorithms {
		head := fmt.Sprintf("\n## %d. `%s` — %s\n", a.Row, a.ID, a.Title)
		i := strings.Index(doc, head)
		if i < 0 || i < last {
			t.Fatalf("row %d: heading %q missing or out of order", a.Row, head)
		}
		last = i
	}
	if i, j := strings.Index(doc, row), strings.Index(doc, fmt.Sprintf("\n## %d. ", lock.Algorithms[1].Row)); i > j {
		t.Errorf("the scenario is listed after the second row's heading, not under the first row")
	}
}

// The section of the libraries' reports groups the scenarios by the
// repository their source cites, in order of first appearance, and links
// each issue or pull request number and a README; a source that cites no
// repository is left out of it.
func TestLessonsDocListsTheLibrariesReports(t *testing.T) {
	f := &scenario.File{Scenarios: []scenario.Scenario{
		{ID: "a", Title: sim.Text{En: "A", Zh: "甲"}, Source: "owner/lib#7, #12", Expect: []string{"safe"}},
		{ID: "b", Title: sim.Text{En: "B"}, Source: "seed 000; redis.io/topics/distlock", Expect: []string{"safe"}},
		{ID: "c", Title: sim.Text{En: "C"}, Source: "other/tool README (no watchdog)", Expect: []string{"starvation"}},
		{ID: "d", Title: sim.Text{En: "D"}, Source: "owner/lib#3", Expect: []string{"oversell"}},
	}}
	doc := LessonsDoc(f)
	i := strings.Index(doc, "## From the libraries' issue trackers")
	if i < 0 {
		t.Fatalf("no section of the libraries' reports:\n%s", doc)
	}
	sec := doc[i:]
	for _, want := range []string{
		"| [#7](https://github.com/owner/lib/issues/7), [#12](https://github.com/owner/lib/issues/12) | `a` | A / 甲 | `safe` |\n",
		"| [#3](https://github.com/owner/lib/issues/3) | `d` | D | `oversell` |\n",
		"| [README](https://github.com/other/tool#readme) | `c` | C | `starvation` |\n",
	} {
		if !strings.Contains(sec, want) {
			t.Errorf("the section lacks %q:\n%s", want, sec)
		}
	}
	if strings.Contains(sec, "`b`") || strings.Contains(sec, "redis.io") {
		t.Errorf("a source without a repository's report is listed:\n%s", sec)
	}
	if a, c := strings.Index(sec, "### [owner/lib]"), strings.Index(sec, "### [other/tool]"); a < 0 || c < a {
		t.Errorf("want owner/lib's heading, then other/tool's:\n%s", sec)
	}
	if strings.Contains(LessonsDoc(&scenario.File{}), "## From the libraries") {
		t.Error("with no report cited, the section should not be written")
	}
}
