package server

import (
	"strings"
	"testing"
)

// The code view shows a scenario's own lock as it is declared: the
// snapshot names locks/<name>.yaml as the client's code and carries its
// text and scripts, and each command the lock sends lights the line of
// that text that declares it (a command's words, a script's first line).
// Expected before running: A's SET NX lights "- SET $key $token NX PX
// $ttl", its release's EVALSHA the script's first line "if
// redis.call('get' ...".
func TestTheCodeViewShowsTheDeclaredLock(t *testing.T) {
	_, url := newTestServer(t, Limits{})
	c, _, err := dial(t, url, "")
	if err != nil {
		t.Fatal(err)
	}
	c.hello("")
	c.send(map[string]any{"op": "load", "yaml": `scenarios:
  - id: mine
    title: {en: mine}
    locks:
      - name: mine
        acquire:
          commands:
            - {run: [SET, $key, $token, NX, PX, $ttl], ok: OK}
        release:
          lua: |
            if redis.call('get', KEYS[1]) == ARGV[1] then
              return redis.call('del', KEYS[1])
            end
            return 0
          keys: [$key]
          args: [$token]
          ok: 1
    clients:
      - {name: A, algorithm: mine, task: none}
    expect: [safe]
`})
	s := c.next("state")
	file := s.Snap.Code["A"]
	text := s.Snap.Own[file]
	if file != "locks/mine.yaml" || text == "" || !strings.Contains(s.Snap.Own["scripts/mine.release.lua"], "redis.call('del'") {
		t.Fatalf("code %v, own %v: want A's code locks/mine.yaml with its text and its release script", s.Snap.Code, s.Snap.Own)
	}
	lines := strings.Split(text, "\n")
	lit := map[string]string{}
	for i := 0; i < 40 && len(lit) < 2; i++ {
		for _, e := range s.Events {
			if e.Kind == "send" && e.Src != nil && e.Src.File == file && e.Src.Line >= 1 && e.Src.Line <= len(lines) {
				lit[e.Cmd[0]] = lines[e.Src.Line-1]
			}
		}
		c.send(map[string]any{"op": "step"})
		s = c.next("state")
	}
	if !strings.Contains(lit["SET"], "- SET $key $token NX PX $ttl") {
		t.Errorf("SET lit %q, want the acquire's command", lit["SET"])
	}
	if !strings.Contains(lit["evalsha"]+lit["EVALSHA"], "if redis.call('get'") {
		t.Errorf("the release script lit %v, want its first line", lit)
	}
}
