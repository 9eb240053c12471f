package lockstep

import (
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// chineseAllowed is every non-test Go file that still writes Chinese
// outside the catalogue's files (internal/fact/words/*.json), with how
// many of its lines do: the words not yet moved, written down so that the
// move can go package by package and the list only shrinks. A file not
// named here may hold no Chinese, not even in a comment; a file named
// here may not gain a line of it; one that lost some must say so here,
// and one that has none left must leave the list.
var chineseAllowed = map[string]int{
	"cmd/visualizer/docs_live.go":        4,
	"cmd/visualizer/report.go":           1,
	"internal/compare/against.go":        1,
	"internal/compare/compare.go":        4,
	"internal/compare/doc.go":            1,
	"internal/compare/pairs.go":          13,
	"internal/compare/place.go":          17,
	"internal/compare/rows.go":           2,
	"internal/compare/taken.go":          6,
	"internal/etcd/lessons.go":           12,
	"internal/explore/bound.go":          9,
	"internal/explore/describe.go":       25,
	"internal/explore/parse.go":          5,
	"internal/explore/realredis.go":      1,
	"internal/explore/recording.go":      2,
	"internal/fact/catalogue.go":         1,
	"internal/fact/cite.go":              1,
	"internal/fact/words_engine.go":      32,
	"internal/fact/words_faults.go":      40,
	"internal/fact/words_lessons.go":     25,
	"internal/fact/words_locks.go":       42,
	"internal/lesson/lessons_doc.go":     4,
	"internal/lesson/session.go":         1,
	"internal/lesson/story.go":           1,
	"internal/livecard/etcd.go":          9,
	"internal/livecard/rows.go":          6,
	"internal/livecard/run.go":           1,
	"internal/livecard/zookeeper.go":     9,
	"internal/lock/failover.go":          2,
	"internal/lock/mysql.go":             2,
	"internal/lock/reentrant.go":         1,
	"internal/lock/setnx.go":             2,
	"internal/lock/setnx_expire.go":      2,
	"internal/narrate/ends.go":           10,
	"internal/narrate/fault.go":          15,
	"internal/narrate/names.go":          5,
	"internal/narrate/standing.go":       9,
	"internal/narrate/story.go":          24,
	"internal/report/live.go":            24,
	"internal/report/markdown.go":        55,
	"internal/report/setup_html_page.go": 22,
	"internal/report/setup_markdown.go":  14,
	"internal/scenario/decode.go":        2,
	"internal/scenario/decode_fields.go": 7,
	"internal/scenario/form.go":          10,
	"internal/scenario/zh.go":            216,
	"internal/zookeeper/lessons.go":      14,
	"internal/zookeeper/server.go":       4,
}

// han is a Chinese character.
var han = regexp.MustCompile(`\p{Han}`)

// No Go code says a sentence in Chinese outside the catalogue: a
// sentence is an id in fact.Say and its words in each language's file
// (docs/architecture.md, "Words"). The files not yet moved are
// chineseAllowed, which may only shrink.
func TestChineseOnlyInTheCatalogue(t *testing.T) {
	got := map[string]int{}
	for _, dir := range []string{".", "cmd", "internal"} {
		err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if dir == "." && p != "." {
					return filepath.SkipDir // the root's own files only: cmd and internal are walked apart, third_party is not ours
				}
				return nil
			}
			if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return nil
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			n := 0
			for _, line := range strings.Split(string(src), "\n") {
				if han.MatchString(line) {
					n++
				}
			}
			if n > 0 {
				got[filepath.ToSlash(p)] = n
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(got) == 0 && len(chineseAllowed) > 0 {
		t.Fatal("no Chinese found anywhere: the test reads the wrong directory")
	}
	for _, p := range slices.Sorted(maps.Keys(got)) {
		n, was := got[p], chineseAllowed[p]
		switch {
		case was == 0:
			t.Errorf("%s has Chinese on %d lines: say its sentences with fact.Say and put their words in internal/fact/words/*.json", p, n)
		case n > was:
			t.Errorf("%s has Chinese on %d lines, %d before: move its sentences into the catalogue (fact.Say), do not add more", p, n, was)
		case n < was:
			t.Errorf("%s has Chinese on %d lines, %d before: write %d in chineseAllowed (words_test.go), so that it cannot grow back", p, n, was, n)
		}
	}
	for _, p := range slices.Sorted(maps.Keys(chineseAllowed)) {
		if _, ok := got[p]; !ok {
			t.Errorf("%s has no Chinese left: take it off chineseAllowed (words_test.go)", p)
		}
	}
}
