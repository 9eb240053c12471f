package scenario

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/lockstep/lockstep/internal/sim"
)

// leftEnglish finds English words left in a Chinese problem: a phrase of
// two English words outside quotes (identifiers, field names, commands and
// values may stay as they are).
var leftEnglish = regexp.MustCompile(`\b[A-Za-z]?[a-z]{2,}[ '’]+[a-z]{3,}\b`)

// Every problem of every broken file of testdata/bad is said in Chinese,
// with no English phrase left outside quotes.
func TestEveryProblemIsSaidInChinese(t *testing.T) {
	fixedCatalog(t)
	paths, err := filepath.Glob("testdata/bad/*.yaml")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no testdata/bad/*.yaml (err %v)", err)
	}
	inputs := map[string][]byte{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		inputs[p] = b
	}
	for name, gen := range generated {
		inputs[name] = gen()
	}
	quoted := regexp.MustCompile(`"(?:[^"\\]|\\.)*"|'[^']*'`)
	n := 0
	for name, data := range inputs {
		_, err := Parse(filepath.Base(name), data)
		var es Errors
		if !errors.As(err, &es) {
			t.Fatalf("%s: want problems, got %v", name, err)
		}
		for _, e := range es {
			n++
			if !strings.ContainsFunc(e.Zh, func(r rune) bool { return unicode.Is(unicode.Han, r) }) {
				t.Errorf("%s: %q has no Chinese (%q)", name, e.Msg, e.Zh)
				continue
			}
			if m := leftEnglish.FindString(quoted.ReplaceAllString(e.Zh, `""`)); m != "" {
				t.Errorf("%s: %q keeps English in Chinese: %q (%q)", name, e.Msg, m, e.Zh)
			}
		}
	}
	if n < 100 {
		t.Errorf("only %d problems: the corpus says too little", n)
	}
}

// The words problems are built from (kinds of things, shapes of values,
// what the YAML library says) are the catalogue's, keyed by their English:
// an id the catalogue lacks would be said as the id itself, and its
// English never found.
func TestWordsAreTheCatalogues(t *testing.T) {
	hasHan := func(s string) bool {
		return strings.ContainsFunc(s, func(r rune) bool { return unicode.Is(unicode.Han, r) })
	}
	tables := map[string]map[string]sim.Text{
		"things": things, "shapes": shapes, "yamlExpected": yamlExpected, "yamlActs": yamlActs, "yamlReading": yamlReading,
	}
	tables["yamlProblems"] = map[string]sim.Text{}
	for _, p := range yamlProblems {
		tables["yamlProblems"][p.En] = p
	}
	for name, table := range tables {
		if len(table) == 0 {
			t.Errorf("%s is empty", name)
		}
		for en, w := range table {
			if strings.HasPrefix(en, "scenario.") || !hasHan(w.Zh) {
				t.Errorf("%s: %q is said %q in Chinese: its id is not in the catalogue", name, en, w.Zh)
			}
		}
	}
	for en, w := range things {
		if got := thing(en); got.En != en || got.Zh != w.Zh {
			t.Errorf("thing(%q) = %q / %q, want %q", en, got.En, got.Zh, w.Zh)
		}
	}
	if got := describeText("the integer 7"); got.En != "the integer 7" || got.Zh != "整数 7" {
		t.Errorf("describeText(the integer 7) = %v", got)
	}
	if got := yamlContextZh("while parsing a flow mapping"); got != "解析流式映射" {
		t.Errorf("yamlContextZh(while parsing a flow mapping) = %q", got)
	}
	if got := yamlThing("'-' indicator"); got != "'-' 标记" {
		t.Errorf("yamlThing('-' indicator) = %q", got)
	}
}
