// Command visualizer runs Lockstep: the browser app (serve, the default),
// and the headless runner (list, run, test, check, explore, docs).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/lockstep/lockstep/internal/server"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	done := make(chan int, 1)
	go func() { done <- exitCode(run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr), os.Stderr) }()
	select {
	case code := <-done:
		os.Exit(code)
	case <-ctx.Done():
	}
	// SIGINT or SIGTERM: every command stops at its next look at ctx (a
	// search, a run, a test, a check or a comparison within a few engine
	// steps, serve after its sockets' goodbyes); one that has not ended
	// within its grace (a file being read, a step waiting for a real
	// server's reply) ends here. A second signal ends the process at once.
	stop()
	select {
	case code := <-done:
		os.Exit(code)
	case <-time.After(grace(os.Args[1:])):
		fmt.Fprintln(os.Stderr, "visualizer: interrupted")
		os.Exit(1)
	}
}

// grace is how long a command may take to stop after SIGINT or SIGTERM:
// serve its documented shutdown (docs/protocol.md), any other a second in
// all.
func grace(args []string) time.Duration {
	if len(args) == 0 || args[0] == "serve" || strings.HasPrefix(args[0], "-") {
		return server.ShutdownWait + 500*time.Millisecond
	}
	return 750 * time.Millisecond
}

// errInterrupted ends a command that SIGINT or SIGTERM stopped.
var errInterrupted = errors.New("interrupted")

// errFailed ends the process with status 1 after output that already said why.
var errFailed = fmt.Errorf("failed")

// usageError is a command line the program cannot read: an unknown
// command or flag, a flag value of the wrong type, arguments missing or
// left over. It ends the process with status 2, as Go's flag package
// does. printed tells that the flag package has already said why, with
// the command's flags.
type usageError struct {
	err     error
	printed bool
}

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// badUsage is a usageError that still has to be said.
func badUsage(format string, args ...any) error {
	return &usageError{err: fmt.Errorf(format, args...)}
}

// exitCode says how the process ends after run returned err, and says
// err on stderr unless it has been said: 0 when all went well or help was
// asked for, 2 for a command line it cannot read, 1 for any other failure.
func exitCode(err error, stderr io.Writer) int {
	var usage *usageError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errFailed):
		return 1
	case errors.As(err, &usage):
		if !usage.printed {
			fmt.Fprintln(stderr, "visualizer:", err)
		}
		return 2
	}
	fmt.Fprintln(stderr, "visualizer:", err)
	return 1
}

const usage = `usage: visualizer [command] [flags]

commands:
  serve [--addr 127.0.0.1:8080] [--dev] [--file F]   the browser app (the default)
        [--per-address N] [--trust-proxy CIDR,...]   limits per client address (docs/protocol.md)
  list  [--file F]                                   one scenario per line: id, then title
  run ID [--seed N] [--json] [--file F]              one line per event, then the verdict
  test  [--file F]                                   run every scenario, compare verdicts
  serve, run and test take --redis redis://HOST:PORT[,...] (one URL per node) to
  use real Redis servers instead of embedded ones, and --redis-password-file F
  (or $LOCKSTEP_REDIS_PASSWORD) for a password kept out of argv; see docs/real-redis.md
  check FILE...                                      validate scenario files
  explore ID|--file F [--strategy random|pct|exhaustive] [--budget pause:5s,...]
        [--time 10s] [--seed N] [--want V,...] [--neutral] [--json]   search the schedules for a violation
  compare ID [--with ALGORITHM|ID2] [--seed N] [--file F] [--json]   two runs under one schedule, row by row
        (default --with: ID's canonical pair; exit 0 when compared, 1 when it could not be; docs/compare.md)
  report [--json] [--lang zh] [--only LOCK,...] [--cell LOCK/COLUMN] [--markdown] [--yaml]
        every lock against every fault, each cell decided by a schedule search (docs/choosing-a-lock.md)
  report --file F [--scenario ID] [--only LOCK,...] [--faults COLUMN,...] [--json|--markdown|--yaml]
        the card for your setup: your locks and every catalog lock in your scenario's workload, and what to use instead
  docs  [--out F]                                    docs/lessons.md, from the lock catalog and scenarios.yaml

exit status: 0 when all went well, 1 when something failed (a scenario's
verdicts, a file's problems, an error), 2 for a command line it cannot read.
`

// run is the whole program, with its IO passed in.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cmd := "serve" // the default: visualizer --addr :9000 serves
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || len(args[0]) > 0 && args[0][0] != '-') {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		return cmdServe(ctx, args, getenv, stdout, stderr)
	case "list":
		return cmdList(args, stdout, stderr)
	case "run":
		return cmdRun(ctx, args, getenv, stdout, stderr)
	case "test":
		return cmdTest(ctx, args, getenv, stdout, stderr)
	case "check":
		return cmdCheck(ctx, args, stdout, stderr)
	case "explore":
		return cmdExplore(ctx, args, stdout, stderr)
	case "compare":
		return cmdCompare(ctx, args, stdout, stderr)
	case "report":
		return cmdReport(ctx, args, getenv, stdout, stderr)
	case "docs":
		return cmdDocs(args, stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return badUsage("unknown command %q", cmd)
}
