package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// The card for a setup on the command line, kept small (two locks, one
// column). Argued before it was run: in your-lock-get-compare-del (three
// workers, 2.5s of work under a 3s lease) a pause before the release
// breaks the user's GET-then-DEL release: a worker stalls right after its
// GET found its own token, its lease ends, the next worker takes the key,
// and the stalled DEL deletes it (foreign-unlock). The catalog's Lua
// compare-and-delete holds there: its release checks and deletes in one
// script. Its ✗ replays with visualizer test, in the file --yaml writes.
func TestReportFileSetupCard(t *testing.T) {
	args := []string{"report", "--file", "../../labs/your-lock.yaml", "--scenario", "your-lock-get-compare-del",
		"--only", "lua-compare-delete", "--faults", "pause-release"}
	r := visualizer(t, append(args, "--json")...)
	r.expect(t, "report --file … --json", 0)
	var card struct {
		Rows []struct {
			Algorithm string
			Yours     bool
			Cells     []struct{ Kind, Verdict string }
		}
		Instead []struct{ Algorithm string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &card); err != nil {
		t.Fatal(err)
	}
	if len(card.Rows) != 2 || !card.Rows[0].Yours || card.Rows[0].Algorithm != "get-compare-del" {
		t.Fatalf("rows %+v: want the user's get-compare-del first, then lua-compare-delete", card.Rows)
	}
	if c := card.Rows[0].Cells[0]; c.Kind != "fails" || c.Verdict != "foreign-unlock" {
		t.Errorf("the user's cell is %+v, want ✗ foreign-unlock", c)
	}
	if c := card.Rows[1].Cells[0]; c.Kind != "holds" {
		t.Errorf("lua-compare-delete's cell is %+v, want ✓", c)
	}
	if len(card.Instead) != 1 || card.Instead[0].Algorithm != "lua-compare-delete" {
		t.Errorf("what to use instead: %+v, want lua-compare-delete", card.Instead)
	}

	r = visualizer(t, append(args, "--yaml")...)
	r.expect(t, "report --file … --yaml", 0)
	path := writeFile(t, "mine.yaml", r.stdout)
	visualizer(t, "test", "--file", path).expect(t, "test --file mine.yaml", 0)
	out, err := combined(t, "run", "--file", path, "mine-your-lock-get-compare-del-get-compare-del-pause-release-explored")
	if err != nil || !strings.Contains(lastLine(out), "foreign-unlock") {
		t.Errorf("the counterexample replays to %q (%v), want foreign-unlock", lastLine(out), err)
	}

	// The text sets the user's acquire and release beside the
	// recommended lock's, as --markdown and --json do: the user's
	// GET-then-DEL release as the file writes it, the Lua script that
	// compares and deletes, each under its file and line.
	for lang, want := range map[string][]string{
		"en": {"What to use instead", "Your acquire and release beside lua-compare-delete's", "  release\n    yours (get-compare-del) · locks/get-compare-del.yaml:5"},
		"zh": {"改用什么", "你的加锁和释放，与 lua-compare-delete", "  释放\n    你的 (get-compare-del) · locks/get-compare-del.yaml:5"},
	} {
		r = visualizer(t, append(args, "--lang", lang)...)
		r.expect(t, "report --file … --lang "+lang, 0)
		want = append(want, "        - GET $key   # ok: $token\n        - DEL $key\n", "lua-compare-delete · scripts/compare_and_delete.lua:1",
			"      if redis.call('get', KEYS[1]) == ARGV[1] then")
		for _, w := range want {
			if !strings.Contains(r.stdout, w) {
				t.Errorf("--lang %s prints no %q:\n%s", lang, w, r.stdout)
			}
		}
	}
	r = visualizer(t, append(args, "--markdown")...)
	if !strings.Contains(r.stdout, "## What to use instead") || !strings.Contains(r.stdout, "## 改用什么") {
		t.Errorf("--markdown lacks its sections in both languages:\n%s", r.stdout)
	}
	r = visualizer(t, append(args, "--html")...)
	r.expect(t, "report --file … --html", 0)
	if !strings.HasPrefix(r.stdout, "<!doctype html>") || !strings.Contains(r.stdout, `href="#cx-get-compare-del-pause-release"`) ||
		!strings.Contains(r.stdout, "改用什么") || strings.Contains(r.stdout, "http") {
		t.Errorf("--html is not the offline page of the card, its ✗ linked to its YAML:\n%.600s", r.stdout)
	}
}

// Bad command lines for --file, each saying what to do.
func TestReportFileBadUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"report", "--scenario", "x"}, 2, "go with --file"},
		{[]string{"report", "--html"}, 2, "go with --file"},
		{[]string{"report", "--file", "../../labs/your-lock.yaml"}, 2, "choose one with --scenario (your-lock-unconditional-del,"},
		{[]string{"report", "--file", "../../labs/your-lock.yaml", "--scenario", "nope"}, 1, "no scenario \"nope\""},
		{[]string{"report", "--file", "../../labs/your-lock.yaml", "--scenario", "your-lock-lua-pttl", "--faults", "gc"}, 1, "the columns: contention, lost-reply, pause, pause-release"},
		{[]string{"report", "--file", "../../labs/your-lock.yaml", "--scenario", "your-lock-lua-pttl", "--only", "nolock"}, 1, "the locks: lua-pttl, no-lock"},
		{[]string{"report", "--file", "../../labs/your-lock.yaml", "--cell", "watchdog/pause"}, 2, "--only LOCK --faults COLUMN"},
	} {
		visualizer(t, tc.args...).expect(t, strings.Join(tc.args, " "), tc.code, tc.want)
	}
}
