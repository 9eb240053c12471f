// Package sqldb is the SQL database of the MySQL lesson: a service of the
// world (a sim.Handler) on an embedded SQLite, with the lock table, its
// cleanup job, and the client a process's lock code talks to it through.
//
// database/sql runs goroutines of its own (sql.Open starts the
// connection opener), so the database lives here, beside the engine,
// never in it: the engine only calls Serve and Sweep, one at a time, at
// the moments it schedules.
package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"github.com/lockstep/lockstep/internal/fact"
	"strconv"
	"strings"
	"time"

	"github.com/lockstep/lockstep/internal/sim"

	_ "modernc.org/sqlite" // the embedded SQL engine (pure Go)
)

// DB is the SQL database of the MySQL lesson (catalog row 17): real SQL
// semantics from an embedded SQLite (modernc.org/sqlite, pure Go) standing
// in for seed 004's MySQL. What the lesson needs of MySQL is the same in
// both: a primary key that refuses a second row with the same value, and a
// DELETE that removes it. Its table is
//
//	CREATE TABLE locks (name TEXT PRIMARY KEY, owner TEXT NOT NULL, created_ms INTEGER NOT NULL)
//
// A request is a statement and its parameters: args[0] is the statement
// with ? placeholders, args[1:] its values (numbers are bound as integers).
// After a statement on locks, the event shows the row whose name is the
// first parameter as a key state "locks[name]" with its owner, so the
// checker sees SQL locks as it sees Redis keys.
type DB struct {
	db *sql.DB
}

// LocksTable is the statement that creates the lock table.
const LocksTable = "CREATE TABLE locks (name TEXT PRIMARY KEY, owner TEXT NOT NULL, created_ms INTEGER NOT NULL)"

var (
	_ sim.Handler = (*DB)(nil)
	_ sim.Sweeper = (*DB)(nil)
)

// Open opens an empty in-memory database with the lock table.
func Open() (*DB, error) {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		return nil, fmt.Errorf("sqldb: open the embedded SQL database: %w", err)
	}
	db.SetMaxOpenConns(1) // one connection holds the in-memory database
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	if _, err := db.Exec(LocksTable); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqldb: create the lock table: %w", err)
	}
	return &DB{db: db}, nil
}

// Serve runs one statement.
func (d *DB) Serve(r sim.ServiceRequest) sim.Outcome {
	if len(r.Args) == 0 {
		return sim.Outcome{Reply: "(error) empty statement", Answer: sim.Answer{Type: sim.AnswerError}, Err: errors.New("sqldb: empty SQL statement")}
	}
	stmt := r.Args[0]
	params := make([]any, 0, len(r.Args)-1)
	for _, a := range r.Args[1:] {
		if n, err := strconv.ParseInt(a, 10, 64); err == nil {
			params = append(params, n)
		} else {
			params = append(params, a)
		}
	}
	cmd := append(strings.Fields(stmt), r.Args[1:]...)
	res, err := d.db.ExecContext(context.Background(), stmt, params...)
	out := sim.Outcome{Cmd: cmd}
	if err != nil {
		out.Reply, out.Err = "(error) "+err.Error(), err
		out.Answer = sim.Answer{Type: sim.AnswerError}
		if strings.Contains(err.Error(), "UNIQUE constraint failed") {
			out.Answer.Gist = "UNIQUE" // the constraint that refused the row
			out.Err = fmt.Errorf("%w: %w", ErrDuplicateKey, err)
			out.Fact = fact.New(fact.DuplicateRow)
		}
	} else {
		out.Rows, _ = res.RowsAffected()
		out.Reply = fmt.Sprintf("OK, %d row(s) affected", out.Rows)
		out.Answer = sim.Answer{Type: sim.AnswerOK}
	}
	if len(r.Args) > 1 && strings.Contains(strings.ToLower(stmt), " locks") {
		out.Keys = []sim.KeyState{d.row(r.Args[1], r.OwnerOf)}
	}
	return out
}

// ErrDuplicateKey is what a client sees when an INSERT hits an existing
// primary key.
var ErrDuplicateKey = errors.New("sqldb: duplicate key")

// row gives the lock row named name as a key state.
func (d *DB) row(name string, ownerOf func(string) string) sim.KeyState {
	var owner string
	var created int64
	err := d.db.QueryRowContext(context.Background(), "SELECT owner, created_ms FROM locks WHERE name = ?", name).Scan(&owner, &created)
	ks := sim.KeyState{Key: sim.RowKey(name), TTL: -2}
	if err != nil {
		return ks
	}
	ks.Type, ks.TTL = "row", -1
	ks.Value = fmt.Sprintf("owner=%s created_ms=%d", owner, created)
	if ownerOf != nil {
		ks.Owner = ownerOf(owner)
	}
	return ks
}

// Sweep is the database's cleanup job (seed 004: "if an unlock fails, a
// timer clears the failed records every few seconds"): it deletes the lock
// rows created more than age before now and gives their last states.
func (d *DB) Sweep(now time.Time, age time.Duration, ownerOf func(string) string) (sim.Swept, error) {
	cutoff := now.Add(-age).UnixMilli()
	gone, err := d.sweep(cutoff, ownerOf)
	if err != nil {
		return sim.Swept{}, err
	}
	return sim.Swept{
		Gone: gone,
		Cmd:  append(strings.Fields(SweepStatement), strconv.FormatInt(cutoff, 10)),
		What: &fact.Fact{Key: fact.CleanupRows, For: age, Cutoff: cutoff, Rows: len(gone)},
	}, nil
}

// sweep deletes the lock rows created before cutoff (ms) and gives their
// last states.
func (d *DB) sweep(cutoff int64, ownerOf func(string) string) ([]sim.KeyState, error) {
	rows, err := d.db.QueryContext(context.Background(), "SELECT name FROM locks WHERE created_ms < ? ORDER BY name", cutoff)
	if err != nil {
		return nil, err
	}
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return nil, err
		}
		names = append(names, n)
	}
	rows.Close()
	var before []sim.KeyState
	for _, n := range names {
		before = append(before, d.row(n, ownerOf))
	}
	if _, err := d.db.ExecContext(context.Background(), SweepStatement, cutoff); err != nil {
		return nil, err
	}
	return before, nil
}

// SweepStatement is the cleanup job's statement.
const SweepStatement = "DELETE FROM locks WHERE created_ms < ?"

// Close closes the database.
func (d *DB) Close() error { return d.db.Close() }

// Client is a client process's connection to a SQL service: every
// statement is a request the engine schedules (Proc.Call).
type Client struct {
	p       *sim.Proc
	service string
}

// NewClient gives process p's client for the SQL service named service.
func NewClient(p *sim.Proc, service string) *Client { return &Client{p: p, service: service} }

// Exec runs one statement with its parameters and returns the rows it
// affected. A duplicate primary key gives an error wrapping ErrDuplicateKey.
func (c *Client) Exec(ctx context.Context, stmt string, args ...any) (int64, error) {
	a := []string{stmt}
	for _, v := range args {
		a = append(a, fmt.Sprint(v))
	}
	out, err := c.p.Call(ctx, c.service, a...)
	return out.Rows, err
}
