package lockstep

import (
	"go/ast"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lockstep/lockstep/internal/gosrc"
)

// The sizes the project sets itself (docs/architecture.md, "Changing
// Lockstep"): a file is read in one sitting, a function on one screen.
const (
	maxFileLines   = 400 // a non-test Go file
	maxFuncLines   = 80  // a non-test Go function or method, from func to its closing brace
	maxScriptLines = 400 // a page script, web/static/*.js
)

// oversized is what is over those sizes today, each with its size: the
// debt, written down so that it can only be paid. A file or function
// named here may shrink but not grow; one that is back under the size
// must leave the list; nothing new may join it. (Third-party and
// generated code is not ours to size.)
var oversized = map[string]int{}

// No file or function grows past the project's sizes unnoticed: every one
// over them today is in oversized with its size, and the list only
// shrinks. A new long function fails here; so does one on the list that
// grew, and one that was cut down but is still listed (take it off: the
// limit then holds it).
func TestNothingGrowsPastItsSize(t *testing.T) {
	sizes := measured(t)
	for _, what := range slices.Sorted(maps.Keys(sizes)) {
		got, limit := sizes[what].lines, sizes[what].limit
		was, listed := oversized[what]
		switch {
		case got > limit && !listed:
			t.Errorf("%s is %d lines, over the %d the project sets: split it (see docs/architecture.md)", what, got, limit)
		case listed && got > was:
			t.Errorf("%s grew from %d to %d lines, over the %d the project sets: it may only shrink", what, was, got, limit)
		case listed && got <= limit:
			t.Errorf("%s is %d lines, back under %d: take it off oversized (size_test.go)", what, got, limit)
		case listed && got < was:
			t.Errorf("%s shrank from %d to %d lines: write %d in oversized (size_test.go), so that it cannot grow back", what, was, got, got)
		}
	}
	for _, what := range slices.Sorted(maps.Keys(oversized)) {
		if _, ok := sizes[what]; !ok {
			t.Errorf("oversized names %s, which is gone: take it off (size_test.go)", what)
		}
	}
}

// A size is a thing's length in lines and the most it may have.
type size struct{ lines, limit int }

// measured sizes every non-test Go file of the module outside third_party
// and generated code, each of its functions, and every page script, by
// the names oversized uses: a file by its path, a function by its file
// and its name (a method with its receiver, "(*Fact).marked").
func measured(t *testing.T) map[string]size {
	t.Helper()
	files, err := gosrc.Tree(".", "third_party")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]size{}
	for _, f := range files {
		if ast.IsGenerated(f.AST) {
			continue
		}
		path := filepath.ToSlash(f.Path)
		out[path] = size{f.Fset.File(f.AST.Pos()).LineCount(), maxFileLines}
		for _, decl := range f.AST.Decls {
			if fn, ok := decl.(*ast.FuncDecl); ok {
				lines := f.Fset.Position(fn.End()).Line - f.Position(fn).Line + 1
				name := path + " " + funcName(fn)
				if lines > out[name].lines { // a file may have several init
					out[name] = size{lines, maxFuncLines}
				}
			}
		}
	}
	scripts, _ := filepath.Glob("web/static/*.js")
	if len(scripts) == 0 {
		t.Fatal("no page scripts in web/static: the test reads the wrong directory")
	}
	for _, path := range scripts {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(strings.SplitN(string(src), "\n", 2)[0], "DO NOT EDIT") {
			continue // generated: internal/fact/words/*.json are its source
		}
		out[filepath.ToSlash(path)] = size{strings.Count(string(src), "\n"), maxScriptLines}
	}
	return out
}

// funcName is a function's name, a method's with its receiver's type:
// load, (*Fact).marked, (Text).String.
func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	recv := fn.Recv.List[0].Type
	star := ""
	if p, ok := recv.(*ast.StarExpr); ok {
		star, recv = "*", p.X
	}
	switch x := recv.(type) { // a generic receiver, T[K] or T[K, V]
	case *ast.IndexExpr:
		recv = x.X
	case *ast.IndexListExpr:
		recv = x.X
	}
	return "(" + star + recv.(*ast.Ident).Name + ")." + fn.Name.Name
}
