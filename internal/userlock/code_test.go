package userlock

import (
	"strings"
	"testing"
	"time"
)

// TestStepCodeIsCodesOwnLines holds each step's text to the lines of
// Code it says it starts at: the card sets a step beside a catalog
// lock's, and names its line in the lock's file.
func TestStepCodeIsCodesOwnLines(t *testing.T) {
	sp := &Spec{Name: "mine", Source: "redis-py #554", Key: "lock", TTL: time.Second, Retry: 50 * time.Millisecond,
		Acquire: Step{Lua: "if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then\n  return 1\nend\nreturn 0", Keys: []string{"$key"}, Args: []string{"$token", "$ttl"}, OK: "1"},
		Release: Step{Watch: []string{"$key"}, Commands: []Command{{Args: []string{"GET", "$key"}, OK: "$token"}, {Args: []string{"MULTI"}}, {Args: []string{"DEL", "$key"}}, {Args: []string{"EXEC"}}}},
		Extend:  &Step{Commands: []Command{{Args: []string{"PEXPIRE", "$key", "$ttl"}}}}, Every: 300 * time.Millisecond}
	code := strings.Split(sp.Code(), "\n")
	for _, step := range []string{"acquire", "release", "extend"} {
		text, line := sp.StepCode(step)
		want := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		if line < 1 || line-1+len(want) > len(code) {
			t.Fatalf("%s: line %d of a %d-line Code", step, line, len(code))
		}
		if got := code[line-1 : line-1+len(want)]; strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s at line %d: expected Code's lines\n%s\ngot\n%s", step, line, strings.Join(got, "\n"), text)
		}
		if !strings.HasPrefix(text, step+":") {
			t.Errorf("%s: expected its text to start with its name, got %q", step, text)
		}
	}
	sp.Extend, sp.Source = nil, ""
	if text, line := sp.StepCode("extend"); text != "" || line != 0 {
		t.Errorf("no extend: expected nothing, got %q at %d", text, line)
	}
	if text, line := sp.StepCode("release"); line < 3 || !strings.Contains(text, "DEL $key") {
		t.Errorf("release without a source line: got %q at %d", text, line)
	}
}
