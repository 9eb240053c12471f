package server

import (
	"github.com/lockstep/lockstep/internal/fact"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every error code the server sends (its own and the class's, refused by
// internal/class) has its sentence, in English and
// 中文, in the catalogue the page reads (internal/fact/words, page.error.…,
// which messages.js reads through words.js): the page says every error
// from its code; and docs/protocol.md names it.
func TestEveryErrorCodeIsInThePageCatalogue(t *testing.T) {
	han := regexp.MustCompile(`\p{Han}`)
	src, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	classSrc, err := filepath.Glob(filepath.Join("..", "class", "*.go"))
	if err != nil || len(classSrc) == 0 {
		t.Fatalf("internal/class's source: %v", err)
	}
	src = append(src, classSrc...)
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "protocol.md"))
	if err != nil {
		t.Fatal(err)
	}
	used := regexp.MustCompile(`(?:coded|refuse)\("([a-z-]+)"|badArg\(|m\.Code, m\.Args = "([a-z-]+)"`)
	n := 0
	for _, f := range src {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range used.FindAllStringSubmatch(string(b), -1) {
			code := m[1] + m[2]
			if code == "" {
				code = "bad-argument"
			}
			n++
			_, en := fact.Said("en", fact.Msg("page.error."+code))
			zh, said := fact.Said("zh", fact.Msg("page.error."+code))
			if !(en && said && han.MatchString(zh)) {
				t.Errorf("%s: the code %q has no sentence in English and 中文 in the page's catalogue", f, code)
			}
			if !strings.Contains(string(doc), "`"+code+"`") {
				t.Errorf("%s: the code %q is not in docs/protocol.md", f, code)
			}
		}
	}
	if n < 40 {
		t.Errorf("found %d codes in the server's source: the test reads less than it should", n)
	}
}
