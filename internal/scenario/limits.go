package scenario

import "time"

// Limits on what one scenario file may hold and one run may do. They keep
// hostile or careless input (a YAML bomb, a million clients, a ten-hour
// horizon) from costing more than a few milliseconds and a few megabytes to
// reject. Every limit breached is reported as an error at the place it is
// breached. These are the only maxima: the server (server.Limits) may set
// lower caps, never higher ones.
const (
	// MaxFileSize is the largest scenario file accepted, in bytes, the
	// built-in catalog included (a copy of it, edited, still checks). It is
	// checked before anything is parsed.
	MaxFileSize = 128 << 10

	// MaxDepth is the deepest nesting of YAML collections accepted. The
	// deepest a valid file needs is 6 (scenarios, a scenario, faults, a
	// fault, on, its fields).
	MaxDepth = 20

	// MaxNodes is the largest number of YAML nodes (scalars, lists and
	// maps, keys included) in one file.
	MaxNodes = 20000

	// MaxScenarios is the largest number of scenarios in one file.
	MaxScenarios = 200

	// MaxLocks is the largest number of locks one scenario declares.
	MaxLocks = 16

	// MaxClients is the largest number of clients in one scenario.
	MaxClients = 16

	// MaxNodesPerScenario is the largest number of Redis nodes in one
	// scenario.
	MaxNodesPerScenario = 9

	// MaxFaults is the largest number of faults in one scenario.
	MaxFaults = 64

	// MaxNarration is the largest number of narration entries in one
	// scenario.
	MaxNarration = 64

	// MaxRequests is the largest number of requests one client may make.
	MaxRequests = 1000

	// MaxThreads is the largest worker pool one client may have.
	MaxThreads = 64

	// MaxSchedule is the largest number of recorded actions in a schedule.
	MaxSchedule = 10000

	// MaxSteps is the most engine steps one run takes: a run still going
	// after it stops there, and says so (visualizer run prints it; the
	// browser's sessions may have a lower cap).
	MaxSteps = 100000

	// MaxHorizon is the longest horizon a scenario may ask for.
	MaxHorizon = 10 * time.Minute

	// MaxDuration is the longest any single duration (work, for, by,
	// start, latency, ...) may be, in either direction.
	MaxDuration = 10 * time.Minute

	// MaxReported is the most problems reported for one file (or one list
	// of recorded actions); the rest are counted in one last line.
	MaxReported = 20

	// DefaultHorizon is the horizon of a scenario that sets none.
	DefaultHorizon = 30 * time.Second
)
