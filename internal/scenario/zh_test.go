package scenario

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// Every problem format the checker writes has its Chinese: the test reads
// the package's source for each format given to add, at, atKey, fail,
// errAt, say and problemf, and looks it up in zhFormats.
func TestEveryProblemFormatHasChinese(t *testing.T) {
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	arg := map[string]int{"add": 2, "at": 1, "atKey": 1, "fail": 2, "errAt": 1, "say": 0, "problemf": 0}
	n := 0
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		fs := token.NewFileSet()
		f, err := parser.ParseFile(fs, p, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(x ast.Node) bool {
			c, ok := x.(*ast.CallExpr)
			if !ok {
				return true
			}
			name := ""
			switch fn := c.Fun.(type) {
			case *ast.SelectorExpr:
				name = fn.Sel.Name
			case *ast.Ident:
				name = fn.Name
			}
			i, ok := arg[name]
			if !ok || len(c.Args) <= i {
				return true
			}
			lit, ok := c.Args[i].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			format, _ := strconv.Unquote(lit.Value)
			n++
			if _, ok := zhFormats[format]; !ok {
				t.Errorf("%s: the problem %q has no Chinese in zhFormats", fs.Position(c.Pos()), format)
			}
			return true
		})
	}
	if n < 100 {
		t.Errorf("found %d problem formats in the source: the test reads less than it should", n)
	}
}

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
