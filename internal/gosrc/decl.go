package gosrc

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
)

// ErrNoDecl is returned by Decl when a file declares no such name.
var ErrNoDecl = errors.New("gosrc: no such declaration")

// Decl finds one top-level declaration of a Go file's source src by the
// name the runtime gives it (a call stack's frame, sim.Site.Func): a
// function (deleteIfOwner), a method ((*Redlock).Lock, NoLock.Lock for a
// value receiver) or a package variable (luaObtain). It returns the
// declaration as written, its doc comment first, and the line it starts
// on; a variable of a group is written as its own var declaration.
func Decl(file string, src []byte, name string) (string, int, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.ParseComments)
	if err != nil {
		return "", 0, err
	}
	text := func(from, to token.Pos, prefix string) (string, int) {
		a, b := fset.Position(from), fset.Position(to)
		return prefix + string(src[a.Offset:b.Offset]), a.Line
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if FuncName(d) != name {
				continue
			}
			from := d.Pos()
			if d.Doc != nil {
				from = d.Doc.Pos()
			}
			s, line := text(from, d.End(), "")
			return s, line, nil
		case *ast.GenDecl:
			if d.Tok != token.VAR && d.Tok != token.CONST {
				continue
			}
			for _, spec := range d.Specs {
				vs := spec.(*ast.ValueSpec)
				for _, n := range vs.Names {
					if n.Name != name {
						continue
					}
					if len(d.Specs) == 1 && !d.Lparen.IsValid() {
						from := d.Pos()
						if d.Doc != nil {
							from = d.Doc.Pos()
						}
						s, line := text(from, d.End(), "")
						return s, line, nil
					}
					doc, line := "", 0
					if vs.Doc != nil {
						doc, line = text(vs.Doc.Pos(), vs.Doc.End(), "")
						doc += "\n"
					}
					s, at := text(vs.Pos(), vs.End(), d.Tok.String()+" ")
					if line == 0 {
						line = at
					}
					return doc + s, line, nil
				}
			}
		}
	}
	return "", 0, fmt.Errorf("%w: %s in %s", ErrNoDecl, name, file)
}

// FuncName is a function's name as the runtime writes it within its
// package: f, (*T).M for a pointer receiver, T.M for a value receiver.
func FuncName(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return d.Name.Name
	}
	t := d.Recv.List[0].Type
	if ix, ok := t.(*ast.IndexExpr); ok { // a generic receiver: T[P]
		t = ix.X
	}
	switch t := t.(type) {
	case *ast.StarExpr:
		x := t.X
		if ix, ok := x.(*ast.IndexExpr); ok {
			x = ix.X
		}
		if id, ok := x.(*ast.Ident); ok {
			return "(*" + id.Name + ")." + d.Name.Name
		}
	case *ast.Ident:
		return t.Name + "." + d.Name.Name
	}
	return strings.TrimSpace(d.Name.Name)
}
