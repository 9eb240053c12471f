package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/lockstep/lockstep/internal/embedded"
	"github.com/lockstep/lockstep/internal/etcd"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
	"github.com/lockstep/lockstep/internal/zookeeper"
)

// cmdList prints one line per scenario: its id, a tab, its title.
func cmdList(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("list", stderr)
	file := fs.String("file", "", "scenario file (default: the built-in catalog)")
	algorithms := fs.Bool("algorithms", false, "list the lock algorithms instead, each with the scenarios that run it")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return badUsage("list takes no arguments, got %q", fs.Arg(0))
	}
	f, err := loadFile(*file)
	if err != nil {
		return err
	}
	if *algorithms {
		listAlgorithms(stdout, f.Scenarios)
		listEtcd(stdout)
		listZooKeeper(stdout)
		return nil
	}
	for _, s := range f.Scenarios {
		fmt.Fprintf(stdout, "%s\t%s\n", sim.Escape(s.ID), sim.Escape(s.Title.En))
	}
	if *file == "" {
		listLive(stdout)
	}
	return nil
}

// listLive prints the lessons that run in real time on a live server,
// after the catalog's, each saying where it runs; a ZooKeeper lesson on a
// machine without Java says what to install.
func listLive(w io.Writer) {
	for _, l := range etcd.Lessons {
		fmt.Fprintf(w, "%s\t%s (in real time, on etcd)\n", l.ID, l.Title.En)
	}
	needs := ""
	if zookeeper.Available() != nil {
		needs = "; " + zookeeper.NeedsJava.En + ": apt-get install default-jre-headless libzookeeper-java"
	}
	for _, l := range zookeeper.Lessons {
		fmt.Fprintf(w, "%s\t%s (in real time, on ZooKeeper%s)\n", l.ID, l.Title.En, needs)
	}
}

// listAlgorithms prints one line per lock algorithm of the registry, in
// catalog order: its row, its id, its title, the library and version it
// runs as it is (rows 18-19), and the scenarios of scs whose clients run
// it.
func listAlgorithms(w io.Writer, scs []scenario.Scenario) {
	for _, a := range lock.Algorithms {
		var ids []string
		for i := range scs {
			if slices.ContainsFunc(scs[i].Clients, func(c scenario.Client) bool { return c.Algorithm == a.ID }) {
				ids = append(ids, sim.Escape(scs[i].ID))
			}
		}
		lessons := "no scenario"
		if len(ids) > 0 {
			lessons = strings.Join(ids, ", ")
		}
		lib := ""
		if a.Library != nil {
			lib = fmt.Sprintf(" (%s %s, %s)", a.Library.Module, a.Library.Version, a.Library.License)
		}
		fmt.Fprintf(w, "%d\t%s\t%s%s\t%s\n", a.Row, a.ID, a.Title, lib, lessons)
	}
}

// cmdRun prints one scenario's event log and its verdict.
func cmdRun(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := newFlags("run", stderr)
	file := fs.String("file", "", "scenario file (default: the built-in catalog)")
	seed := fs.Int64("seed", 0, "random seed (default: the scenario's own)")
	asJSON := fs.Bool("json", false, "print JSON Lines")
	chosen := redisFlags(fs, getenv)
	etcdAt := etcdFlag(fs)
	zkAt := zookeeperFlag(fs)
	pos, err := interleave(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return badUsage("run takes one scenario id (see visualizer list)")
	}
	if l, ok := etcd.Find(pos[0]); ok && *file == "" {
		return runEtcd(ctx, l, *etcdAt, *asJSON, stdout)
	}
	if l, ok := zookeeper.Find(pos[0]); ok && *file == "" {
		return runZooKeeper(ctx, l, zkAt, *asJSON, stdout)
	}
	f, err := loadFile(*file)
	if err != nil {
		return err
	}
	sc, err := findScenario(f, pos[0], *file)
	if err != nil {
		return err
	}
	s := sc.Seed
	if isSet(fs, "seed") {
		s = *seed
	}
	servers, err := chosen("")
	if err != nil {
		return err
	}
	// The scenario's recorded schedule, if any, is replayed as the browser
	// replays it: a recording saved there prints the same log here.
	r, err := lesson.New(sc, lesson.Config{Seed: s, Servers: placement(servers), Yield: stopOn(ctx)})
	if err != nil {
		return fmt.Errorf("%s: %w", sc.ID, err)
	}
	defer r.Close()
	if err := r.RunToEnd(); err != nil && r.World.Lost() == nil {
		return fmt.Errorf("%s: %w", sc.ID, err)
	}
	return printRun(ctx, sc.ID, r, *asJSON, stdout)
}

// printRun prints a run's log, then how it ended: as text, or as JSON
// Lines (one event a line, then one object with its verdicts, and where
// the run reached its cap of steps or a lock key was kept).
func printRun(ctx context.Context, id string, r *lesson.Run, asJSON bool, stdout io.Writer) error {
	enc := json.NewEncoder(stdout)
	for i, e := range r.World.Log() {
		if i%1024 == 0 && ctx.Err() != nil {
			return errInterrupted
		}
		if asJSON {
			if err := enc.Encode(e); err != nil {
				return err
			}
		} else {
			fmt.Fprintln(stdout, e.String())
		}
	}
	if err := r.World.Lost(); err != nil {
		// The log ends with the error event; no verdict holds for a run
		// cut there.
		return fmt.Errorf("%s: the run stopped at step %d: %w", id, r.World.Steps(), err)
	}
	capped := ""
	if r.World.Capped() {
		capped = fmt.Sprintf("the run reached the cap of %d steps at %s before it ended: the verdict covers those steps only", r.World.Steps(), r.World.Now())
	}
	if asJSON {
		end := map[string]any{"verdict": r.Verdicts()}
		if capped != "" {
			end["stopped"] = capped
		}
		if kept := r.Checker.Kept(); len(kept) > 0 {
			end["kept"] = kept
		}
		return enc.Encode(end)
	}
	if capped != "" {
		fmt.Fprintf(stdout, "stopped: %s\n", capped)
	}
	for _, k := range r.Checker.Kept() {
		fmt.Fprintf(stdout, "kept: %s\n", sim.Escape(k.Say.En)) // names a lock key: one line, whatever it holds
	}
	fmt.Fprintf(stdout, "verdict: %s\n", strings.Join(r.Verdicts(), ", "))
	return nil
}

// cmdTest runs every scenario and compares its verdicts with its expect:.
func cmdTest(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := newFlags("test", stderr)
	file := fs.String("file", "", "scenario file (default: the built-in catalog)")
	chosen := redisFlags(fs, getenv)
	etcdAt := etcdFlag(fs)
	zkAt := zookeeperFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return badUsage("test takes no arguments, got %q", fs.Arg(0))
	}
	if *etcdAt != "" {
		return testEtcd(ctx, *etcdAt, stdout)
	}
	if zkAt.set {
		return testZooKeeper(ctx, zkAt, stdout)
	}
	f, err := loadFile(*file)
	if err != nil {
		return err
	}
	servers, err := chosen("")
	if err != nil {
		return err
	}
	results := allVerdicts(ctx, f, servers)
	passed, failed := 0, 0
	for i := range f.Scenarios {
		sc := &f.Scenarios[i]
		got, err := results[i].got, results[i].err
		want, why := sc.Expect, ""
		if servers != nil {
			want = sc.ExpectOnRealRedis()
			if sc.RealRedis != nil {
				why = " (on real Redis: " + sc.RealRedis.Why.En + ")"
			}
		}
		switch {
		case err != nil:
			failed++
			fmt.Fprintf(stdout, "FAIL %s: %v\n", sc.ID, err)
		case len(want) == 0:
			failed++
			fmt.Fprintf(stdout, "FAIL %s: no expect: to compare with (the run ended %s): test needs the verdicts a scenario must end with\n", sc.ID, strings.Join(got, ", "))
		case !lesson.SameVerdicts(got, want):
			failed++
			fmt.Fprintf(stdout, "FAIL %s: got %s, want %s%s\n", sc.ID, strings.Join(got, ", "), strings.Join(want, ", "), why)
		default:
			passed++
			fmt.Fprintf(stdout, "ok   %s: %s%s\n", sc.ID, strings.Join(got, ", "), why)
		}
	}
	fmt.Fprintf(stdout, "%d passed, %d failed\n", passed, failed)
	if ctx.Err() != nil {
		return errInterrupted
	}
	if failed > 0 {
		return errFailed
	}
	return nil
}

// fileArgs is check's list of files, which may also be written as the
// other commands take a file (--file PATH, -file PATH, --file=PATH): a
// user who types check --file my.yaml means my.yaml, not a file named
// "--file".
func fileArgs(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--file" || a == "-file":
			continue
		case strings.HasPrefix(a, "--file="), strings.HasPrefix(a, "-file="):
			_, a, _ = strings.Cut(a, "=")
		}
		out = append(out, a)
	}
	return out
}

// cmdCheck validates scenario files and replays their recorded schedules.
func cmdCheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	args = fileArgs(args)
	if len(args) == 0 {
		return badUsage("check takes one or more scenario files")
	}
	bad := false
	for _, path := range args {
		if ctx.Err() != nil {
			return errInterrupted
		}
		// Every problem of every file, one per line: FILE:LINE:COL: message.
		f, err := scenario.Load(path)
		if err != nil {
			fmt.Fprintln(stdout, err)
			bad = true
			continue
		}
		// A recorded schedule must replay: each manual step finds its
		// client with a move to make, each fault applies.
		replayed := true
		for i := range f.Scenarios {
			sc := &f.Scenarios[i]
			if len(sc.Schedule) == 0 {
				continue
			}
			if ctx.Err() != nil {
				return errInterrupted
			}
			_, err := verdictsOf(ctx, sc, embedded.Servers{})
			if errors.Is(err, errInterrupted) {
				return errInterrupted
			}
			if err != nil && !errors.Is(err, lesson.ErrStepCap) {
				fmt.Fprintf(stdout, "%s: scenario %s: schedule: %s\n", path, sim.Escape(sc.ID), sim.Escape(err.Error()))
				replayed, bad = false, true
			}
		}
		// What runs otherwise than written: said, not refused.
		if data, err := os.ReadFile(path); err == nil {
			for _, w := range scenario.Warnings(path, data) {
				fmt.Fprintf(stdout, "%s:%d:%d: warning: %s\n", w.File, w.Line, w.Col, sim.Escape(w.Msg))
			}
		}
		if replayed {
			fmt.Fprintf(stdout, "%s: ok, %d scenarios\n", path, len(f.Scenarios))
		}
	}
	if bad {
		return errFailed
	}
	return nil
}
