package sim

import (
	"cmp"
	"context"
	"path"
	"runtime"
	"slices"
	"strings"
)

// Source is where a client's command came from: the line of the lock code
// that issued it, found on the call stack when the command reaches the
// engine, and for a Lua script, the commands the script ran on the node.
// It rides beside the event (Event.Src) and never enters its text form:
// a golden log does not change when the lock code moves a line.
type Source struct {
	Site
	Via   []Site   `json:"via,omitempty"`   // the traced package's frames further out, innermost first (a helper's callers)
	Calls []string `json:"calls,omitempty"` // exec of EVAL/EVALSHA: the redis.call commands the script ran, in order
}

// Site is one frame of the traced package: a file within it, a line and
// the function.
type Site struct {
	File string `json:"file"`           // reentrant.go; a library's under its directory: redsync/mutex.go
	Line int    `json:"line"`           // its line
	Func string `json:"func,omitempty"` // (*Reentrant).Lock
}

// maxVia bounds Source.Via.
const maxVia = 4

// ScriptTracer is implemented by a backend that can tell which commands a
// Lua script ran. TraceScript starts recording the commands the server
// dispatches; the function it returns stops and gives them, in order, the
// script's own EVAL or EVALSHA first.
type ScriptTracer interface {
	TraceScript() (stop func() [][]string)
}

// TraceSource makes the world record, on each command's send and exec
// events, the innermost call site in package pkg (an import path such as
// github.com/lockstep/lockstep/internal/lock): frames of go-redis, of the
// engine and of every other package are skipped. The position depends on
// the code alone, never on time or scheduling, so the same run records the
// same positions. Call it before the run starts.
func (w *World) TraceSource(pkg string) { w.TraceSources(map[string]string{pkg: ""}) }

// TraceSources is TraceSource for several packages, each with the
// directory its files are named under in Site.File ("" for none, else
// with a trailing slash: redsync/ makes redsync/mutex.go), so that the
// code of a library and of its caller can be told apart.
func (w *World) TraceSources(dirs map[string]string) {
	w.srcPkgs = w.srcPkgs[:0]
	for pkg, dir := range dirs {
		w.srcPkgs = append(w.srcPkgs, tracedPkg{prefix: pkg + ".", dir: dir})
	}
	// the longest first: a package whose path extends another's is its own
	slices.SortFunc(w.srcPkgs, func(a, b tracedPkg) int {
		return cmp.Or(cmp.Compare(len(b.prefix), len(a.prefix)), strings.Compare(a.prefix, b.prefix))
	})
}

// tracedPkg is a package whose frames are call sites: its import path
// with a trailing dot, and its files' directory.
type tracedPkg struct{ prefix, dir string }

// traced finds the traced package of a frame's function, and the
// function's name within it.
func (w *World) traced(function string) (tracedPkg, string, bool) {
	for _, t := range w.srcPkgs {
		if fn, ok := strings.CutPrefix(function, t.prefix); ok && !strings.Contains(fn, "/") {
			return t, fn, true
		}
	}
	return tracedPkg{}, "", false
}

// callSite finds the frames of the traced packages on the calling
// goroutine's stack, innermost first, or nil when there are none.
func (w *World) callSite() *Source {
	if len(w.srcPkgs) == 0 {
		return nil
	}
	var pcs [64]uintptr
	n := runtime.Callers(3, pcs[:])
	frames := runtime.CallersFrames(pcs[:n])
	var src *Source
	for {
		f, more := frames.Next()
		if t, fn, ok := w.traced(f.Function); ok {
			site := Site{File: t.dir + path.Base(f.File), Line: f.Line, Func: fn}
			switch {
			case src == nil:
				src = &Source{Site: site}
			case len(src.Via) < maxVia:
				src.Via = append(src.Via, site)
			}
		}
		if !more {
			return src
		}
	}
}

// withCalls is the request's source with the commands its script ran:
// the recorded dispatches after the script's own EVAL or EVALSHA (a new
// connection's handshake comes before it).
func withCalls(src *Source, ran [][]string) *Source {
	s := *src
	in := false
	for _, c := range ran {
		switch {
		case len(c) == 0:
		case in:
			s.Calls = append(s.Calls, strings.ToUpper(c[0]))
		case isEval(c[0]):
			in = true
		}
	}
	if len(s.Calls) == 0 {
		return src
	}
	return &s
}

// traceScript starts recording the commands of a single EVAL or EVALSHA
// on its node, when the world records sources and the node's backend can
// tell; the function it returns gives the request's source with them. It
// is nil when nothing is recorded: the source is the request's own.
func (w *World) traceScript(req *request) func() *Source {
	if req.src == nil || len(req.args) != 1 || len(req.args[0]) == 0 || !isEval(req.args[0][0]) {
		return nil
	}
	tr, ok := req.node.b.(ScriptTracer)
	if !ok {
		return nil
	}
	stop := tr.TraceScript()
	return func() *Source { return withCalls(req.src, stop()) }
}

// siteKey carries a call site given by the lock code itself (WithSite).
type siteKey struct{}

// WithSite makes the commands sent with the returned context come from
// line of file, whatever the Go call stack: a lock declared in a scenario
// (internal/userlock) names the lines of its own declaration. Recorded
// only when the world records sources (TraceSources).
func WithSite(ctx context.Context, file string, line int) context.Context {
	return context.WithValue(ctx, siteKey{}, Site{File: file, Line: line})
}

// siteOf is the call site of a command sent with ctx: the one WithSite
// gave, else the traced packages' frames on the stack.
func (w *World) siteOf(ctx context.Context) *Source {
	if s, ok := ctx.Value(siteKey{}).(Site); ok && len(w.srcPkgs) > 0 {
		return &Source{Site: s}
	}
	return w.callSite()
}
