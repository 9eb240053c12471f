package sim

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	_ "modernc.org/sqlite" // the embedded SQL engine (pure Go)
)

// SQLDB is the SQL database of the MySQL lesson (catalog row 17): real SQL
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
type SQLDB struct {
	db *sql.DB
}

// RowKey is how a row of the lock table shows in key states: locks[name].
func RowKey(name string) string { return "locks[" + name + "]" }

// LockOfKey is the lock a key stands for: the row locks[name] stands for
// the lock name; a Redis key stands for itself.
func LockOfKey(key string) string {
	if name, ok := strings.CutPrefix(key, "locks["); ok && strings.HasSuffix(name, "]") {
		return strings.TrimSuffix(name, "]")
	}
	return key
}

// LocksTable is the statement that creates the lock table.
const LocksTable = "CREATE TABLE locks (name TEXT PRIMARY KEY, owner TEXT NOT NULL, created_ms INTEGER NOT NULL)"

// NewSQLDB opens an empty in-memory database with the lock table.
func NewSQLDB() (*SQLDB, error) {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		return nil, fmt.Errorf("sim: open the embedded SQL database: %w", err)
	}
	db.SetMaxOpenConns(1) // one connection holds the in-memory database
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	if _, err := db.Exec(LocksTable); err != nil {
		db.Close()
		return nil, fmt.Errorf("sim: create the lock table: %w", err)
	}
	return &SQLDB{db: db}, nil
}

// Serve runs one statement.
func (d *SQLDB) Serve(r ServiceRequest) Outcome {
	if len(r.Args) == 0 {
		return Outcome{Reply: "(error) empty statement", Err: errors.New("sim: empty SQL statement")}
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
	out := Outcome{Cmd: cmd}
	if err != nil {
		out.Reply, out.Err = "(error) "+err.Error(), err
		if strings.Contains(err.Error(), "UNIQUE constraint failed") {
			out.Err = fmt.Errorf("%w: %v", ErrDuplicateKey, err)
			out.Note = "duplicate primary key: the lock row exists already"
		}
	} else {
		out.Rows, _ = res.RowsAffected()
		out.Reply = fmt.Sprintf("OK, %d row(s) affected", out.Rows)
	}
	if len(r.Args) > 1 && strings.Contains(strings.ToLower(stmt), " locks") {
		out.Keys = []KeyState{d.row(r.Args[1], r.OwnerOf)}
	}
	return out
}

// ErrDuplicateKey is what a client sees when an INSERT hits an existing
// primary key.
var ErrDuplicateKey = errors.New("sim: duplicate key")

// row gives the lock row named name as a key state.
func (d *SQLDB) row(name string, ownerOf func(string) string) KeyState {
	var owner string
	var created int64
	err := d.db.QueryRowContext(context.Background(), "SELECT owner, created_ms FROM locks WHERE name = ?", name).Scan(&owner, &created)
	ks := KeyState{Key: RowKey(name), TTL: -2}
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

// sweep deletes the lock rows created before cutoff (ms) and gives their
// last states.
func (d *SQLDB) sweep(cutoff int64, ownerOf func(string) string) ([]KeyState, error) {
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
	var before []KeyState
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
func (d *SQLDB) Close() error { return d.db.Close() }

// Sweep runs a cleanup job on the SQL service every period: it deletes the
// lock rows older than age (seed 004: "if an unlock fails, a timer clears
// the failed records every few seconds"). The job belongs to the database
// (a scheduled event, an ops cron), not to any client: its deletions are
// logged as expiries of the rows, as Redis logs a key's TTL running out.
func (w *World) Sweep(service string, every, age time.Duration) error {
	s := w.service(service)
	if s == nil {
		return fmt.Errorf("%w %q", ErrUnknownNode, service)
	}
	d, ok := s.h.(*SQLDB)
	if !ok {
		return fmt.Errorf("sim: service %s is not a SQL database", service)
	}
	if every <= 0 || age <= 0 {
		return fmt.Errorf("sim: a sweep needs a positive period and age")
	}
	var tick func(at time.Duration)
	tick = func(at time.Duration) {
		w.q.push(&item{t: at, kind: itemWorld, label: "sweep " + service, fn: func() {
			cutoff := w.epoch().Add(w.now - age).UnixMilli()
			gone, err := d.sweep(cutoff, w.ownerOf)
			switch {
			case err != nil:
				w.emit(Event{Kind: KindExpire, Node: service, Note: "cleanup job failed: " + err.Error()})
			case len(gone) > 0:
				var who []string
				keys := make([]KeyState, len(gone))
				for i, k := range gone {
					keys[i] = KeyState{Key: k.Key, TTL: -2}
					if k.Owner != "" {
						who = append(who, k.Owner+"'s")
					}
				}
				note := fmt.Sprintf("cleanup job deleted the rows older than %s (created_ms < %d): %d row(s)",
					FormatTime(age), cutoff, len(gone))
				if len(who) > 0 {
					note += "; " + strings.Join(who, ", ") + " lock is gone"
				}
				w.emit(Event{Kind: KindExpire, Node: service, Cmd: append(strings.Fields(SweepStatement), strconv.FormatInt(cutoff, 10)),
					Keys: keys, Note: note})
			}
			tick(at + every)
		}})
	}
	tick(w.now + every)
	return nil
}

// SQLClient is a client process's connection to a SQL service: every
// statement is a scheduled request.
type SQLClient struct {
	p       *Proc
	service string
}

// SQL gives the process's client for a SQL service.
func (p *Proc) SQL(service string) *SQLClient { return &SQLClient{p: p, service: service} }

// Exec runs one statement with its parameters and returns the rows it
// affected. A duplicate primary key gives an error wrapping ErrDuplicateKey.
func (c *SQLClient) Exec(ctx context.Context, stmt string, args ...any) (int64, error) {
	a := []string{stmt}
	for _, v := range args {
		a = append(a, fmt.Sprint(v))
	}
	out, err := c.p.Call(ctx, c.service, a...)
	return out.Rows, err
}
