package sim

import (
	"path"
	"runtime"
	"strings"
	"sync"
)

// Source is where a client's command came from: the line of the lock code
// that issued it, found on the call stack when the command reaches the
// engine, and for a Lua script, the commands the script ran on the node.
// It rides beside the event (Event.Src) and never enters its text form:
// a golden log does not change when the lock code moves a line.
type Source struct {
	File  string   `json:"file"`            // the file within the traced package: reentrant.go
	Line  int      `json:"line"`            // its line
	Func  string   `json:"func,omitempty"`  // the function: (*Reentrant).Lock
	Calls []string `json:"calls,omitempty"` // exec of EVAL/EVALSHA: the redis.call commands the script ran, in order
}

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
func (w *World) TraceSource(pkg string) { w.srcPkg = pkg + "." }

// callSite finds the innermost frame of the traced package on the calling
// goroutine's stack, or nil.
func (w *World) callSite() *Source {
	if w.srcPkg == "" {
		return nil
	}
	var pcs [48]uintptr
	n := runtime.Callers(3, pcs[:])
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		if fn, ok := strings.CutPrefix(f.Function, w.srcPkg); ok && !strings.Contains(fn, "/") {
			return internSource(Source{File: path.Base(f.File), Line: f.Line, Func: fn})
		}
		if !more {
			return nil
		}
	}
}

// sources holds one Source per call site, shared by every event issued
// there (events never modify it).
var sources sync.Map // siteKey -> *Source

// siteKey is a call site as a map key.
type siteKey struct {
	file, fn string
	line     int
}

func internSource(s Source) *Source {
	k := siteKey{s.File, s.Func, s.Line}
	if v, ok := sources.Load(k); ok {
		return v.(*Source)
	}
	v, _ := sources.LoadOrStore(k, &s)
	return v.(*Source)
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
// tell; the function it returns gives the request's source with them.
func (w *World) traceScript(req *request) func() *Source {
	if req.src == nil || len(req.args) != 1 || len(req.args[0]) == 0 || !isEval(req.args[0][0]) {
		return func() *Source { return req.src }
	}
	tr, ok := req.node.b.(ScriptTracer)
	if !ok {
		return func() *Source { return req.src }
	}
	stop := tr.TraceScript()
	return func() *Source { return withCalls(req.src, stop()) }
}
