// Package live is the edge between the browser app and a coordination
// service whose lessons run in real time on a live server (etcd today,
// ZooKeeper next) rather than on the engine's virtual clock. The server
// asks a lesson which service it needs and runs it through this
// interface: it never names a service.
package live

import (
	"context"
	"io/fs"
	"time"

	"github.com/lockstep/lockstep/internal/check"
	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/sim"
)

// Lesson describes one lesson of a service for the page's list.
type Lesson struct {
	ID     string
	Title  fact.Text
	Story  fact.Text
	Expect []string // the verdicts its run must end with
	// Expected, when set, is the verdicts a run must end with given its
	// log, for a lesson whose outcome is a race the run names (a server
	// pause): the page shows them once the run has ended, Expect before.
	Expected func(evs []sim.Event) []string
	Clients  []string
	// Needs, when set, says that this machine lacks what the lesson's
	// server needs: Short in a few words for the list ("needs Java"), Say
	// what to install. Found without starting anything.
	Needs *Needs
}

// Needs is what a service's server lacks on this machine.
type Needs struct {
	Short fact.Text
	Say   fact.Text
}

// Service is a coordination service whose lessons run on a live server.
// Its server starts when a run first needs it (Start), not before: a
// page that never opens one of its lessons costs nothing.
type Service interface {
	// Name is the service as the page names it ("etcd").
	Name() string
	// Lessons are its lessons, in the order they teach.
	Lessons() []Lesson
	// Start begins lesson id on the service's server, starting the server
	// first if it is not running. An error says why the server cannot
	// run or the lesson cannot start.
	Start(ctx context.Context, id string) (Run, error)
}

// Run is one lesson playing in real time: its events arrive from the
// service's own goroutines (clients, keep-alives, watches) as they
// happen.
type Run interface {
	// Events is the log so far, in its one order.
	Events() []sim.Event
	// Sections is who came into or left a critical section with event
	// seq, as the run's checker saw it.
	Sections(seq int) check.SectionChange
	// Changed is nudged after events are added (it holds at most one
	// nudge: read Events after it).
	Changed() <-chan struct{}
	// Done is closed when the run has ended and its verdicts are in the
	// log.
	Done() <-chan struct{}
	// Err is what stopped the run early, if anything (after Done).
	Err() error
	// Since is the wall-clock time since the run's start.
	Since() time.Duration
	// Server says where it runs ("embedded etcd v3.7.3 at 127.0.0.1:2379").
	Server() string
	// Stop ends the run early and waits for its goroutines.
	Stop()
}

// Unavailable is a service's error when its server cannot run here, with
// what to do about it in both languages (for ZooKeeper without Java: what
// to install). The page says Say in its language.
type Unavailable struct {
	Err error
	Say fact.Text
}

func (u *Unavailable) Error() string { return u.Err.Error() }

// Unwrap is the cause.
func (u *Unavailable) Unwrap() error { return u.Err }

// Code is what the code view shows of a service's lessons: the files its
// clients' lock code is in, as compiled into this program, served under
// /source/ beside the engine's locks, and the library they belong to.
type Code struct {
	Files fs.FS  // each file under the library's directory: etcd/mutex.go
	File  string // the file a client's lock code starts in
	Dir   string // the library's directory in Files ("etcd")
	// The library, for the view's header.
	Module, Version, License, URL string
}

// Coded is a Service whose lessons show their lock's code, with each
// request's call site in it (the send events' Src).
type Coded interface {
	Code() Code
}
