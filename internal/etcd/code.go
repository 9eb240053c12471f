package etcd

import (
	"embed"
	"io/fs"
	"path"
	"runtime"
	"strings"
	"testing/fstest"

	"github.com/lockstep/lockstep/internal/live"
	"github.com/lockstep/lockstep/internal/sim"
)

// The files of go.etcd.io/etcd/client/v3/concurrency that the lessons run,
// copied from the module this program is built with (.go.txt, so that
// they are not built twice); TestTheCodeViewShowsTheModulesOwnFiles holds
// them equal to it.
//
//go:embed source/*.go.txt
var source embed.FS

// concurrencyPkg is the package whose frames are a request's call site.
const concurrencyPkg = "go.etcd.io/etcd/client/v3/concurrency."

// codeDir is the directory the files are served under (/source/etcd/).
const codeDir = "etcd"

// Code is what the code view shows of the etcd lessons: the Mutex's own
// files, as compiled in.
func (s *Service) Code() live.Code {
	files := fstest.MapFS{}
	names, _ := fs.Glob(source, "source/*.go.txt")
	for _, n := range names {
		body, err := source.ReadFile(n)
		if err != nil {
			panic(err) // embedded: cannot fail
		}
		files[codeDir+"/"+strings.TrimSuffix(path.Base(n), ".txt")] = &fstest.MapFile{Data: body, Mode: 0o444}
	}
	return live.Code{Files: files, File: codeDir + "/mutex.go", Dir: codeDir,
		Module: "go.etcd.io/etcd/client/v3", Version: clientVersion, License: "Apache-2.0",
		URL: "https://github.com/etcd-io/etcd/tree/" + clientVersion + "/client/v3/concurrency"}
}

var _ live.Coded = (*Service)(nil)

// clientVersion is the client library's version, from Library.
var clientVersion = strings.Fields(Library)[1]

// callSite is the request's place in the concurrency package: the
// innermost frame of it on the calling goroutine's stack (gRPC runs a
// unary interceptor on the caller's), and up to three further out; nil for
// a request the package did not make (the lessons' own writes).
func callSite() *sim.Source {
	var pcs [48]uintptr
	n := runtime.Callers(3, pcs[:])
	frames := runtime.CallersFrames(pcs[:n])
	var src *sim.Source
	for {
		f, more := frames.Next()
		if fn, ok := strings.CutPrefix(f.Function, concurrencyPkg); ok {
			site := sim.Site{File: codeDir + "/" + path.Base(f.File), Line: f.Line, Func: fn}
			switch {
			case src == nil:
				src = &sim.Source{Site: site}
			case len(src.Via) < 3:
				src.Via = append(src.Via, site)
			}
		}
		if !more {
			return src
		}
	}
}

// keepAliveSite is where a session's keep-alives come from: NewSession's
// call of KeepAlive, whose goroutine in the client library sends them;
// watchSite is waitDelete's Watch on the key before the waiter's, whose
// request the library's watch goroutine sends. Neither is sent on the
// Mutex's stack, so no frame of it is on theirs.
var (
	keepAliveSite = siteOf("session.go", "client.KeepAlive(", "NewSession")
	watchSite     = siteOf("key.go", "client.Watch(", "waitDelete")
)

// siteOf is the line of an embedded file that holds call, in function fn.
func siteOf(file, call, fn string) sim.Site {
	body, err := source.ReadFile("source/" + file + ".txt")
	if err != nil {
		panic(err) // embedded: cannot fail
	}
	for i, line := range strings.Split(string(body), "\n") {
		if strings.Contains(line, call) {
			return sim.Site{File: codeDir + "/" + file, Line: i + 1, Func: fn}
		}
	}
	panic("etcd: " + file + " has no " + call)
}
