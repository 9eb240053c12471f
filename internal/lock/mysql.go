package lock

import (
	"context"
	"time"

	"github.com/lockstep/lockstep/internal/fact"
)

func init() {
	register(typed(&Info{ID: "mysql-unique-key", Row: 17, Title: "MySQL: INSERT a row keyed by the resource; DELETE to unlock", Seed: fact.Say("lock.seed.mysql-unique-key").En,
		Flaw: "a crashed holder's row stays until a cleanup job sweeps it, and the lock is not re-entrant",
		SQL:  true},
		DefaultMySQLOptions, NewMySQLUniqueKey))
}

// MySQLOptions are the options of row 17. Nil options are
// DefaultMySQLOptions.
type MySQLOptions struct {
	// Key is the resource: the row's primary key (default "lock"; 004: the
	// order id).
	Key string
	// Backoff is the wait between attempts (default: retry every 10ms, as
	// 004's Thread.sleep(10), no jitter, no acquire timeout).
	Backoff
}

// DefaultMySQLOptions are the documented defaults of MySQLOptions.
func DefaultMySQLOptions() *MySQLOptions {
	return &MySQLOptions{Key: "lock", Backoff: Backoff{Retry: 10 * time.Millisecond}}
}

func (o *MySQLOptions) fields() []field {
	return []field{
		{"key", &o.Key, "the resource: the row's primary key (004: the order id)"},
		{"retry", &o.Retry, "wait between attempts (004: Thread.sleep(10))"},
		{"retry_jitter", &o.RetryJitter, "extra random wait in [0, retry_jitter)"},
		{"acquire_timeout", &o.AcquireTimeout, "give up acquiring after this long (0: never)"},
	}
}

// SQL is the narrow database client the MySQL lock needs.
type SQL interface {
	// Exec runs a statement with ? placeholders and returns the rows it
	// affected.
	Exec(ctx context.Context, stmt string, args ...any) (int64, error)
}

// The MySQL lock's statements.
const (
	InsertLock = "INSERT INTO locks (name, owner, created_ms) VALUES (?, ?, ?)"
	DeleteLock = "DELETE FROM locks WHERE name = ?"
)

// MySQLUniqueKey is row 17 (seed 004, part one): the lock is a row whose primary
// key is the resource. tryLock INSERTs it; a duplicate-key error means the
// lock is taken (004 treats every exception so), and lock() sleeps 10ms and
// tries again. unlock() deletes the row by primary key, without looking at
// whose it is (004: deleteByPrimaryKey). There is no expiry: a holder that
// crashes leaves its row until a cleanup job deletes old rows, and the same
// owner's second INSERT fails like anyone else's — not re-entrant.
type MySQLUniqueKey struct {
	c Config
	o *MySQLOptions
}

// NewMySQLUniqueKey builds the lock over c.SQL (nil options: the defaults).
func NewMySQLUniqueKey(c Config, o *MySQLOptions) Locker {
	if o == nil {
		o = DefaultMySQLOptions()
	}
	return &MySQLUniqueKey{c, o}
}

// Lock INSERTs the row until it succeeds.
func (l *MySQLUniqueKey) Lock(ctx context.Context) error {
	c := &l.c
	return retry(ctx, c, l.o.Backoff, func() (bool, error) {
		_, err := c.SQL.Exec(ctx, InsertLock, l.o.Key, c.Owner, c.Clock.Now().UnixMilli())
		return err == nil, err
	})
}

// Unlock DELETEs the row by primary key.
func (l *MySQLUniqueKey) Unlock(ctx context.Context) error {
	n, err := l.c.SQL.Exec(ctx, DeleteLock, l.o.Key)
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrNotHeld
	}
	return nil
}
