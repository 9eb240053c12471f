package server

import (
	"time"

	"github.com/lockstep/lockstep/internal/scenario"
)

// Limits cap what the server and each session may use. A zero field takes
// its documented default. The caps on a scenario (clients, nodes, horizon,
// steps) default to the scenario package's limits, which are also their
// maxima: a server may lower them, never raise them. A request beyond a cap
// gets an error that names it.
type Limits struct {
	MaxSessions int           `json:"max_sessions"` // live sessions at once; default 500
	MaxClients  int           `json:"max_clients"`  // clients per scenario; default and maximum scenario.MaxClients
	MaxNodes    int           `json:"max_nodes"`    // nodes per scenario; default and maximum scenario.MaxNodesPerScenario
	MaxSteps    int           `json:"max_steps"`    // engine steps per session; default 50000, at most scenario.MaxSteps
	MaxHorizon  time.Duration `json:"max_horizon"`  // virtual time per run; default and maximum scenario.MaxHorizon
	MaxSpeed    float64       `json:"max_speed"`    // play speed in steps per second; default 1000
	Idle        time.Duration `json:"idle"`         // a session without a browser is evicted after; default 30m
	SendQueue   int           `json:"-"`            // messages queued per connection; default 64
	// MaxSessionMemory is a session's memory budget in bytes, estimated
	// from its world's events and live client threads; default 32 MiB. A
	// scenario that would need more threads is refused at load; a run that
	// grows past it stops with an error naming it.
	MaxSessionMemory int64 `json:"max_session_memory"`
	// MaxMemory is the budget of all sessions together, in bytes; default
	// 512 MiB: their runs, and their comparisons and searches while these
	// run (a search reserves its share at its start: reserveSearch). Over it, idle sessions (no socket) are evicted, the longest
	// idle first; if that is not enough, the run that grew stops with an
	// error naming it.
	MaxMemory int64 `json:"max_memory"`
	// Classes (internal/class): live classes at once (default 50), opened from
	// one client address (default 10: a school's classes behind its one
	// address), students in one (default 400), and how long a class
	// outlives its teacher's socket (default 5m; a class nobody has joined,
	// EmptyClassGrace, default 15s: time for the teacher's page to reload).
	MaxRooms           int           `json:"max_classes"`
	MaxRoomsPerAddress int           `json:"max_classes_per_address"`
	MaxClassSize       int           `json:"max_class_size"`
	ClassGrace         time.Duration `json:"class_grace"`
	EmptyClassGrace    time.Duration `json:"empty_class_grace"`

	// Per client address (the peer's IP; behind a trusted proxy, the
	// address it forwards): WebSockets open at once (default 128),
	// sessions made (default 128; at the cap, the address's own longest
	// idle session without a socket makes room) and searches running
	// (default 1). A classroom behind one NAT address shares them.
	MaxSocketsPerAddress  int `json:"max_sockets_per_address"`
	MaxSessionsPerAddress int `json:"max_sessions_per_address"`
	MaxSearchesPerAddress int `json:"max_searches_per_address"`
	// MaxFiles is the process's limit of open files (RLIMIT_NOFILE), 0 if
	// unknown. With it, the server keeps a reserve of descriptors for
	// /healthz, the page and new users: WebSockets stop at MaxFiles minus
	// the reserve, and any connection (Listen) a little later, so the
	// accept loop never runs out.
	MaxFiles int `json:"-"`

	// MaxFileSize and MaxMessage tell the page the largest scenario file
	// (scenario.MaxFileSize) and the largest message (readLimit) the server
	// takes; they are fixed, whatever is set.
	MaxFileSize int `json:"max_file_size"`
	MaxMessage  int `json:"max_message"`
}

// fileReserve is how many descriptors the server keeps free of WebSockets
// with n open files allowed: a quarter, at most 256.
func fileReserve(n int) int { return min(n/4, 256) }

// maxSockets is the most WebSockets open at once (0: no limit but the
// addresses').
func (l Limits) maxSockets() int {
	if l.MaxFiles <= 0 {
		return 0
	}
	return l.MaxFiles - fileReserve(l.MaxFiles)
}

// maxConns is the most connections (WebSockets and plain HTTP) open at
// once: past it, Listen closes a new one as it accepts it (0: no limit).
func (l Limits) maxConns() int {
	if l.MaxFiles <= 0 {
		return 0
	}
	return l.MaxFiles - fileReserve(l.MaxFiles)/4
}

// maxConnsPerAddress is the most connections one address may hold: its
// sockets, and a browser's few for the page's files.
func (l Limits) maxConnsPerAddress() int { return l.MaxSocketsPerAddress + 16 }

// MinSpeed is the slowest play speed, in steps per second: one step every
// ten seconds.
const MinSpeed = 0.1

// readLimit is the largest message a browser may send: a share link's
// load, with a scenario file of the largest size allowed, the most
// recorded actions a run may replay (scenario.MaxSchedule, each at most
// actionBytes of JSON: {"step":49999,"do":"step","client":NAME}), and room
// for the rest of the request. docs/protocol.md (Size) says it once.
const readLimit = scenario.MaxFileSize + scenario.MaxSchedule*actionBytes + 64<<10

// actionBytes is room for one recorded action in JSON.
const actionBytes = 80

func (l Limits) withDefaults() Limits {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&l.MaxSessions, 500)
	def(&l.MaxClients, scenario.MaxClients)
	def(&l.MaxNodes, scenario.MaxNodesPerScenario)
	l.MaxClients = min(l.MaxClients, scenario.MaxClients)
	l.MaxNodes = min(l.MaxNodes, scenario.MaxNodesPerScenario)
	if l.MaxSteps <= 0 {
		l.MaxSteps = 50000
	}
	l.MaxSteps = min(l.MaxSteps, scenario.MaxSteps)
	def(&l.SendQueue, 64)
	if l.MaxHorizon <= 0 || l.MaxHorizon > scenario.MaxHorizon {
		l.MaxHorizon = scenario.MaxHorizon
	}
	if l.MaxSpeed <= 0 {
		l.MaxSpeed = 1000
	}
	if l.MaxSessionMemory <= 0 {
		l.MaxSessionMemory = 32 << 20
	}
	if l.MaxMemory <= 0 {
		l.MaxMemory = 512 << 20
	}
	def(&l.MaxRooms, 50)
	def(&l.MaxClassSize, 400)
	def(&l.MaxRoomsPerAddress, 10)
	if l.ClassGrace <= 0 {
		l.ClassGrace = 5 * time.Minute
	}
	if l.EmptyClassGrace <= 0 {
		l.EmptyClassGrace = 15 * time.Second
	}
	l.EmptyClassGrace = min(l.EmptyClassGrace, l.ClassGrace)
	if l.Idle <= 0 {
		l.Idle = 30 * time.Minute
	}
	def(&l.MaxSocketsPerAddress, 128)
	def(&l.MaxSessionsPerAddress, 128)
	def(&l.MaxSearchesPerAddress, 1)
	l.MaxFileSize, l.MaxMessage = scenario.MaxFileSize, readLimit
	return l
}
