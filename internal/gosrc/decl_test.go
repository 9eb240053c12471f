package gosrc

import (
	"errors"
	"strings"
	"testing"
)

const declSrc = `package p

// T is a type.
type T struct{}

// Lock locks.
func (t *T) Lock() error {
	return nil
}

func (T) Unlock() error { return nil }

func helper() {}

var (
	// script is a script.
	script = "return 1"
	other  = 2
)

var alone = 3
`

// TestDecl finds each kind of declaration by the runtime's name and
// returns it as written, from its doc comment, at its line.
func TestDecl(t *testing.T) {
	for _, c := range []struct {
		name, want string
		line       int
	}{
		{"(*T).Lock", "// Lock locks.\nfunc (t *T) Lock() error {\n\treturn nil\n}", 6},
		{"T.Unlock", "func (T) Unlock() error { return nil }", 11},
		{"helper", "func helper() {}", 13},
		{"script", "// script is a script.\nvar script = \"return 1\"", 16},
		{"alone", "var alone = 3", 21},
	} {
		got, line, err := Decl("p.go", []byte(declSrc), c.name)
		if err != nil || got != c.want || line != c.line {
			t.Errorf("Decl(%s): expected %q at line %d, got %q at %d (%v)", c.name, c.want, c.line, got, line, err)
		}
	}
	for _, name := range []string{"(*T).Unlock", "T.Lock", "missing", "T"} {
		if _, _, err := Decl("p.go", []byte(declSrc), name); !errors.Is(err, ErrNoDecl) || !strings.Contains(err.Error(), name) {
			t.Errorf("Decl(%s): expected ErrNoDecl naming it, got %v", name, err)
		}
	}
}
