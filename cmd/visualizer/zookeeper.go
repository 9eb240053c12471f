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

// zkServer is where the ZooKeeper lessons run: a server started here
// (srv), or an external one at addr.
type zkServer struct {
	addr, where string
	srv         *zookeeper.Server // nil for an external server
}

// run plays lesson l there; a lesson that stops the server runs only on
// one started here, and is refused on an external one in both languages.
func (z *zkServer) run(ctx context.Context, l *zookeeper.Lesson) (*live.Recorder, error) {
	if z.srv != nil {
		return zookeeper.RunOn(ctx, z.srv, l)
	}
	if l.ServerPause > 0 {
		return nil, errCannotPause
	}
	return zookeeper.Run(ctx, z.addr, l)
}

// errCannotPause says, in both languages, why a lesson that stops the
// server does not run on an external one.
var errCannotPause = fmt.Errorf("%s\n%s", zookeeper.CannotPause.En, zookeeper.CannotPause.Zh)

// zookeeperServer starts or finds the server f names, and how to stop it.
// Without Java it says what to install, in both languages.
func zookeeperServer(f *zkFlag) (*zkServer, func(), error) {
	if f.where != "" {
		return &zkServer{addr: f.where, where: "external ZooKeeper at " + f.where}, func() {}, nil
	}
	srv, err := zookeeper.Start(zookeeper.Options{})
	if errors.Is(err, zookeeper.ErrNoJava) {
		return nil, nil, fmt.Errorf("%s\n%s", zookeeper.Install.En, zookeeper.Install.Zh)
	}
	if err != nil {
		return nil, nil, err
	}
	where := fmt.Sprintf("ZooKeeper started here at %s, ready in %s", srv.Addr, srv.Started.Round(1e6))
	return &zkServer{addr: srv.Addr, where: where, srv: srv}, srv.Kill, nil
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
	if l.ServerPause > 0 && f.where != "" {
		return fmt.Errorf("%s: %w", l.ID, errCannotPause)
	}
	z, stop, err := zookeeperServer(f)
	if err != nil {
		return err
	}
	defer stop()
	rec, err := z.run(ctx, l)
	if err != nil {
		return fmt.Errorf("%s: %w", l.ID, err)
	}
	if ctx.Err() != nil {
		return errInterrupted
	}
	return printLive(rec, notice(z.where), asJSON, stdout)
}

// testZooKeeper runs every ZooKeeper lesson on the server f names and
// compares its verdicts with the lesson's. On an external server a
// lesson that stops the server is skipped, and the log says why in both
// languages.
func testZooKeeper(ctx context.Context, f *zkFlag, stdout io.Writer) error {
	z, stop, err := zookeeperServer(f)
	if err != nil {
		return err
	}
	defer stop()
	fmt.Fprintf(stdout, "live: %s\n", notice(z.where))
	var ids []string
	var lessons []*zookeeper.Lesson
	for i := range zookeeper.Lessons {
		l := &zookeeper.Lessons[i]
		if l.ServerPause > 0 && z.srv == nil {
			fmt.Fprintf(stdout, "skip %s: %s\n     %s\n", l.ID, zookeeper.CannotPause.En, zookeeper.CannotPause.Zh)
			continue
		}
		ids, lessons = append(ids, l.ID), append(lessons, l)
	}
	return testLive(ctx, ids, stdout, func(i int) (*live.Recorder, []string, error) {
		rec, err := z.run(ctx, lessons[i])
		if err != nil {
			return rec, lessons[i].Expect, err
		}
		// a server pause's verdicts depend on the branch its run took
		return rec, lessons[i].Expected(rec.Events()), nil
	})
}
