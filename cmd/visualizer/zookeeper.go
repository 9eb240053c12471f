package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"strings"

	"github.com/lockstep/lockstep/internal/live"
	"github.com/lockstep/lockstep/internal/zookeeper"
)

// zkFlag is --zookeeper: alone, a ZooKeeper server started here (a JVM,
// run's default); =HOST:PORT, an external one.
type zkFlag struct {
	set   bool
	where string // "" (started here) or host:port
}

func (f *zkFlag) String() string   { return f.where }
func (f *zkFlag) IsBoolFlag() bool { return true }

func (f *zkFlag) Set(v string) error {
	f.set = true
	switch v {
	case "true", "":
		f.where = ""
		return nil
	case "false":
		f.set = false
		return nil
	}
	if _, _, err := net.SplitHostPort(v); err != nil {
		return fmt.Errorf("%q is not a ZooKeeper server's host:port", v)
	}
	f.where = v
	return nil
}

// zookeeperFlag adds --zookeeper, where the ZooKeeper lessons run, to a
// command's flags.
func zookeeperFlag(fs *flag.FlagSet) *zkFlag {
	f := &zkFlag{}
	fs.Var(f, "zookeeper", "where the ZooKeeper lessons run: alone, a real ZooKeeper started here (a JVM: run's default); =HOST:PORT, an external server; test runs the ZooKeeper lessons only with it")
	return f
}

// zookeeperServer starts or finds the server f names: its address, what
// the runs call it, and how to stop it. Without Java it says what to
// install, in both languages.
func zookeeperServer(f *zkFlag) (addr, where string, stop func(), err error) {
	if f.where != "" {
		return f.where, "external ZooKeeper at " + f.where, func() {}, nil
	}
	srv, err := zookeeper.Start(zookeeper.Options{})
	if errors.Is(err, zookeeper.ErrNoJava) {
		return "", "", nil, fmt.Errorf("%s\n%s", zookeeper.Install.En, zookeeper.Install.Zh)
	}
	if err != nil {
		return "", "", nil, err
	}
	return srv.Addr, fmt.Sprintf("ZooKeeper started here at %s, ready in %s", srv.Addr, srv.Started.Round(1e6)), srv.Kill, nil
}

// listZooKeeper prints ZooKeeper's lock as list --algorithms prints a
// lock of the registry: no report-card row yet ("-"), its library, its
// lessons.
func listZooKeeper(w io.Writer) {
	ids := make([]string, len(zookeeper.Lessons))
	for i, l := range zookeeper.Lessons {
		ids[i] = l.ID
	}
	fmt.Fprintf(w, "-\t%s\tZooKeeper's lock recipe (ephemeral sequential nodes), real time on a real ZooKeeper (%s)\t%s\n",
		zookeeper.AlgorithmID, zookeeper.Library, strings.Join(ids, ", "))
}

// runZooKeeper prints one ZooKeeper lesson's log and its verdict, as run
// does a scenario's.
func runZooKeeper(ctx context.Context, l *zookeeper.Lesson, f *zkFlag, asJSON bool, stdout io.Writer) error {
	addr, where, stop, err := zookeeperServer(f)
	if err != nil {
		return err
	}
	defer stop()
	rec, err := zookeeper.Run(ctx, addr, l)
	if err != nil {
		return fmt.Errorf("%s: %w", l.ID, err)
	}
	if ctx.Err() != nil {
		return errInterrupted
	}
	return printLive(rec, notice(where), asJSON, stdout)
}

// testZooKeeper runs every ZooKeeper lesson on the server f names and
// compares its verdicts with the lesson's.
func testZooKeeper(ctx context.Context, f *zkFlag, stdout io.Writer) error {
	addr, where, stop, err := zookeeperServer(f)
	if err != nil {
		return err
	}
	defer stop()
	fmt.Fprintf(stdout, "live: %s\n", notice(where))
	ids := make([]string, len(zookeeper.Lessons))
	for i, l := range zookeeper.Lessons {
		ids[i] = l.ID
	}
	return testLive(ctx, ids, stdout, func(i int) (*live.Recorder, []string, error) {
		rec, err := zookeeper.Run(ctx, addr, &zookeeper.Lessons[i])
		return rec, zookeeper.Lessons[i].Expect, err
	})
}
