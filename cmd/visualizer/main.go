// Command visualizer runs Lockstep: the browser app (serve, the default),
// and the headless runner (list, run, test, check).
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		if err != errFailed {
			fmt.Fprintln(os.Stderr, "visualizer:", err)
		}
		os.Exit(1)
	}
}

// errFailed ends the process with status 1 after output that already said why.
var errFailed = fmt.Errorf("failed")

const usage = `usage: visualizer [command] [flags]

commands:
  serve [--addr 127.0.0.1:8080] [--dev] [--file F]   the browser app (the default)
  list  [--file F]                                   one scenario per line: id, then title
  run ID [--seed N] [--json] [--file F]              one line per event, then the verdict
  test  [--file F]                                   run every scenario, compare verdicts
  serve, run and test take --redis redis://HOST:PORT[,...] (one URL per node) to
  use real Redis servers instead of embedded ones; see docs/real-redis.md
  check FILE...                                      validate scenario files
  explore ID|--file F [--strategy random|pct|exhaustive] [--budget pause:5s,...]
        [--time 10s] [--seed N] [--want V,...] [--neutral] [--json]   search the schedules for a violation
  compare ID [--with ALGORITHM|ID2] [--seed N] [--file F] [--json]   two runs under one schedule, row by row
        (default --with: ID's canonical pair; exit 0 when compared, 1 when it could not be; docs/compare.md)
`

// run is the whole program, with its IO passed in.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cmd := "serve"
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		return cmdServe(ctx, args, getenv, stdout, stderr)
	case "list":
		return cmdList(args, stdout, stderr)
	case "run":
		return cmdRun(args, stdout, stderr)
	case "test":
		return cmdTest(args, stdout, stderr)
	case "check":
		return cmdCheck(args, stdout, stderr)
	case "explore":
		return cmdExplore(ctx, args, stdout, stderr)
	case "compare":
		return cmdCompare(args, stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", cmd)
}
