package userlock

import (
	"context"
	"errors"
	"fmt"
	"slices"
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

// Declare makes the lock.Info of a declared lock: its parameters key,
// ttl, retry, retry_jitter and acquire_timeout (with the spec's defaults,
// under the catalog's names) and its own, and the code that runs its
// steps.
func Declare(s *Spec) *lock.Info {
	params := append([]lock.Param{
		{Name: "key", Kind: lock.Str, Default: s.Key, Doc: "the lock key ($key)"},
		{Name: "ttl", Kind: lock.Dur, Default: s.TTL, Doc: "the lease ($ttl in ms, $ttl_s in seconds)"},
		{Name: "retry", Kind: lock.Dur, Default: s.Retry, Doc: "the wait between acquire attempts"},
		{Name: "retry_jitter", Kind: lock.Dur, Default: s.RetryJitter, Doc: "extra random wait in [0, retry_jitter)"},
		{Name: "acquire_timeout", Kind: lock.Dur, Default: s.AcquireTimeout, Doc: "give up acquiring after this long (0: never)"},
	}, s.Params...)
	s.Code() // numbers the lines the code view lights
	a := &lock.Info{ID: s.Name, Title: s.Name, Seed: s.Source, Fencing: len(s.Fencing) > 0, Marks: Marks, FlawAfter: flawAfter(s)}
	return lock.Declare(a, params, func(c lock.Config, v *lock.Values) lock.Locker {
		return &declared{s: s, c: c, x: expander{token: c.Owner, v: v}, scripts: map[*Step]*redis.Script{}}
	})
}

// flawAfter are the declared lock's points between round trips of one
// step: every command of an acquire or a release but its last, which the
// client sends and waits for before it sends the next (a SETNX before its
// PEXPIRE, a GET before its DEL). What the step decided can change
// there; a fault of the report card may land right after one
// (lock.Info.FlawAfter). A script is one round trip: it has none.
func flawAfter(s *Spec) []string {
	var out []string
	for _, st := range []*Step{&s.Acquire, &s.Release} {
		for i, c := range st.Commands {
			if i == len(st.Commands)-1 || len(c.Args) == 0 || strings.EqualFold(c.Args[0], "MULTI") {
				continue
			}
			name := strings.ToUpper(c.Args[0])
			if !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	return out
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
	v := l.x.v
	b := lock.Backoff{Retry: v.Duration("retry"), RetryJitter: v.Duration("retry_jitter"), AcquireTimeout: v.Duration("acquire_timeout")}
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
		reply, err := Reply(sc.Run(l.site(ctx, st.Line), l.c.Redis, keys, argv...))
		if err != nil {
			return false, err
		}
		return st.OK == "" || reply == l.x.expand(st.OK), nil
	}
	if len(st.Watch) == 0 {
		return l.commands(ctx, l.c.Redis, st.Commands)
	}
	var ok bool
	err := l.c.Redis.Watch(ctx, func(tx *redis.Tx) error {
		var err error
		ok, err = l.commands(ctx, tx, st.Commands)
		return err
	}, l.x.all(st.Watch)...)
	if errors.Is(err, redis.TxFailedErr) {
		return false, nil // a watched key changed: EXEC discarded the transaction
	}
	return ok, err
}

// processor sends one command: a client, or a WATCHed connection.
type processor interface {
	Process(ctx context.Context, cmd redis.Cmder) error
}

// txPipeliner is a WATCHed connection, which sends MULTI … EXEC.
type txPipeliner interface {
	TxPipelined(ctx context.Context, fn func(redis.Pipeliner) error) ([]redis.Cmder, error)
}

// commands sends cmds one after another on r, stopping at the first whose
// reply is not the declared one; on a WATCHed connection the commands
// between MULTI and EXEC go as one transaction, and their replies are
// compared once EXEC has answered.
func (l *declared) commands(ctx context.Context, r processor, cmds []Command) (bool, error) {
	for i := 0; i < len(cmds); i++ {
		c := cmds[i]
		if len(c.Args) == 0 {
			continue
		}
		if tx, ok := r.(txPipeliner); ok && strings.EqualFold(c.Args[0], "MULTI") {
			j := i + 1
			for j < len(cmds) && (len(cmds[j].Args) == 0 || !strings.EqualFold(cmds[j].Args[0], "EXEC")) {
				j++
			}
			ok, err := l.transaction(ctx, tx, cmds[i+1:j])
			if err != nil || !ok {
				return ok, err
			}
			i = j
			continue
		}
		cmd := redis.NewCmd(ctx, anys(l.x.all(c.Args))...)
		_ = r.Process(l.site(ctx, c.Line), cmd)
		if ok, err := l.replied(cmd, c.OK); err != nil || !ok {
			return ok, err
		}
	}
	return true, nil
}

// transaction sends cmds as MULTI … EXEC on a WATCHed connection.
func (l *declared) transaction(ctx context.Context, tx txPipeliner, cmds []Command) (bool, error) {
	sent := make([]*redis.Cmd, len(cmds))
	line := 0
	if len(cmds) > 0 {
		line = cmds[0].Line
	}
	_, err := tx.TxPipelined(l.site(ctx, line), func(p redis.Pipeliner) error {
		for k, c := range cmds {
			sent[k] = redis.NewCmd(ctx, anys(l.x.all(c.Args))...)
			_ = p.Process(ctx, sent[k])
		}
		return nil
	})
	if errors.Is(err, redis.TxFailedErr) {
		return false, err
	}
	for k, c := range cmds {
		if ok, err := l.replied(sent[k], c.OK); err != nil || !ok {
			return ok, err
		}
	}
	return true, nil
}

// replied reports whether cmd's reply is the declared one (any reply but
// an error when none is declared).
func (l *declared) replied(cmd *redis.Cmd, want string) (bool, error) {
	reply, err := Reply(cmd)
	if err != nil {
		return false, err
	}
	return want == "" || reply == l.x.expand(want), nil
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

// site is ctx with the code view's line of the lock's declaration for
// the commands sent with it.
func (l *declared) site(ctx context.Context, line int) context.Context {
	if l.c.Site == nil || line <= 0 {
		return ctx
	}
	return l.c.Site(ctx, l.s.File(), line)
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
