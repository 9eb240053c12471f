package userlock

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/lock"
)

// Marks are the marks a declared lock's own code writes, besides the lock
// steps of every request: its extend's and its fencing token's.
var Marks = []string{"renewed", "renew-failed", "renew-lost", "token"}

// Declare makes the lock.Info of a declared lock: its parameters key, ttl
// and retry (with the spec's defaults) and its own, and the code that runs
// its steps.
func Declare(s *Spec) *lock.Info {
	params := append([]lock.Param{
		{Name: "key", Kind: lock.Str, Default: s.Key, Doc: "the lock key ($key)"},
		{Name: "ttl", Kind: lock.Dur, Default: s.TTL, Doc: "the lease ($ttl in ms, $ttl_s in seconds)"},
		{Name: "retry", Kind: lock.Dur, Default: s.Retry, Doc: "the wait between acquire attempts"},
	}, s.Params...)
	a := &lock.Info{ID: s.Name, Title: s.Name, Seed: s.Source, Fencing: len(s.Fencing) > 0, Marks: Marks}
	return lock.Declare(a, params, func(c lock.Config, v *lock.Values) lock.Locker {
		return &declared{s: s, c: c, x: expander{token: c.Owner, v: v}, scripts: map[*Step]*redis.Script{}}
	})
}

// declared is one request's lock: the spec run on the request's Config.
type declared struct {
	s       *Spec
	c       lock.Config
	x       expander
	scripts map[*Step]*redis.Script
	running *bool // the current extend thread's run flag
}

// Lock runs the acquire until it succeeds, retrying as declared; then it
// draws the fencing token and starts the extend, if declared.
func (l *declared) Lock(ctx context.Context) error {
	b := lock.Backoff{Retry: l.x.v.Duration("retry"), RetryJitter: l.s.RetryJitter, AcquireTimeout: l.s.AcquireTimeout}
	if err := lock.Retry(ctx, &l.c, b, func() (bool, error) { return l.run(ctx, &l.s.Acquire) }); err != nil {
		return err
	}
	if len(l.s.Fencing) > 0 {
		if err := l.fence(ctx); err != nil {
			return err
		}
	}
	if l.s.Extend != nil {
		l.startExtend()
	}
	return nil
}

// Unlock runs the release: a release whose expected reply did not come
// found the lock no longer ours (ErrNotHeld).
func (l *declared) Unlock(ctx context.Context) error {
	if l.running != nil {
		*l.running = false
		l.running = nil
	}
	ok, err := l.run(ctx, &l.s.Release)
	if err != nil {
		return err
	}
	if !ok {
		return lock.ErrNotHeld
	}
	return nil
}

// run sends one step: its commands one after another, stopping at the
// first whose reply is not the one declared, or its script (EVALSHA, then
// EVAL). It reports whether every declared reply came.
func (l *declared) run(ctx context.Context, st *Step) (bool, error) {
	if st.Scripted() {
		sc := l.scripts[st]
		if sc == nil {
			sc = redis.NewScript(st.Lua)
			l.scripts[st] = sc
		}
		keys, args := l.x.all(st.Keys), l.x.all(st.Args)
		argv := make([]any, len(args))
		for i, a := range args {
			argv[i] = a
		}
		reply, err := Reply(sc.Run(ctx, l.c.Redis, keys, argv...))
		if err != nil {
			return false, err
		}
		return st.OK == "" || reply == l.x.expand(st.OK), nil
	}
	for _, c := range st.Commands {
		args := l.x.all(c.Args)
		cmd := redis.NewCmd(ctx, anys(args)...)
		_ = l.c.Redis.Process(ctx, cmd)
		reply, err := Reply(cmd)
		if err != nil {
			return false, err
		}
		if c.OK != "" && reply != l.x.expand(c.OK) {
			return false, nil
		}
	}
	return true, nil
}

// fence runs the fencing command and hands its reply to the critical
// section as the lease's token.
func (l *declared) fence(ctx context.Context) error {
	cmd := redis.NewCmd(ctx, anys(l.x.all(l.s.Fencing))...)
	_ = l.c.Redis.Process(ctx, cmd)
	tok, err := cmd.Int64()
	if err != nil {
		return fmt.Errorf("fencing token: %w", err)
	}
	if l.c.Observer != nil {
		l.c.Observer.Fence(tok)
		l.c.Observer.Mark("token", &fact.Fact{Key: fact.Token, Token: tok})
	}
	return nil
}

// startExtend runs the extend every period on a thread of its own while
// the lock is held: a reply other than the declared one means the lock was
// lost, and the thread ends.
func (l *declared) startExtend() {
	if l.c.Threads == nil {
		return
	}
	run := true
	l.running = &run
	every := l.s.Every
	if every <= 0 {
		every = l.x.v.Duration("ttl") / 3
	}
	l.c.Threads.Go("extend", func(ctx context.Context) error {
		for {
			if err := l.c.Clock.Sleep(ctx, every); err != nil {
				return err
			}
			if !run {
				return nil
			}
			ok, err := l.run(ctx, l.s.Extend)
			switch {
			case err != nil && ctx.Err() != nil:
				return err
			case err != nil:
				l.mark("renew-failed", fact.Error(err))
			case !ok:
				l.mark("renew-lost", fact.New(fact.RenewLost))
				return nil
			default:
				l.mark("renewed", &fact.Fact{Key: fact.Renewed, For: l.x.v.Duration("ttl")})
			}
		}
	})
}

func (l *declared) mark(name string, f *fact.Fact) {
	if l.c.Observer != nil {
		l.c.Observer.Mark(name, f)
	}
}

// Reply writes a command's reply as a step's ok: compares it: nil for the
// nil reply, an integer in decimal, a status or bulk string as it is, an
// array as its elements blank-separated. An error reply is the error.
func Reply(cmd *redis.Cmd) (string, error) {
	v, err := cmd.Result()
	if errors.Is(err, redis.Nil) {
		return "nil", nil
	}
	if err != nil {
		return "", err
	}
	return replyText(v), nil
}

func replyText(v any) string {
	switch x := v.(type) {
	case nil:
		return "nil"
	case int64:
		return strconv.FormatInt(x, 10)
	case string:
		return x
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = replyText(e)
		}
		return strings.Join(parts, " ")
	case bool:
		if x {
			return "1"
		}
		return "nil"
	case time.Duration:
		return strconv.FormatInt(x.Milliseconds(), 10)
	}
	return fmt.Sprint(v)
}

func anys(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
