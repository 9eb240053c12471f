// Package fact holds what an event says in words, as data: a message key
// and the typed fields its sentence is made of (a duration, a fencing
// token, a Redlock vote, the holder of a lock, the reason something
// failed). The engine, the lock code, the services and the lessons record
// facts; the checker and the narration read their fields; and one
// catalogue (catalogue.go's keys, the phrasebooks of words_*.go that pick
// each key's sentence, their words by id in words/*.json) renders each
// fact in English and Chinese. No package reads an event's words back: a
// rewording changes the catalogue and nothing else.
//
// The package is a leaf: it imports only the standard library, so that the
// engine and the lock code, which know nothing of each other, can both
// speak it.
package fact

import (
	"errors"
	"time"
)

// Text is a sentence in English and Chinese.
type Text struct {
	En string `json:"en" yaml:"en"`
	Zh string `json:"zh" yaml:"zh"`
	// Cites are the events the sentence cites by sequence number, as
	// data (see Cited and Seq): nil for most sentences.
	Cites []Cite `json:"-" yaml:"-"`
}

// Fact is what an event says beyond its kind, actor and keys: a message
// Key and the fields its sentence uses (which ones, the catalogue's entry
// for the key says; the rest are zero). Its JSON form is what the page
// and `visualizer run --json` receive.
type Fact struct {
	Key Key `json:"key"`

	// Who and where.
	Client  string   `json:"client,omitempty"`  // a client (or client/thread) named: one that crashed, paused, a partition's other side
	Holder  string   `json:"holder,omitempty"`  // whose lock (or mutex) it is: a key's owner when it expired, a mutex's holder
	Holders []string `json:"holders,omitempty"` // whose locks a cleanup job deleted
	Node    string   `json:"node,omitempty"`    // a node named: where a request went, a master, a replica
	Replica string   `json:"replica,omitempty"` // a replica named beside its master (a failover, a replication link)
	Item    string   `json:"item,omitempty"`    // a market's item
	Thread  string   `json:"thread,omitempty"`  // a pool thread
	Value   string   `json:"value,omitempty"`   // a value read from a key (a lock's timestamp)
	Cmds    []string `json:"cmds,omitempty"`    // commands, as redis-cli shows them (a connection's setup, writes shipped or lost)

	// How long.
	For   time.Duration `json:"for,omitempty"`   // a pause, a restart's delay, a TTL renewed, a replica's lag, a cleanup job's age limit
	By    time.Duration `json:"by,omitempty"`    // a clock jump or skew
	Ago   time.Duration `json:"ago,omitempty"`   // how long ago (a write a replica now applies)
	Until time.Duration `json:"until,omitempty"` // a moment of the run (a pause's end)

	// Numbers.
	Token       int64 `json:"token,omitempty"`       // a fencing token
	Highest     int64 `json:"highest,omitempty"`     // the highest fencing token the storage has seen
	From        int64 `json:"from,omitempty"`        // a counter before a write (the stock)
	To          int64 `json:"to,omitempty"`          // the counter after it
	Hold        int   `json:"hold,omitempty"`        // which hold of a re-entrant lock (1 is the outermost)
	Depth       int   `json:"depth,omitempty"`       // how many holds the request takes
	Tries       int   `json:"tries,omitempty"`       // how many times (EXEC retries)
	Request     int   `json:"request,omitempty"`     // a request of a thread pool, from 1
	Have        int   `json:"have,omitempty"`        // how many have it (replicas that confirmed, writes applied)
	Want        int   `json:"want,omitempty"`        // how many were wanted (replicas asked for, writes shipped)
	Rows        int   `json:"rows,omitempty"`        // rows deleted
	Cutoff      int64 `json:"cutoff,omitempty"`      // a cleanup job's cutoff, created_ms
	Write       int   `json:"write,omitempty"`       // the seq of the write a replica now applies
	Incarnation int   `json:"incarnation,omitempty"` // a restarted client's run, from 1

	Votes *Votes `json:"votes,omitempty"` // a Redlock vote

	// Engine says the engine answered (a WAIT on real Redis, from the
	// replica's confirmed offset); Real says a real redis-server did it
	// (its stream, its process killed).
	Engine bool `json:"engine,omitempty"`
	Real   bool `json:"real,omitempty"`

	// What a fact is about or why: what was lost or not applied, what a
	// cleanup job deleted; the error behind a failure.
	What   *Fact `json:"what,omitempty"`
	Reason *Fact `json:"reason,omitempty"`

	// Text is words from outside the catalogue, shown as they are: the
	// message of an error no fact describes (go-redis's, a panic's).
	Text string `json:"text,omitempty"`
}

// Votes is how one Redlock acquisition went: Yes of Of masters said yes,
// Need were needed, in Elapsed on the client's clock; Validity is what was
// left of the TTL after Elapsed and Drift (validity = ttl - elapsed -
// drift). ReleasedOn says where a failed vote released.
type Votes struct {
	Yes        int           `json:"yes"`
	Of         int           `json:"of"`
	Need       int           `json:"need"`
	Elapsed    time.Duration `json:"elapsed"`
	Validity   time.Duration `json:"validity,omitempty"`
	TTL        time.Duration `json:"ttl,omitempty"`
	Drift      time.Duration `json:"drift,omitempty"`
	ReleasedOn Release       `json:"released_on,omitempty"`
}

// Release is where a failed Redlock vote gives its keys back.
type Release string

// Where a failed vote releases.
const (
	// ReleaseAll: on every master, even those that said no (a yes may
	// have been lost on the way back).
	ReleaseAll Release = "every-master"
	// ReleaseYes: only on the masters that said yes in this vote, because
	// a lease of the same owner is still held on the others.
	ReleaseYes Release = "yes-voters"
)

// New is a fact with only its key.
func New(k Key) *Fact { return &Fact{Key: k} }

// Error is the fact an error states: the fact of an error that carries one
// (the engine's refused connection, say) when its message is exactly that
// fact's, else the error's own message, with the fact of the error inside
// it, if any, as its reason. nil gives nil.
func Error(err error) *Fact {
	if err == nil {
		return nil
	}
	var inner *Fact
	if s := Stater(nil); errors.As(err, &s) {
		inner = s.Fact()
	}
	if inner != nil && inner.Render().En == err.Error() {
		return inner
	}
	return &Fact{Key: Failed, Text: err.Error(), Reason: inner}
}

// Stater is an error that states a fact: Error gives that fact.
type Stater interface {
	error
	Fact() *Fact
}
