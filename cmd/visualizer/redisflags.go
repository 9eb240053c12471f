package main

import (
	"context"
	"flag"
	"os"
	"strings"
	"sync"

	"github.com/lockstep/lockstep/internal/embedded"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/realredis"
	"github.com/lockstep/lockstep/internal/scenario"
)

// passwordEnv is the environment variable that may hold the Redis
// password, so that it need not be in argv (which ps shows).
const passwordEnv = "LOCKSTEP_REDIS_PASSWORD"

// redisFlags adds --redis, --redis-password-file, --allow-remote and
// --allow-shared-db to a command; the function it returns gives the
// servers the flags choose (nil: embedded Redis), after the flags are
// parsed. A long-lived process names itself with instance (see
// realredis.NewServersFor); "" for none.
func redisFlags(fs *flag.FlagSet, getenv func(string) string) func(instance string) (*realredis.Servers, error) {
	urls := fs.String("redis", "", "real Redis servers instead of embedded ones: redis://[USER@]HOST:PORT[,...], one URL per node, in the scenario's node order")
	pwFile := fs.String("redis-password-file", "", "with --redis: read the servers' password from this file (its first line), not the URL; or set "+passwordEnv)
	remote := fs.Bool("allow-remote", false, "with --redis: allow servers outside loopback")
	shared := fs.Bool("allow-shared-db", false, "with --redis: use servers whose keyspace is not empty (Lockstep touches only keys under "+realredis.PrefixRoot+")")
	return func(instance string) (*realredis.Servers, error) {
		if *urls == "" {
			return nil, nil
		}
		targets, err := realredis.ParseURLs(*urls, *remote)
		if err != nil {
			return nil, err
		}
		if err := givePassword(targets, *pwFile, getenv(passwordEnv)); err != nil {
			return nil, err
		}
		return realredis.NewServersFor(targets, *shared, instance)
	}
}

// givePassword sets the password of every target from the file path's
// first line or else from env: one password for every server, given in
// one place only (a URL that holds one as well is refused).
func givePassword(targets []realredis.Target, path, env string) error {
	pw, from := env, "$"+passwordEnv
	if path != "" {
		b, err := os.ReadFile(path)
		if err != nil {
			return badUsage("--redis-password-file: %v", err)
		}
		line, _, _ := strings.Cut(string(b), "\n")
		pw, from = strings.TrimSuffix(line, "\r"), "--redis-password-file"
		if pw == "" {
			return badUsage("--redis-password-file %s: its first line is empty", path)
		}
	}
	if pw == "" {
		return nil
	}
	for i := range targets {
		if targets[i].Password != "" {
			return badUsage("%s: %s gives a password too: give it in one place", targets[i].URL, from)
		}
		targets[i].Password = pw
	}
	return nil
}

// placement turns chosen servers into what lesson takes: embedded Redis
// when none were chosen.
func placement(s *realredis.Servers) lesson.Servers {
	if s == nil {
		return embedded.Servers{}
	}
	return s
}

// verdictsOf runs a scenario to its end on servers, playing its recorded
// schedule, and gives its verdicts; it stops with errInterrupted once ctx
// ends.
func verdictsOf(ctx context.Context, sc *scenario.Scenario, servers lesson.Servers) ([]string, error) {
	r, err := lesson.New(sc, lesson.Config{Seed: sc.Seed, Servers: servers, Yield: stopOn(ctx)})
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if err := r.RunToEnd(); err != nil {
		return nil, err
	}
	// A run the step cap stopped gives the verdicts of the steps it ran,
	// with ErrStepCap.
	return r.Verdicts(), r.Cut()
}

// stopOn is a run's Config.Yield that ends it (RunToEnd returns
// errInterrupted) once ctx ends, as SIGINT or SIGTERM end it: a run stops
// within a few engine steps rather than at main's grace.
func stopOn(ctx context.Context) func(*lesson.Run) error {
	return func(*lesson.Run) error { return interrupted(ctx) }
}

// interrupted is errInterrupted once ctx has ended, else nil.
func interrupted(ctx context.Context) error {
	if ctx.Err() != nil {
		return errInterrupted
	}
	return nil
}

// verdict is one scenario's outcome in `visualizer test`.
type verdict struct {
	got []string
	err error
}

// allVerdicts runs every scenario of f. On real servers they run
// realredis.ConcurrentRuns at a time (each under its own key prefix): they
// mostly wait on the wall clock.
func allVerdicts(ctx context.Context, f *scenario.File, servers *realredis.Servers) []verdict {
	out := make([]verdict, len(f.Scenarios))
	if servers == nil {
		for i := range f.Scenarios {
			sc := &f.Scenarios[i]
			if out[i].err = ctx.Err(); out[i].err != nil {
				continue // interrupted: the rest are not run
			}
			out[i].got, out[i].err = verdictsOf(ctx, sc, embedded.Servers{})
		}
		return out
	}
	var wg sync.WaitGroup
	slots := make(chan struct{}, realredis.ConcurrentRuns)
	for i := range f.Scenarios {
		wg.Add(1)
		go func() {
			defer wg.Done()
			slots <- struct{}{}
			defer func() { <-slots }()
			sc := &f.Scenarios[i]
			if out[i].err = ctx.Err(); out[i].err != nil {
				return // interrupted: the rest are not run
			}
			out[i].got, out[i].err = verdictsOf(ctx, sc, servers)
		}()
	}
	wg.Wait()
	return out
}
