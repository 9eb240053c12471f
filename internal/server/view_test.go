package server

import (
	"go/ast"
	"testing"

	"github.com/lockstep/lockstep/internal/gosrc"
)

// The server renders a session from what lesson.Session gives (its View
// and its narrow methods), never by reaching into the run: no non-test
// file of the package calls a session's Run(). (A comparison's or a
// replay's hooks are handed runs, to weigh them: that is not a session.)
func TestTheServerRendersFromTheView(t *testing.T) {
	files, err := gosrc.Dir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		f.Inspect(func(n ast.Node, _ string) bool {
			if x, ok := n.(*ast.CallExpr); ok {
				if sel, ok := x.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Run" && len(x.Args) == 0 && f.Imported(sel) == "" {
					t.Errorf("%s: reaches into the run: render from the session's View or a method of lesson.Session", f.Position(x))
				}
			}
			return true
		})
	}
}
