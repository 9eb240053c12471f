package scenario

import (
	"slices"
	"time"

	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/userlock"
)

// Lock is a lock the scenario declares of its own (its locks: section),
// which its clients name as their algorithm as they name a catalog lock:
// its acquire, release and optional extend, each a list of commands or a
// Lua script, with placeholders ($key, $token, $ttl, $ttl_s and $name of
// its own params), the replies that mean success, and its retry. It runs
// as written (internal/userlock) and is judged as any lock is: by the
// writes its commands make and the replies it takes for success.
type Lock struct {
	Name   string `yaml:"name" json:"name"`
	Source string `yaml:"source,omitempty" json:"source,omitempty"` // where it comes from: an issue thread, a file
	Key    string `yaml:"key,omitempty" json:"key,omitempty"`       // the lock key, $key (default lock)
	// TTL is the lease, $ttl in milliseconds and $ttl_s in seconds
	// (default 1s).
	TTL            Duration       `yaml:"ttl,omitempty" json:"ttl,omitempty"`
	Retry          Duration       `yaml:"retry,omitempty" json:"retry,omitempty"`                     // the wait between acquire attempts (default 100ms)
	RetryJitter    Duration       `yaml:"retry_jitter,omitempty" json:"retry_jitter,omitempty"`       // a random extra wait in [0, retry_jitter)
	AcquireTimeout Duration       `yaml:"acquire_timeout,omitempty" json:"acquire_timeout,omitempty"` // give up after this long (default: never)
	Params         map[string]any `yaml:"params,omitempty" json:"params,omitempty"`                   // its own parameters, $name, with their defaults
	Acquire        *LockStep      `yaml:"acquire" json:"acquire"`
	Release        *LockStep      `yaml:"release" json:"release"`
	Extend         *LockStep      `yaml:"extend,omitempty" json:"extend,omitempty"` // run every `every` while the lock is held
	// Fencing is a command run after each acquire whose integer reply is
	// the lease's fencing token, e.g. [INCR, $key:token].
	Fencing []string `yaml:"fencing,omitempty" json:"fencing,omitempty"`
}

// LockStep is one operation of a declared lock: commands sent one after
// another, or one Lua script with its KEYS and ARGV.
type LockStep struct {
	Commands []LockCommand `yaml:"commands,omitempty" json:"commands,omitempty"`
	// Watch are keys WATCHed before the commands, which then share one
	// connection; MULTI … EXEC among them is one transaction, discarded
	// (the step fails) when a watched key changed.
	Watch []string `yaml:"watch,omitempty" json:"watch,omitempty"`
	Lua   string   `yaml:"lua,omitempty" json:"lua,omitempty"`
	Keys  []string `yaml:"keys,omitempty" json:"keys,omitempty"`
	Args  []string `yaml:"args,omitempty" json:"args,omitempty"`
	// OK is the script's reply that means success: an integer, a string,
	// nil for the nil reply (default: any reply but an error).
	OK    string   `yaml:"ok,omitempty" json:"ok,omitempty"`
	Every Duration `yaml:"every,omitempty" json:"every,omitempty"` // the extend's period (default ttl/3)
}

// LockCommand is one command of a step and, with ok:, the reply without
// which the step stops there and fails.
type LockCommand struct {
	Run []string `yaml:"run" json:"run"`
	OK  string   `yaml:"ok,omitempty" json:"ok,omitempty"`
}

// The defaults of a declared lock.
const (
	DefaultLockKey   = "lock"
	DefaultLockTTL   = time.Second
	DefaultLockRetry = 100 * time.Millisecond
)

// Lookup is the scenario's resolver of algorithm names: its own locks
// first, then the catalog's (lock.Lookup).
func (s *Scenario) Lookup(name string) (*lock.Info, bool) {
	for i := range s.Locks {
		if s.Locks[i].Name == name {
			return userlock.Declare(s.Locks[i].Spec()), true
		}
	}
	return lock.Lookup(name)
}

// AlgorithmIDs lists the names a client may give as its algorithm: the
// scenario's own locks, then the catalog's.
func (s *Scenario) AlgorithmIDs() []string {
	var out []string
	for _, l := range s.Locks {
		out = append(out, l.Name)
	}
	return append(out, lock.IDs()...)
}

// Own reports whether name is one of the scenario's own locks.
func (s *Scenario) Own(name string) (*Lock, bool) {
	for i := range s.Locks {
		if s.Locks[i].Name == name {
			return &s.Locks[i], true
		}
	}
	return nil, false
}

// Spec is the declared lock as internal/userlock runs it, defaults filled.
func (l *Lock) Spec() *userlock.Spec {
	s := &userlock.Spec{Name: l.Name, Source: l.Source, Key: l.Key, TTL: l.TTL.D(), Retry: l.Retry.D(),
		RetryJitter: l.RetryJitter.D(), AcquireTimeout: l.AcquireTimeout.D(), Params: l.params(), Fencing: l.Fencing}
	if s.Key == "" {
		s.Key = DefaultLockKey
	}
	if s.TTL <= 0 {
		s.TTL = DefaultLockTTL
	}
	if s.Retry <= 0 {
		s.Retry = DefaultLockRetry
	}
	s.Acquire, s.Release = l.Acquire.spec(), l.Release.spec()
	if l.Extend != nil {
		ext := l.Extend.spec()
		s.Extend, s.Every = &ext, l.Extend.Every.D()
	}
	return s
}

// Code is the lock's code as the code view shows it, by the path the view
// asks for: its declaration (locks/<name>.yaml, userlock.Spec.Code) and
// each of its scripts (scripts/<name>.<step>.lua).
func (l *Lock) Code() map[string]string {
	sp := l.Spec()
	out := map[string]string{sp.File(): sp.Code()}
	for name, st := range map[string]*userlock.Step{"acquire": &sp.Acquire, "release": &sp.Release, "extend": sp.Extend} {
		if st != nil && st.Scripted() {
			out[sp.ScriptFile(name)] = st.Lua
		}
	}
	return out
}

func (st *LockStep) spec() userlock.Step {
	if st == nil {
		return userlock.Step{}
	}
	out := userlock.Step{Lua: st.Lua, Keys: st.Keys, Args: st.Args, OK: st.OK, Watch: st.Watch}
	for _, c := range st.Commands {
		out.Commands = append(out.Commands, userlock.Command{Args: c.Run, OK: c.OK})
	}
	return out
}

// params are the lock's own parameters, each of the kind its default
// has: a duration (written 3s), an integer, a number, true or false, or a
// string.
func (l *Lock) params() []lock.Param {
	var out []lock.Param
	for _, name := range sortedKeys(l.Params) {
		v := l.Params[name]
		p := lock.Param{Name: name, Kind: lock.Str, Default: v, Doc: "a parameter of " + l.Name}
		switch x := v.(type) {
		case int:
			p.Kind = lock.Int
		case float64:
			p.Kind = lock.Float
		case bool:
			p.Kind = lock.Bool
		case string:
			if d, err := parseDuration(x); err == nil && x != "0" && d >= 0 {
				p.Kind, p.Default = lock.Dur, d.D()
			}
		default:
			p.Default = ""
		}
		out = append(out, p)
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
