package lock

import (
	"embed"
	"io/fs"
	"path"
	"reflect"
	"runtime"
	"slices"
	"strings"
)

// PkgPath is this package's import path: the engine records the call site
// of each command in it (sim.World.TraceSource), so that a reader sees the
// line of the lock code that sent it.
var PkgPath = reflect.TypeFor[Config]().PkgPath()

//go:embed *.go scripts/*.lua
var source embed.FS

// Source is the lock code as a reader would copy it: this package's Go
// files (tests left out) and its Lua scripts under scripts/, as compiled
// into the program. The code view of the browser shows it beside the
// timeline.
func Source() fs.FS { return sourceFS{} }

// sourceFile reports whether a path is part of Source: a Go file that is
// not a test, or a script.
func sourceFile(name string) bool {
	if strings.HasPrefix(name, "scripts/") {
		return strings.HasSuffix(name, ".lua")
	}
	return strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go")
}

// sourceFS is the embedded files without the tests.
type sourceFS struct{}

func (sourceFS) Open(name string) (fs.File, error) {
	if name != "." && name != "scripts" && !sourceFile(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return source.Open(name)
}

// ReadDir lists a directory of Source: its scripts directory and files,
// without the tests.
func (sourceFS) ReadDir(name string) ([]fs.DirEntry, error) {
	ents, err := source.ReadDir(name)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(ents, func(e fs.DirEntry) bool {
		return !e.IsDir() && !sourceFile(path.Join(name, e.Name()))
	}), nil
}

// SourceOf is the file of Source that holds an algorithm's code: the
// file of its Lock method, or of Unlock when Lock is promoted from an
// embedded type (reentrant.go for reentrant-hash, setnx.go for
// set-nx-ex-blind-del); "" for an unknown id.
func SourceOf(id string) string {
	a, ok := Lookup(id)
	if !ok || a.New == nil {
		return ""
	}
	t := reflect.TypeOf(a.New(Config{}))
	for _, name := range []string{"Lock", "Unlock"} {
		m, ok := t.MethodByName(name)
		if !ok {
			continue
		}
		fn := runtime.FuncForPC(m.Func.Pointer())
		if fn == nil {
			continue
		}
		if file, _ := fn.FileLine(fn.Entry()); strings.HasSuffix(file, ".go") {
			return path.Base(file)
		}
	}
	return ""
}
