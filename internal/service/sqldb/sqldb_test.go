package sqldb

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lockstep/lockstep/internal/sim"
)

// The lock table's primary key refuses a second row for the same lock
// (seed 004's tryLock), DELETE frees it, and the cleanup job removes only
// the rows older than its age, showing each as it was.
func TestLockRowsAndTheirSweep(t *testing.T) {
	d, err := Open()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	owners := map[string]string{"tokA": "A", "tokB": "B"}
	owner := func(v string) string { return owners[v] }
	insert := func(name, tok string, ms int64) sim.Outcome {
		return d.Serve(sim.ServiceRequest{Args: []string{"INSERT INTO locks (name, owner, created_ms) VALUES (?, ?, ?)", name, tok, strconv.FormatInt(ms, 10)}, OwnerOf: owner})
	}
	if out := insert("order-1", "tokA", 1000); out.Err != nil || out.Rows != 1 || out.Keys[0].Owner != "A" {
		t.Fatalf("first INSERT: want one row owned by A, got %+v", out)
	}
	if out := insert("order-1", "tokB", 2000); !errors.Is(out.Err, ErrDuplicateKey) || out.Keys[0].Owner != "A" {
		t.Fatalf("second INSERT of order-1: want a duplicate key and A's row left, got %+v", out)
	}
	if out := insert("order-2", "tokB", 5000); out.Err != nil {
		t.Fatal(out.Err)
	}
	now := time.UnixMilli(6000)
	swept, err := d.Sweep(now, 3*time.Second, owner) // cutoff 3000: order-1 only
	if err != nil {
		t.Fatal(err)
	}
	if len(swept.Gone) != 1 || swept.Gone[0].Key != sim.RowKey("order-1") || swept.Gone[0].Owner != "A" {
		t.Fatalf("sweep at 6s of rows older than 3s: want A's order-1 gone, got %+v", swept.Gone)
	}
	if want := "DELETE FROM locks WHERE created_ms < ? 3000"; strings.Join(swept.Cmd, " ") != want {
		t.Errorf("sweep command: want %q, got %q", want, strings.Join(swept.Cmd, " "))
	}
	if out := insert("order-1", "tokB", 6000); out.Err != nil {
		t.Errorf("after the sweep order-1 is free: want B's INSERT to succeed, got %v", out.Err)
	}
	if out := d.Serve(sim.ServiceRequest{Args: []string{"DELETE FROM locks WHERE name = ?", "order-2"}}); out.Rows != 1 || out.Keys[0].Exists() {
		t.Errorf("DELETE order-2: want one row gone, got %+v", out)
	}
}
