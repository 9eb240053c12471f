package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/lockstep/lockstep/internal/etcd"
	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/live"
)

// etcdFlag adds --etcd, where the etcd lessons run, to a command's flags.
func etcdFlag(fs *flag.FlagSet) *string {
	return fs.String("etcd", "", `where the etcd lessons run: "embedded" (a real etcd in this process, run's default) or an external server's client URL (http://127.0.0.1:2379); test runs the etcd lessons only with it`)
}

// etcdServer starts or finds the etcd server a command's --etcd names.
func etcdServer(where string) (*etcd.Server, error) {
	if where == "" || where == "embedded" {
		return etcd.StartEmbedded()
	}
	return etcd.External(where)
}

// etcdProcess starts an etcd server process for lesson l, which stops its
// server: refused on an external server, and without the etcd server
// program it says what to install; both in English and Chinese.
func etcdProcess(where string) (*etcd.Server, error) {
	if where != "" && where != "embedded" {
		return nil, fmt.Errorf("%s\n%s", etcd.CannotPause.En, etcd.CannotPause.Zh)
	}
	srv, err := etcd.StartProcess()
	if errors.Is(err, etcd.ErrNoBinary) {
		return nil, fmt.Errorf("%s\n%s", etcd.Install.En, etcd.Install.Zh)
	}
	return srv, err
}

// etcdServerFor is the server lesson l runs on: a process of its own for
// a lesson that stops its server, else the one where names.
func etcdServerFor(l *etcd.Lesson, where string) (*etcd.Server, error) {
	if l.StopsServer() {
		return etcdProcess(where)
	}
	return etcdServer(where)
}

// listEtcd prints etcd's lock as list --algorithms prints a lock of the
// registry: no report-card row yet ("-"), its library, its lessons.
func listEtcd(w io.Writer) {
	ids := make([]string, len(etcd.Lessons))
	for i, l := range etcd.Lessons {
		ids[i] = l.ID
	}
	fmt.Fprintf(w, "-\t%s\tetcd's concurrency.Mutex, real time (%s)\t%s\n", etcd.AlgorithmID, etcd.Library, strings.Join(ids, ", "))
}

// realTime is the notice every real-time run prints first.
func realTime(srv *etcd.Server) string {
	where := "external etcd at " + srv.Addr
	switch {
	case srv.Embedded:
		where = "embedded etcd at " + srv.Addr
	case srv.Stoppable():
		where = "an etcd process started here at " + srv.Addr
	}
	return notice(where)
}

// notice is the real-time notice with where the run is.
func notice(where string) string {
	n := fact.Fact{Key: fact.RealTime}
	return fmt.Sprintf("%s (%s)", n.Render().En, where)
}

// runEtcd prints one etcd lesson's log and its verdict, as run does a
// scenario's.
func runEtcd(ctx context.Context, l *etcd.Lesson, where string, asJSON bool, stdout io.Writer) error {
	srv, err := etcdServerFor(l, where)
	if err != nil {
		return fmt.Errorf("%s: %w", l.ID, err)
	}
	defer srv.Close()
	rec, err := etcd.Run(ctx, srv, l)
	if err != nil {
		return fmt.Errorf("%s: %w", l.ID, err)
	}
	if ctx.Err() != nil {
		return errInterrupted
	}
	return printLive(rec, realTime(srv), asJSON, stdout)
}

// printLive prints a real-time run's log and its verdict, after the
// real-time notice (in JSON Lines: the events, then the verdict with the
// notice).
func printLive(rec *live.Recorder, where string, asJSON bool, stdout io.Writer) error {
	enc := json.NewEncoder(stdout)
	if !asJSON {
		fmt.Fprintf(stdout, "live: %s\n", where)
	}
	for _, e := range rec.Events() {
		if asJSON {
			if err := enc.Encode(e); err != nil {
				return err
			}
			continue
		}
		fmt.Fprintln(stdout, e.String())
	}
	if asJSON {
		return enc.Encode(map[string]any{"verdict": rec.Verdicts(), "live": where})
	}
	fmt.Fprintf(stdout, "verdict: %s\n", strings.Join(rec.Verdicts(), ", "))
	return nil
}

// testEtcd runs every etcd lesson on the server where names and compares
// its verdicts with the lesson's. A lesson that stops its server runs on
// an etcd process of its own; on an external server, or without the etcd
// server program, it is skipped, and the log says why in both languages.
func testEtcd(ctx context.Context, where string, stdout io.Writer) error {
	srv, err := etcdServer(where)
	if err != nil {
		return err
	}
	defer srv.Close()
	fmt.Fprintf(stdout, "live: %s\n", realTime(srv))
	var lessons []*etcd.Lesson
	var ids []string
	for i := range etcd.Lessons {
		l := &etcd.Lessons[i]
		if l.StopsServer() {
			if why := etcdSkip(where); why != nil {
				fmt.Fprintf(stdout, "skip %s: %s\n     %s\n", l.ID, why.En, why.Zh)
				continue
			}
		}
		lessons, ids = append(lessons, l), append(ids, l.ID)
	}
	return testLive(ctx, ids, stdout, func(i int) (*live.Recorder, []string, error) {
		on := srv
		if lessons[i].StopsServer() {
			own, err := etcdProcess(where)
			if err != nil {
				return nil, lessons[i].Expect, err
			}
			defer own.Close()
			on = own
		}
		rec, err := etcd.Run(ctx, on, lessons[i])
		if err != nil || rec == nil {
			return rec, lessons[i].Expect, err
		}
		return rec, lessons[i].Expected(rec.Events()), nil // a restart's verdict is its branch's
	})
}

// etcdSkip says why a lesson that stops its server cannot run with
// --etcd where: an external server, or no etcd server program here.
func etcdSkip(where string) *fact.Text {
	switch {
	case where != "" && where != "embedded":
		return &fact.Text{En: etcd.CannotPause.En, Zh: etcd.CannotPause.Zh}
	case etcd.Available() != nil:
		return &fact.Text{En: etcd.Install.En, Zh: etcd.Install.Zh}
	}
	return nil
}

// testLive runs lessons ids one after the other (play runs the i-th) and
// compares each one's verdicts with its own.
func testLive(ctx context.Context, ids []string, stdout io.Writer, play func(i int) (*live.Recorder, []string, error)) error {
	passed, failed := 0, 0
	for i, id := range ids {
		rec, want, err := play(i)
		switch {
		case ctx.Err() != nil:
			return errInterrupted
		case err != nil:
			failed++
			fmt.Fprintf(stdout, "FAIL %s: %v\n", id, err)
		case !lesson.SameVerdicts(rec.Verdicts(), want):
			failed++
			fmt.Fprintf(stdout, "FAIL %s: got %s, want %s\n", id, strings.Join(rec.Verdicts(), ", "), strings.Join(want, ", "))
		default:
			passed++
			fmt.Fprintf(stdout, "ok   %s: %s\n", id, strings.Join(rec.Verdicts(), ", "))
		}
	}
	fmt.Fprintf(stdout, "%d passed, %d failed\n", passed, failed)
	if failed > 0 {
		return errFailed
	}
	return nil
}
