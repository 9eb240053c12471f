package lesson

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/sim"
)

// sources lists each command event's recorded call site, one line per
// send or exec event, as JSON.
func sources(t *testing.T, id string) []string {
	t.Helper()
	s := newSession(t, id)
	if err := s.RunToEnd(); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range s.Log() {
		if e.Kind != sim.KindSend && e.Kind != sim.KindExec {
			continue
		}
		b, _ := json.Marshal(e.Src)
		out = append(out, fmt.Sprintf("#%d %s %s", e.Seq, e.Kind, b))
	}
	return out
}

// The same run records the same call sites, byte for byte: a position
// comes from the code, not from time or from the scheduler.
func TestCallSitesAreDeterministic(t *testing.T) {
	for _, id := range []string{"reentrant-nested", "getset-crash-recovery", "redlock-clock-jump", "watch-three-buyers"} {
		t.Run(id, func(t *testing.T) {
			a, b := sources(t, id), sources(t, id)
			if !slices.Equal(a, b) {
				t.Fatalf("two runs recorded different call sites:\n%s\n---\n%s", strings.Join(a, "\n"), strings.Join(b, "\n"))
			}
			if len(a) == 0 {
				t.Fatal("no command events")
			}
		})
	}
}

// Each lock command names the line of internal/lock that sent it; the
// line, read from the embedded source, is the call a reader expects.
func TestCallSitesNameTheLockCode(t *testing.T) {
	s := newSession(t, "reentrant-nested")
	if err := s.RunToEnd(); err != nil {
		t.Fatal(err)
	}
	sawLua := map[string]bool{}
	for _, e := range s.Log() {
		if e.Kind != sim.KindSend && e.Kind != sim.KindExec {
			continue
		}
		if len(e.Cmd) > 1 && e.Cmd[1] == "stock" {
			// The stock deduction is the lesson's workload, not lock code.
			if e.Src != nil {
				t.Fatalf("#%d %s: the workload is not lock code, got %+v", e.Seq, e.CmdText(), e.Src)
			}
			continue
		}
		if e.Src == nil {
			t.Fatalf("#%d has no call site: %s", e.Seq, e)
		}
		line := sourceLine(t, e.Src.File, e.Src.Line)
		want := map[string]string{"reentrant_lock.lua": "reentrantLock.Run", "reentrant_unlock.lua": "reentrantUnlock.Run"}[e.Script]
		if want == "" {
			t.Fatalf("#%d: unexpected command %s", e.Seq, e)
		}
		if !strings.Contains(line, want) {
			t.Errorf("#%d %s: %s:%d is %q, want the line with %s", e.Seq, e.CmdText(), e.Src.File, e.Src.Line, line, want)
		}
		if e.Kind == sim.KindSend && len(e.Src.Calls) > 0 {
			t.Errorf("#%d: a send cannot know what the script ran: %v", e.Seq, e.Src.Calls)
		}
		for _, c := range e.Src.Calls {
			sawLua[c] = true
		}
	}
	// A's nested lock finds its own field (HEXISTS) and counts it up
	// (HINCRBY); its unlocks count down and delete at zero.
	for _, c := range []string{"EXISTS", "HEXISTS", "HINCRBY", "EXPIRE", "DEL"} {
		if !sawLua[c] {
			t.Errorf("no script ran %s; ran %v", c, sawLua)
		}
	}
}

// A helper's command names the helper's line and, further out, the
// algorithm's line that called it.
func TestCallSitesNameTheCaller(t *testing.T) {
	s := newSession(t, "getset-crash-recovery")
	if err := s.Seek(3); err != nil {
		t.Fatal(err)
	}
	for _, e := range s.Log() {
		if e.Kind != sim.KindSend {
			continue
		}
		if e.Src == nil || e.Src.Func != "setnx" || len(e.Src.Via) == 0 || e.Src.Via[0].File != "getset.go" {
			t.Fatalf("#%d %s: got %+v, want setnx called from getset.go", e.Seq, e.CmdText(), e.Src)
		}
		if l := sourceLine(t, e.Src.Via[0].File, e.Src.Via[0].Line); !strings.Contains(l, "setnx(") {
			t.Fatalf("getset.go:%d is %q, want the call of setnx", e.Src.Via[0].Line, l)
		}
		return
	}
	t.Fatal("no send event in the first steps")
}

func sourceLine(t *testing.T, file string, n int) string {
	t.Helper()
	b, err := fs.ReadFile(lock.Source(), file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	if n < 1 || n > len(lines) {
		t.Fatalf("%s has no line %d", file, n)
	}
	return lines[n-1]
}
