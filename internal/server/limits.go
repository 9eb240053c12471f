package server

import "time"

// Limits cap what the server and each session may use. A zero field takes
// its documented default; a request beyond a cap gets an error that names it.
type Limits struct {
	MaxSessions int           `json:"max_sessions"` // live sessions at once; default 200
	MaxClients  int           `json:"max_clients"`  // clients per scenario; default 64
	MaxNodes    int           `json:"max_nodes"`    // nodes per scenario; default 16
	MaxSteps    int           `json:"max_steps"`    // engine steps per session; default 50000
	MaxHorizon  time.Duration `json:"max_horizon"`  // virtual time per run; default 10m
	MaxSpeed    float64       `json:"max_speed"`    // play speed in steps per second; default 1000
	Idle        time.Duration `json:"idle"`         // a session without a browser is evicted after; default 30m
	SendQueue   int           `json:"-"`            // messages queued per connection; default 64
}

// MinSpeed is the slowest play speed, in steps per second: one step every
// ten seconds.
const MinSpeed = 0.1

// readLimit is the largest message a browser may send.
const readLimit = 64 << 10

func (l Limits) withDefaults() Limits {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&l.MaxSessions, 200)
	def(&l.MaxClients, 64)
	def(&l.MaxNodes, 16)
	def(&l.MaxSteps, 50000)
	def(&l.SendQueue, 64)
	if l.MaxHorizon <= 0 {
		l.MaxHorizon = 10 * time.Minute
	}
	if l.MaxSpeed <= 0 {
		l.MaxSpeed = 1000
	}
	if l.Idle <= 0 {
		l.Idle = 30 * time.Minute
	}
	return l
}
