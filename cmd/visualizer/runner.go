package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
)

// loadFile reads --file, or the built-in catalog when it is empty.
func loadFile(path string) (*scenario.File, error) {
	if path == "" {
		return scenario.ParseBuiltin("scenarios.yaml", lockstep.Scenarios)
	}
	return scenario.Load(path)
}

// loadLabs reads the embedded labs (labs/*.yaml) into one file of scenarios.
func loadLabs() (*scenario.File, error) {
	out := &scenario.File{}
	names, files := lockstep.Labs()
	for i, n := range names {
		f, err := scenario.ParseBuiltin(n, files[i])
		if err != nil {
			return nil, err
		}
		out.Scenarios = append(out.Scenarios, f.Scenarios...)
	}
	return out, nil
}

func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

func cmdList(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("list", stderr)
	file := fs.String("file", "", "scenario file (default: the built-in catalog)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	f, err := loadFile(*file)
	if err != nil {
		return err
	}
	for _, s := range f.Scenarios {
		fmt.Fprintf(stdout, "%s\t%s\n", s.ID, s.Title.En)
	}
	return nil
}

// interleave lets flags come after positional arguments (run ID --seed 2).
func interleave(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

func cmdRun(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("run", stderr)
	file := fs.String("file", "", "scenario file (default: the built-in catalog)")
	seed := fs.Int64("seed", 0, "random seed (default: the scenario's own)")
	asJSON := fs.Bool("json", false, "print JSON Lines")
	chosen := redisFlags(fs)
	pos, err := interleave(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("run takes one scenario id (see visualizer list)")
	}
	f, err := loadFile(*file)
	if err != nil {
		return err
	}
	sc, ok := f.Find(pos[0])
	if !ok {
		return fmt.Errorf("no scenario %q (see visualizer list)", pos[0])
	}
	s := sc.Seed
	if isSet(fs, "seed") {
		s = *seed
	}
	servers, err := chosen()
	if err != nil {
		return err
	}
	r, err := lesson.BuildOn(sc, s, placement(servers))
	if err != nil {
		return err
	}
	defer r.Close()
	r.RunToEnd()
	enc := json.NewEncoder(stdout)
	for _, e := range r.World.Log() {
		if *asJSON {
			if err := enc.Encode(e); err != nil {
				return err
			}
		} else {
			fmt.Fprintln(stdout, e.String())
		}
	}
	if *asJSON {
		return enc.Encode(map[string]any{"verdict": r.Verdicts()})
	}
	fmt.Fprintf(stdout, "verdict: %s\n", strings.Join(r.Verdicts(), ", "))
	return nil
}

func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

func cmdTest(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("test", stderr)
	file := fs.String("file", "", "scenario file (default: the built-in catalog)")
	chosen := redisFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	f, err := loadFile(*file)
	if err != nil {
		return err
	}
	servers, err := chosen()
	if err != nil {
		return err
	}
	results := allVerdicts(f, servers)
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
		case !lesson.SameVerdicts(got, want):
			failed++
			fmt.Fprintf(stdout, "FAIL %s: got %s, want %s%s\n", sc.ID, strings.Join(got, ", "), strings.Join(want, ", "), why)
		default:
			passed++
			fmt.Fprintf(stdout, "ok   %s: %s%s\n", sc.ID, strings.Join(got, ", "), why)
		}
	}
	fmt.Fprintf(stdout, "%d passed, %d failed\n", passed, failed)
	if failed > 0 {
		return errFailed
	}
	return nil
}

func cmdCheck(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("check takes one or more scenario files")
	}
	bad := false
	for _, path := range args {
		// Every problem of every file, one per line: FILE:LINE:COL: message.
		f, err := scenario.Load(path)
		if err != nil {
			fmt.Fprintln(stdout, err)
			bad = true
			continue
		}
		fmt.Fprintf(stdout, "%s: ok, %d scenarios\n", path, len(f.Scenarios))
	}
	if bad {
		return errFailed
	}
	return nil
}
