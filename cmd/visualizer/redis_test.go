//go:build unix

package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lockstep/lockstep/internal/realredis"
	"github.com/lockstep/lockstep/internal/realredis/redistest"
)

// `visualizer run --redis URL` against a server that dies (SIGKILL) or
// hangs (SIGSTOP) in the middle of the run ends with status 1 and a
// message naming the server and the step the run stopped at; the log
// printed before it ends with the error event naming the server. The
// scenario takes about 10 s of wall clock on a real server; the server is
// stopped once the run has written its first keys. A killed server fails
// the next command at once; a stopped one after realredis.Timeout, the
// deadline of every reply. A stopped server is resumed, then killed, when
// the test ends.
func TestRunOnARedisServerLostMidRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a scenario on real Redis servers")
	}
	for _, c := range []struct {
		name string
		lose func(*realredis.Server) error
	}{
		{"killed", func(s *realredis.Server) error { s.Kill(); return nil }},
		{"stopped", (*realredis.Server).Stop},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := redistest.Start(t, "--notify-keyspace-events", "Kx")
			t.Cleanup(func() { _ = s.Resume() }) // before redistest's Kill
			args := []string{"run", "lua-cad-slow-release", "--redis", s.URL()}
			done := make(chan result, 1)
			go func() { done <- visualizer(t, args...) }()
			// The run has begun once its keys (the scenario's data first)
			// are on the server.
			admin := s.Client()
			defer admin.Close()
			began := time.Now()
			for {
				ctx, cancel := context.WithTimeout(context.Background(), time.Second)
				keys, err := admin.Keys(ctx, realredis.PrefixRoot+"*").Result()
				cancel()
				if err == nil && len(keys) > 0 {
					break
				}
				select {
				case r := <-done:
					t.Fatalf("the run ended before the test saw its keys: status %d\n%s", r.code, r.stderr)
				case <-time.After(10 * time.Millisecond):
				}
				if time.Since(began) > 10*time.Second {
					t.Fatal("no key of the run on the server after 10 s")
				}
			}
			time.Sleep(300 * time.Millisecond) // a few steps into the run
			if err := c.lose(s); err != nil {
				t.Fatal(err)
			}
			lost := time.Now()
			var r result
			select {
			case r = <-done:
			case <-time.After(30 * time.Second):
				t.Fatalf("visualizer %s: still running 30 s after the server was %s", strings.Join(args, " "), c.name)
			}
			took := time.Since(lost)
			r.expect(t, strings.Join(args, " "), 1, "visualizer: lua-cad-slow-release: the run stopped at step ", s.Addr)
			lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
			if last := lines[len(lines)-1]; len(lines) < 2 || !strings.Contains(last, s.Addr) {
				t.Errorf("the log (%d lines) ends %q; want events, then the error event naming %s", len(lines), last, s.Addr)
			}
			if strings.Contains(r.stdout, "verdict:") {
				t.Errorf("a verdict for a run cut short:\n%s", r.stdout)
			}
			t.Logf("%s: status %d %v after; %s", c.name, r.code, took.Round(time.Millisecond), strings.TrimSpace(r.stderr))
		})
	}
}

// The school review: the Redis password could be given only in argv,
// which ps shows to every user of the machine. It comes from a file
// (--redis-password-file) or the environment (LOCKSTEP_REDIS_PASSWORD)
// as well; without it the server refuses the run, and a password given
// twice is refused before any dial.
func TestTheRedisPasswordStaysOutOfArgv(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a scenario on a real Redis server")
	}
	s := redistest.Start(t, "--notify-keyspace-events", "Kx")
	admin := s.Client()
	err := admin.ConfigSet(context.Background(), "requirepass", "s3cret-pw").Err()
	admin.Close()
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"run", "no-lock-oversell", "--redis", s.URL()}
	if r := visualizer(t, args...); r.code == 0 {
		t.Fatalf("a run without the password succeeded: %s", r.stdout)
	}
	file := filepath.Join(t.TempDir(), "pw")
	if err := os.WriteFile(file, []byte("s3cret-pw\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if r := visualizer(t, append(args, "--redis-password-file", file)...); r.code != 1 && r.code != 0 || !strings.Contains(r.stdout, "verdict") {
		t.Fatalf("with --redis-password-file: status %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	var out, errOut bytes.Buffer
	env := func(k string) string {
		if k == passwordEnv {
			return "s3cret-pw"
		}
		return testEnv(k)
	}
	err = run(context.Background(), args, env, &out, &errOut)
	if !strings.Contains(out.String(), "verdict") {
		t.Fatalf("with $%s: %v\n%s\n%s", passwordEnv, err, out.String(), errOut.String())
	}
	twice := []string{"run", "no-lock-oversell", "--redis", "redis://:x@" + strings.TrimPrefix(s.URL(), "redis://"), "--redis-password-file", file}
	if r := visualizer(t, twice...); r.code == 0 || !strings.Contains(r.stderr, "one place") || strings.Contains(r.stderr, "s3cret") {
		t.Fatalf("a password in the URL and in a file: status %d\n%s", r.code, r.stderr)
	}
}
