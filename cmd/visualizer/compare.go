package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/lockstep/lockstep/internal/compare"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// cmdCompare runs a scenario and a second algorithm (or scenario with the
// same clients) under one schedule and prints both logs with aligned row
// numbers, where they part, and both verdicts. Its exit status is 0 when
// the comparison ran, whatever it found, and 1 when it could not (an
// unknown id or algorithm, clients that do not match, a scenario that does
// not run), with the reason on stderr; 2 for a command line it cannot read.
func cmdCompare(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("compare", stderr)
	file := fs.String("file", "", "scenario file (default: the built-in catalog)")
	with := fs.String("with", "", "an algorithm id or a scenario id with the same clients (default: the canonical pair's other side)")
	seed := fs.Int64("seed", 0, "random seed of both runs (default: the scenario's own)")
	asJSON := fs.Bool("json", false, "print one JSON object instead of text")
	pos, err := interleave(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return badUsage("compare takes one scenario id (see visualizer list), then --with ALGORITHM|ID")
	}
	f, err := loadFile(*file)
	if err != nil {
		return err
	}
	sc, err := findScenario(f, pos[0], *file)
	if err != nil {
		return err
	}
	others := f.Scenarios
	if *file != "" { // a scenario of the file may be compared with a lesson too
		builtin, err := loadFile("")
		if err != nil {
			return err
		}
		others = append(append([]scenario.Scenario(nil), f.Scenarios...), builtin.Scenarios...)
	}
	right, err := compare.Against(sc, *with, others)
	if err != nil {
		return err
	}
	s := sc.Seed
	if isSet(fs, "seed") {
		s = *seed
	}
	res, err := compare.Within(sc, right, s, compare.Bounds{Yield: func([]*lesson.Run) error { return interrupted(ctx) }})
	if err != nil {
		return err
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(compareJSON(res, s))
	}
	printCompare(stdout, res, s)
	return nil
}

// printCompare writes the two logs row by row: a row both sides share
// once, a row that differs as an L line and an R line, the first of them
// marked with >>; then where they part and the verdicts.
func printCompare(w io.Writer, res *compare.Result, seed int64) {
	l, r := res.Left, res.Right
	fmt.Fprintf(w, "left:  %s\nright: %s\n", sim.Escape(l.Scenario.ID), sim.Escape(r.Scenario.ID))
	fmt.Fprintf(w, "seed %d; the left's faults, placed on the right by meaning:\n", seed)
	for _, t := range res.Faults {
		placed := "placed"
		if t.Right < 0 {
			placed = "NOT PLACED"
		}
		fmt.Fprintf(w, "  %s %s [%s, %s]\n", sim.Escape(compare.FaultWords(t.Fault).En), sim.Escape(t.Where().En), t.How, placed)
	}
	if len(res.Faults) == 0 {
		fmt.Fprintln(w, "  (none)")
	}
	for i := range max(len(l.Texts), len(r.Texts)) {
		lt, rt := rowAt(l.Texts, i), rowAt(r.Texts, i)
		mark := "  "
		if i == res.Diverge {
			mark = ">>"
		}
		if lt == rt {
			fmt.Fprintf(w, "%s%5d   %s\n", mark, i+1, lt)
			continue
		}
		fmt.Fprintf(w, "%s%5d L %s\n       R %s\n", mark, i+1, lt, rt)
	}
	if res.Same() {
		fmt.Fprintf(w, "the same: all %d rows match\n", len(l.Texts))
	} else {
		fmt.Fprintf(w, "diverge: row %d\n  left:  %s\n  right: %s\n", res.Diverge+1, rowAt(l.Texts, res.Diverge), rowAt(r.Texts, res.Diverge))
	}
	fmt.Fprintf(w, "left verdict: %s\nright verdict: %s\n", strings.Join(l.Verdicts, ", "), strings.Join(r.Verdicts, ", "))
	if !res.Fair() {
		fmt.Fprintln(w, "NOT THE SAME TEST: the right did not face every fault of the left; its verdict does not answer the left's.")
	}
	for _, n := range res.Notes {
		fmt.Fprintf(w, "note: %s\n", sim.Escape(n.En)) // notes name marks and clients: one line each
	}
}

func rowAt(texts []string, i int) string {
	if i < len(texts) {
		return texts[i]
	}
	return "(no row: this run has ended)"
}

// compareJSON is the comparison as one JSON object; diverge is a row
// number from 1 (0: the runs are the same).
func compareJSON(res *compare.Result, seed int64) map[string]any {
	sideJSON := func(s compare.Side) map[string]any {
		return map[string]any{"id": s.Scenario.ID, "verdicts": s.Verdicts, "rows": s.Texts}
	}
	faults := []map[string]any{}
	for _, t := range res.Faults {
		faults = append(faults, map[string]any{"fault": compare.FaultWords(t.Fault), "where": t.Where(), "how": t.How, "placed": t.Right >= 0})
	}
	notes := res.Notes
	if notes == nil {
		notes = []sim.Text{}
	}
	return map[string]any{"seed": seed, "hand": res.Hand, "faults": faults, "fair": res.Fair(), "notes": notes,
		"diverge": res.Diverge + 1, "left": sideJSON(res.Left), "right": sideJSON(res.Right)}
}
