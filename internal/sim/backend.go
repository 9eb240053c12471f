package sim

import (
	"errors"
	"net"
	"time"
)

// Backend is the Redis server behind a node: embedded miniredis (package
// embedded) or a real redis-server (package realredis). The
// engine sends the clients' commands over connections from Dial, one at a
// time, and reads key state through the other methods, which the clients
// never see. One contract test suite runs against every backend.
type Backend interface {
	// Dial opens a new client connection, ready for commands.
	Dial() (net.Conn, error)
	// SetClock sets the server's clock to t before a command runs. A real
	// server keeps its own clock and ignores it.
	SetClock(t time.Time)
	// Prefix is put before every key the clients' commands name ("" for
	// none). Every other method takes and gives keys without it.
	Prefix() string
	// Read gives the state of a key.
	Read(key string) (Stored, error)
	// Keys lists the keys present, sorted.
	Keys() ([]string, error)
	// Set writes a string key without a TTL (initial data).
	Set(key, value string) error
	// Flush removes every key (a restart without persistence).
	Flush() error
	// JumpClock moves the server's clock by d, keeping each key's absolute
	// expiry time, as a real server's clock jump would. A real server
	// cannot do this on request: it returns ErrUnavailable.
	JumpClock(d time.Duration) error
	// Close releases the server (or the connections to it).
	Close() error
}

// Stored is the state of one key as a backend reads it.
type Stored struct {
	Type   string      // "string", "hash", ...; "" when the key does not exist
	Value  string      // a string's value
	Fields [][2]string // a hash's fields and values, sorted by field
	Expire time.Time   // on the server's clock, the first instant the key is gone; zero: no TTL
}

// ErrUnavailable is what a backend returns for what its kind of server
// cannot do on request (a real server's clock does not jump).
var ErrUnavailable = errors.New("sim: unavailable on a real server")

// Loser is implemented by a backend on a server that can stop answering
// (a real redis-server): Lost says why once it has (a connection refused,
// cut or timed out), nil until then. The world then ends the run with an
// error event (KindError) before its next step: nothing advances silently
// on a server that is gone.
type Loser interface {
	Lost() error
}

// Pacer ties the virtual clock to an outside clock (a real server's). The
// engine calls Wait before it processes anything due at virtual time t. A
// world without a pacer (embedded Redis) never waits.
type Pacer interface {
	// Wait blocks until the outside clock reaches virtual time t, and
	// returns the outside clock's virtual time then: t, or later when the
	// engine is behind.
	Wait(t time.Duration) time.Duration
	// Precision is how close two moments the outside clock can tell apart
	// (a real server's: 1ms). A command due that close before a key's
	// expiry lets the expiry happen first, so that the log never shows a
	// key vanish without its expiry.
	Precision() time.Duration
	// Epoch is the outside clock's moment of virtual time 0. It is asked
	// each time it is needed: an outside clock may start only when the
	// run makes its first move.
	Epoch() time.Time
}

// KeyRecorder is implemented by a backend that wants to hear of every key
// the clients' commands name (without the prefix), so that it can list and
// remove a session's keys without scanning a shared server.
type KeyRecorder interface {
	Record(key string)
}

// Handshaker is implemented by a backend whose Dial sends commands of its
// own on a new connection (AUTH, SELECT): Handshake gives them as the
// server's MONITOR shows them, secrets redacted, for the exec event's note.
type Handshaker interface {
	Handshake() []string
}

// Replicator is implemented by a master's backend whose server replicates
// to a replica's server by itself (redis-server processes under REPLICAOF,
// package realredis). The engine then copies no writes: Redis streams them,
// and the engine decides when the stream reaches the replica.
type Replicator interface {
	// ReplicaLink is the link to replica's server, if this server is its
	// master.
	ReplicaLink(replica Backend) (ReplicaLink, bool)
}

// ReplicaLink is a real replication link between two servers.
type ReplicaLink interface {
	// Sync waits until the replica has everything so far, then holds the
	// stream back until Deliver.
	Sync() error
	// Offset is the master's replication offset now.
	Offset() (int64, error)
	// Deliver lets the stream reach the replica up to the master's offset
	// target, waits until the replica has applied it, and returns the
	// commands the replica received.
	Deliver(target int64) ([][]string, error)
	// Failover kills the master's server and promotes the replica; what
	// the replica had not received is lost, and returned.
	Failover() (lost [][]string, err error)
}
