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
var chineseAllowed = map[string]int{}

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
			if n := hanLines(src); n > 0 {
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
	holdToAllowed(t, got, chineseAllowed, "chineseAllowed",
		"say its sentences with fact.Say and put their words in internal/fact/words/*.json",
		"move its sentences into the catalogue (fact.Say), do not add more")
}

// pageChineseAllowed is every page file (web/static/*.js but the
// generated words.js, web/templates/*) that still writes Chinese, with how
// many of its lines do: the words not yet moved into the catalogue's page.
// ids, which may only shrink, as chineseAllowed.
var pageChineseAllowed = map[string]int{}

// No page file says a sentence in Chinese: the page reads its words from
// the catalogue (page.… ids, made into web/static/words.js by go generate,
// read by i18n.js's t and fill), so a third language is one more file of
// the catalogue. The files not yet moved are pageChineseAllowed.
func TestNoChineseOnThePage(t *testing.T) {
	scripts, _ := filepath.Glob("web/static/*.js")
	templates, _ := filepath.Glob("web/templates/*")
	if len(scripts) == 0 || len(templates) == 0 {
		t.Fatal("no page scripts or templates: the test reads the wrong directory")
	}
	got := map[string]int{}
	for _, p := range append(scripts, templates...) {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(strings.SplitN(string(src), "\n", 2)[0], "DO NOT EDIT") {
			continue // generated from the catalogue: words.js
		}
		if n := hanLines(src); n > 0 {
			got[filepath.ToSlash(p)] = n
		}
	}
	holdToAllowed(t, got, pageChineseAllowed, "pageChineseAllowed",
		"give its sentences page. ids in internal/fact/words/*.json (go generate ./internal/fact) and say them with i18n.js's t or fill",
		"move its sentences into the catalogue (page. ids), do not add more")
}

// hanLines is how many of src's lines hold a Chinese character.
func hanLines(src []byte) int {
	n := 0
	for _, line := range strings.Split(string(src), "\n") {
		if han.MatchString(line) {
			n++
		}
	}
	return n
}

// holdToAllowed fails on every file whose count of Chinese lines (got)
// is not what allowed (named list in words_test.go) says: a file not
// listed is told how to move its words (move), a listed one that grew
// not to (grow), one that shrank or has none left to write it down.
func holdToAllowed(t *testing.T, got, allowed map[string]int, list, move, grow string) {
	t.Helper()
	for _, p := range slices.Sorted(maps.Keys(got)) {
		n, was := got[p], allowed[p]
		switch {
		case was == 0:
			t.Errorf("%s has Chinese on %d lines: %s", p, n, move)
		case n > was:
			t.Errorf("%s has Chinese on %d lines, %d before: %s", p, n, was, grow)
		case n < was:
			t.Errorf("%s has Chinese on %d lines, %d before: write %d in %s (words_test.go), so that it cannot grow back", p, n, was, n, list)
		}
	}
	for _, p := range slices.Sorted(maps.Keys(allowed)) {
		if _, ok := got[p]; !ok {
			t.Errorf("%s has no Chinese left: take it off %s (words_test.go)", p, list)
		}
	}
}
