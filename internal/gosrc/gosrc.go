// Package gosrc reads the project's own Go source for the tests that hold
// rules about the code itself: what the engine and the lock libraries may
// call, where a fault kind may be spelled. Each file is parsed with its
// imports by the name the file uses for them. Decl finds one declaration
// by the runtime's name for it, for the card that shows a lock's acquire
// and release (report.CodeOf).
package gosrc

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// A File is one parsed Go source file.
type File struct {
	Path    string
	Fset    *token.FileSet
	AST     *ast.File
	Imports map[string]string // the name the file uses for an import -> its path
}

// Parse parses the Go file at path.
func Parse(path string) (*File, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, 0)
	if err != nil {
		return nil, err
	}
	out := &File{Path: path, Fset: fset, AST: f, Imports: map[string]string{}}
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		name := p[strings.LastIndex(p, "/")+1:]
		if p == "math/rand/v2" {
			name = "rand"
		}
		if imp.Name != nil {
			name = imp.Name.Name
		}
		out.Imports[name] = p
	}
	return out, nil
}

// Dir parses the non-test Go files of dir (not of its subdirectories).
func Dir(dir string) ([]*File, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	var out []*File
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := Parse(p)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// Tree parses the non-test Go files under dir and its subdirectories,
// but for testdata, hidden directories and the directories skip names
// (relative to dir, with slashes).
func Tree(dir string, skip ...string) ([]*File, error) {
	var out []*File
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if d.IsDir() {
			hidden := path != dir && strings.HasPrefix(d.Name(), ".")
			if hidden || d.Name() == "testdata" || slices.Contains(skip, filepath.ToSlash(rel)) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := Parse(path)
		if err != nil {
			return err
		}
		out = append(out, f)
		return nil
	})
	return out, err
}

// Position is where n is in the file.
func (f *File) Position(n ast.Node) token.Position { return f.Fset.Position(n.Pos()) }

// Inspect walks each top-level declaration of the file with ast.Inspect,
// giving fn the name of the function the node is in ("" outside one).
func (f *File) Inspect(fn func(n ast.Node, funcName string) bool) {
	for _, decl := range f.AST.Decls {
		name := ""
		if fd, ok := decl.(*ast.FuncDecl); ok {
			name = fd.Name.Name
		}
		ast.Inspect(decl, func(n ast.Node) bool { return fn(n, name) })
	}
}

// Imported is, for a selector pkg.Name on an imported package, the
// package's import path; "" for any other selector.
func (f *File) Imported(x *ast.SelectorExpr) string {
	id, ok := x.X.(*ast.Ident)
	if !ok {
		return ""
	}
	return f.Imports[id.Name]
}
