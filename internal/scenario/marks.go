package scenario

import (
	"slices"

	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/sim"
)

// lockSteps are the marks every request of a lock writes around its task.
var lockSteps = []string{sim.MarkAcquired, sim.MarkEnter, sim.MarkLeave, sim.MarkReleased,
	sim.MarkReleaseRefused, sim.MarkReleaseFailed, sim.MarkGaveUp}

// taskMarks are the marks each task writes.
var taskMarks = map[string][]string{
	"":          {sim.MarkRead, sim.MarkDeduct, "sold-out"},
	TaskDeduct:  {sim.MarkRead, sim.MarkDeduct, "sold-out"},
	TaskWrite:   {"wrote", "write-rejected"},
	TaskList:    {"listed"},
	TaskBuy:     {"bought", "missed", "empty"},
	TaskBuyItem: {"bought", "missed", "empty", sim.MarkGaveUp, sim.MarkReleaseFailed},
}

// MarksOf lists the mark names client c of scenario s can write: its algorithm's own
// (lock.Info.Marks), the lock steps of a request when it runs a lock
// (reenter with reentry above 1, kept with keep_lock), its task's, and a
// pool's dispatch. A fault or a line on any other mark of c never fires.
// A test runs the catalog and a generated corpus and finds every mark a
// client wrote in this list.
func MarksOf(s *Scenario, c *Client) []string {
	var out []string
	algo, ok := s.Lookup(c.Algorithm)
	if ok {
		out = append(out, algo.Marks...)
	}
	if ok && !algo.Unguarded && algo.NewOptimistic == nil && c.Task != TaskBuyItem {
		out = append(out, lockSteps...)
		if c.Reentry > 1 {
			out = append(out, sim.MarkReenter)
		}
		if c.KeepLock {
			out = append(out, sim.MarkKept)
		}
	}
	out = append(out, taskMarks[c.Task]...)
	if c.Threads > 0 {
		out = append(out, "dispatch")
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// AllMarks lists every mark name some client can write: MarksOf over every
// catalog algorithm, with every task, a pool, re-entry and a kept lock (a
// scenario's own locks write the lock steps, which are among them).
func AllMarks() []string {
	var out []string
	catalog := &Scenario{}
	for _, id := range lock.IDs() {
		for _, task := range []string{"", TaskWrite, TaskNone, TaskList, TaskBuy, TaskBuyItem} {
			out = append(out, MarksOf(catalog, &Client{Algorithm: id, Task: task, Threads: 2, Reentry: 2, KeepLock: true})...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// namedKinds are the event kinds that carry a name a match's name: can
// select: a mark's, a fault's, a verdict's, a say's, a lost message's, an
// error's.
var namedKinds = []sim.Kind{sim.KindMark, sim.KindFault, sim.KindVerdict, sim.KindSay, sim.KindLost, sim.KindError}

// faultNames are the names of fault events: the fault kinds, and the
// ends the engine logs (a pause's resume).
func faultNames() []string {
	var out []string
	for _, k := range sim.FaultKinds {
		out = append(out, string(k))
	}
	return append(out, sim.ResumeEvent)
}

// sayNames are the names of say events the engine writes beside a lesson's
// own lines (which have none).
var sayNames = []string{"off-script", "story"}

// lostNames are the names of lost events: a request lost on the wire, a
// reply, a request to a node that is down.
var lostNames = []string{"request", "reply", "refused"}

// errorNames are the names of error events: a real Redis server that
// stopped answering.
var errorNames = []string{"server-lost"}

// EventNames lists the names events of kind k can carry, for every kind
// but marks (whose names depend on the client: MarksOf): a fault's, a
// verdict's, a say's, a lost message's, an error's. Other kinds have none.
func EventNames(k sim.Kind) []string {
	switch k {
	case sim.KindLost:
		return lostNames
	case sim.KindError:
		return errorNames
	case sim.KindFault:
		return faultNames()
	case sim.KindVerdict:
		return sim.Verdicts
	case sim.KindSay:
		return sayNames
	}
	return nil
}
