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
		"\n>>   50 L 3.506s send A -> redis: DEL lock\n       R 3.506s send A -> redis: EVALSHA compare_and_delete.lua",
		"\ndiverge: row 50\n",
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
		Moves       int
		Left, Right struct {
			ID       string
			Verdicts []string
			Rows     []string
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got.Right.ID != "owner-check-expire-between+lua-compare-delete" || got.Diverge < 1 || got.Moves == 0 {
		t.Fatalf("right %q, diverge %d, moves %d", got.Right.ID, got.Diverge, got.Moves)
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
