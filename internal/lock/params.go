package lock

import (
	"fmt"
	"time"
)

// ParamKind is the type of an algorithm parameter.
type ParamKind string

// Parameter types.
const (
	Dur   ParamKind = "duration"
	Int   ParamKind = "int"
	Float ParamKind = "float"
	Bool  ParamKind = "bool"
	Str   ParamKind = "string"
)

// Param describes one parameter a scenario may set.
type Param struct {
	Name    string
	Kind    ParamKind
	Default any // time.Duration, int, float64, bool or string
	Doc     string
	OneOf   []string // a string parameter's only values (nil: any)
}

// Info describes one algorithm of the catalog.
type Info struct {
	ID        string
	Row       int     // the row of the lesson catalog
	Title     string  // short English title
	Seed      string  // source document and section (a section titled in Chinese: its title, from the catalogue)
	Flaw      string  // the lesson, in one sentence
	Params    []Param // what a scenario may set: derived from the algorithm's options
	Nodes     int     // masters it needs (0: one)
	Unguarded bool    // no lock at all: the workload runs without a critical section
	// Library is the upstream code the algorithm runs (rows 18-19: a
	// library run as it is); nil for the catalog's re-implementations.
	Library *Library
	// CompareParams, when set, gives the parameters that make the
	// algorithm take a lease of lease and wait retry between tries until
	// it gets the lock, as the catalog's rows do, under its own names, for
	// setting it beside them (the report card); nil: its ttl and retry
	// parameters, where it has them. The libraries keep their own names
	// (expiry, retry_delay, backoff) and give up sooner by default.
	CompareParams func(lease, retry time.Duration) map[string]any
	// CompareNodes is how many masters it runs on beside the others, when
	// more than it needs (redsync runs on one node, but its claim is
	// Redlock's, on several).
	CompareNodes int
	// SQL says it runs on the scenario's SQL database (the service "db"),
	// not on Redis; that database's cleanup job, when it runs, frees its
	// stuck rows.
	SQL bool
	// Replica says it is about a master and its replica: a scenario shows
	// it with a node that is replica_of its master.
	Replica bool
	// Fencing says it draws fencing tokens for a storage to check.
	Fencing bool
	// Quorum, when set, gives on how many of masters serving nodes a
	// client with options o (from Decode) must hold its key to hold the
	// lock (nil: on one).
	Quorum func(o Options, masters int) int
	New    func(c Config) Locker
	// NewOptimistic builds the algorithm as what it really is when it
	// guards a read-modify-write without a lock (row 3's WATCH): the
	// caller hands it the keys and the body. Nil for the locks.
	NewOptimistic func(c Config) Optimistic
	// Recovery, when set, says what a live client of the algorithm, with
	// options o (from Decode), does to a lock key it finds stuck — no
	// expiry, its holder gone: the keys it frees (takes over, or gives an
	// expiry), by type and value. A nil result, or a nil Recovery: it
	// leaves every stuck key alone.
	Recovery func(o Options) func(typ, value string) bool
	// LeaseInValue says the lock's lease lives in its key's value (an
	// expiry timestamp), not in a TTL: every client of the algorithm, one
	// that comes later too, takes over a key whose lease has passed, by
	// the algorithm itself, not by an option. A key of it that Recovery
	// frees is then no deadlock whoever is live at the horizon, as a key
	// with a TTL is none: its lease ends.
	LeaseInValue bool
	// FlawAfter are the commands right after whose run on a node (before
	// the client has the reply) the algorithm's known flaw shows, if a
	// client is stopped there: SETNX before its EXPIRE, the GET before
	// the DEL that trusts it, a Redlock vote before the quorum is counted.
	// A search that places a client's fault only at chosen marks (the
	// report card's pause and crash columns) places it there too.
	FlawAfter []string
	// Marks are the marks the algorithm's own code writes (Config.mark),
	// besides the lock steps every request writes: a scenario's fault or
	// line on another mark of a client running it can never fire.
	Marks []string

	// defaults gives a fresh copy of the algorithm's typed options with
	// its row's defaults (nil: the algorithm has no parameters).
	defaults func() Options
}

// Param returns the named parameter's description.
func (a *Info) Param(name string) (Param, bool) {
	for _, p := range a.Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// convert checks a raw value against a parameter kind and gives it as that
// kind's Go type.
func convert(kind ParamKind, v any) (any, error) {
	switch kind {
	case Dur:
		switch x := v.(type) {
		case time.Duration:
			return x, nil
		case int, int64, uint64, float64:
			if isZero(x) {
				return time.Duration(0), nil // 0 needs no unit, as a scenario's own durations
			}
		case string:
			d, err := time.ParseDuration(x)
			if err != nil {
				return nil, fmt.Errorf("bad duration %q (write e.g. 3s or 150ms)", x)
			}
			if d < 0 {
				return nil, fmt.Errorf("negative duration %q", x)
			}
			return d, nil
		}
	case Int:
		switch x := v.(type) {
		case int:
			return x, nil
		case int64:
			return int(x), nil
		case uint64:
			return int(x), nil
		case float64:
			if x == float64(int(x)) {
				return int(x), nil
			}
		}
	case Float:
		switch x := v.(type) {
		case float64:
			return x, nil
		case int:
			return float64(x), nil
		case int64:
			return float64(x), nil
		}
	case Bool:
		if b, ok := v.(bool); ok {
			return b, nil
		}
	case Str:
		if s, ok := v.(string); ok {
			return s, nil
		}
	}
	return nil, fmt.Errorf("want a %s, got %v", kind, v)
}

// isZero says whether a number decoded from YAML or JSON is zero.
func isZero(v any) bool {
	switch x := v.(type) {
	case int:
		return x == 0
	case int64:
		return x == 0
	case uint64:
		return x == 0
	case float64:
		return x == 0
	}
	return false
}
