package userlock

import (
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockstep/lockstep/internal/lock"
)

// Spec is one declared lock, its values read and checked.
type Spec struct {
	Name   string
	Source string // where it comes from: an issue thread, a file
	// Key, TTL and Retry are the defaults of its parameters key, ttl and
	// retry, which a client's params may change like a catalog lock's.
	Key   string
	TTL   time.Duration
	Retry time.Duration
	// RetryJitter and AcquireTimeout complete the retry (Backoff).
	RetryJitter    time.Duration
	AcquireTimeout time.Duration
	// Params are its own further parameters, with their defaults, each
	// written $name in its steps.
	Params []lock.Param

	Acquire Step
	Release Step
	Extend  *Step         // nil: no extend
	Every   time.Duration // the extend's period
	// Fencing, when set, is a command run after each acquire whose integer
	// reply is the new lease's fencing token.
	Fencing []string
}

// Step is one operation of the lock: commands sent one after another, or
// one Lua script.
type Step struct {
	Commands []Command
	Lua      string
	Keys     []string // the script's KEYS
	Args     []string // the script's ARGV
	// Watch are keys WATCHed before the commands, which then run on one
	// connection; MULTI … EXEC among them is one transaction, which a
	// change to a watched key discards (the step fails).
	Watch []string
	// OK is the script's reply that means success (Reply's form); "":
	// any reply but an error.
	OK string
	// Line is where the step's script starts in the scenario file (its
	// first line), for the code view; 0: unknown.
	Line int
}

// Command is one command of a step: its arguments and, when OK is set,
// the reply without which the step stops and fails.
type Command struct {
	Args []string
	OK   string
	Line int // where it is written in the scenario file; 0: unknown
}

// Scripted reports whether the step is a Lua script.
func (s *Step) Scripted() bool { return s.Lua != "" }

// ScriptNames names each of the lock's scripts by its SHA1, as the
// timeline shows an EVAL or EVALSHA of it: my-lock.acquire.lua.
func (s *Spec) ScriptNames() map[string]string {
	out := map[string]string{}
	for name, st := range map[string]*Step{"acquire": &s.Acquire, "release": &s.Release, "extend": s.Extend} {
		if st != nil && st.Scripted() {
			out[redis.NewScript(st.Lua).Hash()] = s.Name + "." + name + ".lua"
		}
	}
	return out
}
