package lock

import (
	"embed"
	"io/fs"
	"path"
	"reflect"
	"runtime"
	"slices"
	"strings"

	"github.com/bsm/redislock"
	"github.com/go-redsync/redsync/v4"
	redsyncredis "github.com/go-redsync/redsync/v4/redis"
	"github.com/go-redsync/redsync/v4/redis/goredis/v9"
)

// PkgPath is this package's import path: the engine records the call site
// of each command in it (sim.World.TraceSource), so that a reader sees the
// line of the lock code that sent it.
var PkgPath = reflect.TypeFor[Config]().PkgPath()

//go:embed *.go scripts/*.lua
var source embed.FS

// libraries are the upstream modules rows 18-19 run, each under its
// directory of Source (Library.Dir), with the packages whose code sends
// commands (TracedPackages).
var libraries = []struct {
	dir  string
	fsys fs.FS
	pkgs map[string]string // import path -> directory within dir ("" its root)
}{
	{"redsync", redsync.Source, map[string]string{
		reflect.TypeFor[redsync.Mutex]().PkgPath():       "",
		reflect.TypeFor[redsyncredis.Script]().PkgPath(): "redis/",
		goredisPkg: "redis/goredis/v9/",
	}},
	{"redislock", redislock.Source, map[string]string{
		reflect.TypeFor[redislock.Lock]().PkgPath(): "",
	}},
}

// goredisPkg is the import path of redsync's go-redis v9 pool.
var goredisPkg = reflect.TypeOf(goredis.NewPool(nil)).Elem().PkgPath()

// Source is the lock code as a reader would copy it: this package's Go
// files (tests left out) and its Lua scripts under scripts/, and the
// libraries' source (LICENSE and Go files, tests left out) under their
// directories (redsync/, redislock/), as compiled into the program. The
// code view of the browser shows it beside the timeline.
func Source() fs.FS { return sourceFS{} }

// TracedPackages maps each package whose frames the engine records as a
// command's call site (sim.World.TraceSources) to its directory in Source,
// with a trailing slash ("" for this package).
func TracedPackages() map[string]string {
	out := map[string]string{PkgPath: ""}
	for _, l := range libraries {
		for pkg, sub := range l.pkgs {
			out[pkg] = l.dir + "/" + sub
		}
	}
	return out
}

// sourceFile reports whether a path is part of Source: a Go file that is
// not a test, a script, or a library's LICENSE.
func sourceFile(name string) bool {
	if strings.HasPrefix(name, "scripts/") {
		return strings.HasSuffix(name, ".lua")
	}
	if path.Base(name) == "LICENSE" {
		return strings.Contains(name, "/")
	}
	return strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go")
}

// sourceFS is the embedded files without the tests, the libraries' under
// their directories.
type sourceFS struct{}

// lib finds the library whose directory holds name, and name within it.
func lib(name string) (fs.FS, string, bool) {
	for _, l := range libraries {
		if name == l.dir {
			return l.fsys, ".", true
		}
		if rest, ok := strings.CutPrefix(name, l.dir+"/"); ok {
			return l.fsys, rest, true
		}
	}
	return nil, "", false
}

func (sourceFS) Open(name string) (fs.File, error) {
	if f, rest, ok := lib(name); ok {
		if rest != "." && !isDir(f, rest) && !sourceFile(name) {
			return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
		}
		return f.Open(rest)
	}
	if name != "." && name != "scripts" && !sourceFile(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return source.Open(name)
}

// isDir reports whether name is a directory of f.
func isDir(f fs.FS, name string) bool {
	st, err := fs.Stat(f, name)
	return err == nil && st.IsDir()
}

// ReadDir lists a directory of Source: its scripts directory and files,
// and the libraries' directories, without the tests.
func (sourceFS) ReadDir(name string) ([]fs.DirEntry, error) {
	var ents []fs.DirEntry
	var err error
	if f, rest, ok := lib(name); ok {
		ents, err = fs.ReadDir(f, rest)
	} else {
		ents, err = source.ReadDir(name)
		if err == nil && name == "." {
			for _, l := range libraries {
				st, serr := fs.Stat(l.fsys, ".")
				if serr != nil {
					return nil, serr
				}
				ents = append(ents, libDir{l.dir, st})
			}
		}
	}
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(ents, func(e fs.DirEntry) bool {
		return !e.IsDir() && !sourceFile(path.Join(name, e.Name()))
	}), nil
}

// libDir is a library's directory as an entry of Source's root.
type libDir struct {
	name string
	st   fs.FileInfo
}

func (d libDir) Name() string               { return d.name }
func (d libDir) IsDir() bool                { return true }
func (d libDir) Type() fs.FileMode          { return fs.ModeDir }
func (d libDir) Info() (fs.FileInfo, error) { return d.st, nil }

// SourceOf is the file of Source that holds an algorithm's code: the
// file of its Lock method, or of Unlock when Lock is promoted from an
// embedded type (reentrant.go for reentrant-hash, setnx.go for
// set-nx-ex-blind-del); for a library, its file that holds the lock's
// logic (redsync/mutex.go); "" for an unknown id.
func SourceOf(id string) string {
	a, ok := Lookup(id)
	if !ok || a.New == nil {
		return ""
	}
	if l := a.Library; l != nil {
		return l.Dir + "/" + l.File
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
