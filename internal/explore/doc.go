// Package explore searches the schedules of a scenario for one that breaks
// its lock, and shrinks what it finds to a short schedule that any run of
// the engine replays exactly.
//
// A schedule is the list of choices the engine would otherwise make alone:
// which client moves next when several are due (ties, or moves within the
// search's window of each other), and where the scenario's fault budget is
// spent (a pause, a crash, a lost request or reply right after a client
// acted; a node crash or clock jump right after a node ran a command).
// Every choice is written as an ordinary schedule entry (scenario.Action):
// a manual step of a client, or a fault at an engine step. The search runs
// worlds with no event log and no narration (lesson.Config.Quiet) and reads
// only their verdicts; the winner is replayed with everything on through
// lesson.Session, the path the browser and recordings use.
//
// Three strategies: a seeded random walk, PCT (priority change points,
// Burckhardt et al. 2010) and a bounded exhaustive search that visits every
// schedule once up to commuting moves (sleep sets: commands due at the
// same instant on different nodes, or on disjoint keys of one node,
// commute), which can conclude that no schedule within the bound breaks
// the lock. The search is deterministic for a given seed; wall-clock limits
// come from the caller's context only.
package explore
