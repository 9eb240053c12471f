package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// Without --with, a lesson of a canonical pair is compared with the pair's
// other side: blind DEL against compare-and-delete under the same stall.
// The two logs agree up to A's late release, where the row is marked and
// printed twice, and the verdicts are the two lessons' own.
func TestCompareCanonicalPair(t *testing.T) {
	out, err := combined(t, "compare", "blind-del-slow-release")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{
		"left:  blind-del-slow-release\nright: lua-cad-slow-release\n",
		"\n>>   52 L 3.506s send A -> redis: DEL lock\n       R 3.506s send A -> redis: EVALSHA compare_and_delete.lua",
		"\ndiverge: row 52\n",
		"\nright verdict: safe\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("want %q in the output:\n%s", want, out)
		}
	}
	left := lineWith(out, "left verdict: ")
	for _, v := range []string{"mutual-exclusion", "foreign-unlock", "lost-update"} {
		if !strings.Contains(left, v) {
			t.Errorf("left verdict %q lacks %s", left, v)
		}
	}
	if strings.Count(out, ">>") != 1 {
		t.Errorf("want exactly one row marked >>:\n%s", out)
	}
}

// --with an algorithm swaps it into the same clients; --json gives the
// rows, the divergence as a row number and both verdicts.
func TestCompareWithAlgorithmJSON(t *testing.T) {
	out, err := combined(t, "compare", "owner-check-expire-between", "--with", "lua-compare-delete", "--json")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var got struct {
		Diverge     int
		Fair        bool
		Faults      []struct{ How string }
		Left, Right struct {
			ID       string
			Verdicts []string
			Rows     []string
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	// The lesson's pause fires on A's GET lock, a command Lua's release
	// does not send: it is placed at the same point of A's progress.
	if got.Right.ID != "owner-check-expire-between+lua-compare-delete" || got.Diverge < 1 || !got.Fair || len(got.Faults) != 1 || got.Faults[0].How != "place" {
		t.Fatalf("right %q, diverge %d, fair %v, faults %+v", got.Right.ID, got.Diverge, got.Fair, got.Faults)
	}
	if l, r := got.Left.Rows[got.Diverge-1], got.Right.Rows[got.Diverge-1]; !strings.HasSuffix(l, "send A -> redis: GET lock") || !strings.Contains(r, "EVALSHA compare_and_delete.lua") {
		t.Errorf("row %d: left %q, right %q", got.Diverge, l, r)
	}
	if strings.Join(got.Right.Verdicts, ",") != "safe" || len(got.Left.Verdicts) != 3 {
		t.Errorf("verdicts: left %v, right %v", got.Left.Verdicts, got.Right.Verdicts)
	}
}

// A lesson compared with itself is the same run twice.
func TestCompareWithItself(t *testing.T) {
	out, err := combined(t, "compare", "no-lock-oversell", "--with", "no-lock-oversell")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(out, "\nthe same: all ") || strings.Contains(out, ">>") || strings.Contains(out, " L ") {
		t.Errorf("want the same rows and no divergence:\n%s", out)
	}
}

// A scenario of the user's file (three clients, a pause) is compared with
// an algorithm and with a built-in lesson that has the same clients. The
// file is internal/compare's three-buyers (its tests work the run out).
func TestCompareUserFile(t *testing.T) {
	path := filepath.Join("..", "..", "internal", "compare", "testdata", "three-buyers.yaml")
	out, err := combined(t, "compare", "three-buyers-pause", "--file", path, "--with", "lua-compare-delete")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if d := lineWith(out, ">>"); !strings.HasSuffix(d, "send A -> redis: GET lock") {
		t.Errorf("want the runs to part at A's GET lock, got %q\n%s", d, out)
	}
	out, err = combined(t, "compare", "three-buyers-pause", "--file", path, "--with", "blind-del-slow-release")
	if err != nil || !strings.Contains(out, "right: blind-del-slow-release\n") {
		t.Errorf("compare with a built-in lesson: %v\n%s", err, out)
	}
}

// A file as a user writes it: other client names, another key, a pause on
// alice's leave mark and a lost reply to bob. Worked out before running:
// the acquires and retries are the same SET ... NX on both sides (the lost
// reply costs bob a timeout on both), so the runs part at alice's first
// release after her pause, row 46: her DEL against the compare-and-delete
// script. The DEL frees bob's lock (foreign-unlock), carol enters beside
// bob (mutual-exclusion) and overwrites his stock (lost-update); the script
// leaves bob's lock alone: safe. A scenario of the file with two of the
// clients, or a lesson with A, B and C, does not match, and says whose
// clients are whose.
func TestCompareUserFileOtherNames(t *testing.T) {
	path := writeFile(t, "shop.yaml", `scenarios:
  - id: shop-release
    title: {en: "Three shoppers, blind DEL, a stall and a lost reply"}
    seed: 7
    horizon: 15s
    data: {stock: "5"}
    clients:
      - {name: alice, algorithm: set-nx-ex-blind-del, params: {key: order-lock, ttl: 2s, retry: 300ms}, work: 1500ms}
      - {name: bob, algorithm: set-nx-ex-blind-del, params: {key: order-lock, ttl: 2s, retry: 300ms}, work: 1500ms, start: 50ms}
      - {name: carol, algorithm: set-nx-ex-blind-del, params: {key: order-lock, ttl: 2s, retry: 300ms}, work: 1500ms, start: 2500ms}
    faults:
      - {on: {kind: mark, name: leave, client: alice}, do: pause, client: alice, for: 1s}
      - {at: 200ms, do: drop-reply, client: bob}
    expect: [mutual-exclusion, foreign-unlock, lost-update]
  - id: two-shoppers
    title: {en: "Two shoppers"}
    clients:
      - {name: alice, algorithm: lua-compare-delete, params: {key: order-lock}}
      - {name: bob, algorithm: lua-compare-delete, params: {key: order-lock}}
    expect: [safe]
`)
	out, err := combined(t, "compare", "shop-release", "--file", path, "--with", "lua-compare-delete")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{
		"\n>>   48 L 2.506s send alice -> redis: DEL order-lock\n       R 2.506s send alice -> redis: EVALSHA compare_and_delete.lua 1 order-lock ",
		"\ndiverge: row 48\n",
		"\nleft verdict: foreign-unlock, mutual-exclusion, lost-update\nright verdict: safe\n",
		"timeout bob redis: SET order-lock",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("want %q in the output:\n%s", want, out)
		}
	}
	for with, want := range map[string]string{
		"two-shoppers":           "the clients do not match: shop-release has clients alice, bob, carol, two-shoppers has alice, bob",
		"blind-del-slow-release": "the clients do not match: shop-release has clients alice, bob, carol, blind-del-slow-release has A, B, C",
	} {
		r := visualizer(t, "compare", "shop-release", "--file", path, "--with", with)
		if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, want) {
			t.Errorf("--with %s: exit %d, stdout %q, stderr %q; want 1 and %q", with, r.code, r.stdout, r.stderr, want)
		}
	}
}

// Bad arguments are errors that say what is wrong; nothing is printed on
// stdout, and the process exits non-zero with the reason on stderr.
func TestCompareErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"compare", "no-such-lesson", "--with", "lua-compare-delete"}, `no scenario "no-such-lesson"`},
		{[]string{"compare", "blind-del-slow-release", "--with", "no-such-lock"}, `unknown algorithm or scenario "no-such-lock": give an algorithm (no-lock,`},
		{[]string{"compare", "blind-del-slow-release", "--with", "no-lock-oversell"}, "the clients do not match: blind-del-slow-release has clients A, B, C, no-lock-oversell has A, B"},
		{[]string{"compare", "no-lock-oversell"}, "no canonical pair for no-lock-oversell"},
		{[]string{"compare"}, "compare takes one scenario id"},
	} {
		r := visualizer(t, c.args...)
		if r.err == nil || !strings.Contains(r.err.Error(), c.want) {
			t.Errorf("visualizer %s: got %v, want an error with %q", strings.Join(c.args, " "), r.err, c.want)
		}
		if r.stdout != "" || r.code == 0 {
			t.Errorf("visualizer %s: exit status %d, printed %q on stdout", strings.Join(c.args, " "), r.code, r.stdout)
		}
	}
}

// lineWith is the first line of out that holds s ("" when none).
func lineWith(out, s string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}

// combined runs the command line and returns all it printed, stdout then
// stderr, and its error.
func combined(t *testing.T, args ...string) (string, error) {
	t.Helper()
	r := visualizer(t, args...)
	return r.stdout + r.stderr, r.err
}
