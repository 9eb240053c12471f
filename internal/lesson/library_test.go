package lesson

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// libraryLessons are the built-in lessons whose clients run a library's
// own code (rows 18-19) or that re-play a library's users' report.
func libraryLessons(t *testing.T) []*scenario.Scenario {
	t.Helper()
	f := catalog(t)
	var out []*scenario.Scenario
	for i := range f.Scenarios {
		sc := &f.Scenarios[i]
		lib := strings.Contains(sc.Source, "redsync") || strings.Contains(sc.Source, "redislock") || strings.Contains(sc.Source, "redisson")
		for _, c := range sc.Clients {
			if a, ok := lock.Lookup(c.Algorithm); ok && a.Library != nil {
				lib = true
			}
		}
		if lib {
			out = append(out, sc)
		}
	}
	if len(out) < 8 {
		t.Fatalf("want the library lessons (8 or more), found %d", len(out))
	}
	return out
}

// Every library lesson gives the same log twice, byte for byte, text and
// JSON (call sites included): the libraries' clocks, timers and
// goroutines are the engine's.
func TestLibraryLessonsAreDeterministic(t *testing.T) {
	for _, sc := range libraryLessons(t) {
		t.Run(sc.ID, func(t *testing.T) {
			txt0, js0 := runLog(t, sc, sc.Seed)
			for i := 0; i < 3; i++ {
				txt, js := runLog(t, sc, sc.Seed)
				if txt != txt0 || js != js0 {
					t.Fatalf("run %d differs from run 0:\n%s", i+1, firstDiff(txt0, txt))
				}
			}
			if !strings.Contains(js0, `"src"`) {
				t.Fatal("no command carries its call site")
			}
		})
	}
}

// A library algorithm's lock commands come from the library's own code:
// each names a file under the library's directory of lock.Source, whose
// line is the call that sends it, with the library's caller further out;
// and each script it runs is shown by name.
func TestLibraryCommandsNameTheLibrarysLine(t *testing.T) {
	cases := []struct {
		id, dir string
		lines   map[string]string // command (or script) -> what its line calls
	}{
		{"redsync-unlock-after-expiry", "redsync/", map[string]string{
			"SET": "SetNX(", "EVALSHA redsync.deleteScript": "EvalSha(", "EVAL redsync.deleteScript": "Eval("}},
		{"redsync-extend-after-restart", "redsync/", map[string]string{
			"SET": "SetNX(", "EVALSHA redsync.touchScript": "EvalSha(", "EVAL redsync.touchScript": "Eval(",
			"EVALSHA redsync.deleteScript": "EvalSha(", "EVAL redsync.deleteScript": "Eval("}},
		{"redsync-extend-setnx", "redsync/", map[string]string{
			"SET": "SetNX(", "EVALSHA redsync.touchWithSetNXScript": "EvalSha(", "EVAL redsync.touchWithSetNXScript": "Eval(",
			"EVALSHA redsync.deleteScript": "EvalSha(", "EVAL redsync.deleteScript": "Eval("}},
		{"redislock-pause-no-watchdog", "redislock/", map[string]string{
			"EVALSHA redislock.luaObtain": "luaObtain.Run(", "EVAL redislock.luaObtain": "luaObtain.Run(",
			"EVALSHA redislock.luaRelease": "luaRelease.Run(", "EVAL redislock.luaRelease": "luaRelease.Run("}},
	}
	for _, c := range cases {
		t.Run(c.id, func(t *testing.T) {
			s := newSession(t, c.id)
			if err := s.RunToEnd(); err != nil {
				t.Fatal(err)
			}
			seen := map[string]bool{}
			for _, e := range s.Log() {
				if e.Kind != sim.KindSend || len(e.Cmd) > 1 && e.Cmd[1] == "stock" {
					continue
				}
				if e.Src == nil || !strings.HasPrefix(e.Src.File, c.dir) {
					t.Fatalf("#%d %s: want a call site in %s, got %+v", e.Seq, e.CmdText(), c.dir, e.Src)
				}
				cmd := e.Cmd[0]
				if e.Script != "" {
					cmd += " " + e.Script
				} else if strings.HasPrefix(cmd, "EVAL") {
					t.Fatalf("#%d: a library script without a name: %s", e.Seq, e.CmdText())
				}
				want, ok := c.lines[cmd]
				if !ok {
					t.Fatalf("#%d: unexpected command %s", e.Seq, e.CmdText())
				}
				seen[cmd] = true
				if line := sourceLine(t, e.Src.File, e.Src.Line); !strings.Contains(line, want) {
					t.Errorf("#%d %s: %s:%d is %q, want the line with %s", e.Seq, cmd, e.Src.File, e.Src.Line, line, want)
				}
				if len(e.Src.Via) == 0 {
					t.Errorf("#%d %s: want the caller further out, got none", e.Seq, cmd)
				}
			}
			for cmd := range c.lines {
				if !seen[cmd] {
					t.Errorf("the run never sent %s", cmd)
				}
			}
		})
	}
}

// Every script the libraries can send is named (lock.ScriptNames): the
// table of their SHA1s is checked against what they send, including
// redislock's refresh, which no built-in lesson runs.
func TestLibraryScriptsAreNamed(t *testing.T) {
	sc := &scenario.Scenario{ID: "refresh", Seed: 1, Horizon: scenario.Duration(5e9), Data: map[string]string{"stock": "10"},
		Expect: []string{"safe"}, Clients: []scenario.Client{
			{Name: "A", Algorithm: "redislock", Params: map[string]any{"ttl": "1s", "refresh": "300ms"}, Work: scenario.Duration(2e9)}}}
	scripts := map[string]bool{}
	for _, s := range append(libraryLessons(t), sc) {
		_, js := runLog(t, s, s.Seed)
		for _, line := range strings.Split(strings.TrimSpace(js), "\n") {
			var e sim.Event
			if err := json.Unmarshal([]byte(line), &e); err != nil {
				t.Fatal(err)
			}
			if e.Kind == sim.KindSend && strings.HasPrefix(strings.ToUpper(e.Cmd[0]), "EVAL") {
				if e.Script == "" {
					t.Errorf("%s #%d: a script without a name: %s", s.ID, e.Seq, e.CmdText())
				}
				scripts[e.Script] = true
			}
		}
	}
	names := lock.ScriptNames()
	for _, name := range names {
		if strings.HasSuffix(name, ".lua") {
			continue
		}
		if !scripts[name] {
			t.Errorf("%s is named but no run sent it: is its SHA1 right?", name)
		}
	}
	got := slices.Sorted(func(yield func(string) bool) {
		for s := range scripts {
			if !yield(s) {
				return
			}
		}
	})
	t.Logf("scripts sent: %s", fmt.Sprint(got))
}
