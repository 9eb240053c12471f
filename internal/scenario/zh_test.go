package scenario

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
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
