package livecard

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/lockstep/lockstep/internal/etcd"
	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/live"
	"github.com/lockstep/lockstep/internal/report"
	"github.com/lockstep/lockstep/internal/sim"
	"github.com/lockstep/lockstep/internal/zookeeper"
)

// DefaultRuns are a cell's real-time runs by default, DefaultParallel
// how many of them run at once. Twenty at once on a loaded 2-core
// machine (80 clients with their keep-alives, and the servers) starved
// 500 ms ZooKeeper sessions and 1 s etcd leases with no fault at all
// (2026-11-29: contention alone broke 2 and 6 of 20 runs); five at once
// never did.
const (
	DefaultRuns     = 5
	DefaultParallel = 5
)

// Options bound the live rows' runs.
type Options struct {
	// Runs of each cell (default DefaultRuns), Parallel of them at once
	// (default DefaultParallel): more at once load the machine, and a
	// loaded machine starves leases and sessions of their own accord.
	Runs, Parallel int
	// Algorithms limits the rows to these locks (nil: every one).
	Algorithms []string
	// Etcd is the etcd server's client URL ("": one embedded in the
	// process); ZooKeeper an existing server's host:port ("": a JVM
	// started here, or each cell not run, saying what to install).
	Etcd, ZooKeeper string
	// Progress, when set, is told of each cell once its runs are done.
	Progress func(row *report.Row, c *report.Cell)
	// Now gives the date a row is stamped with (default time.Now).
	Now func() time.Time
}

// defaults fills the options left at zero.
func (opt *Options) defaults() {
	if opt.Runs <= 0 {
		opt.Runs = DefaultRuns
	}
	if opt.Parallel <= 0 {
		opt.Parallel = DefaultParallel
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
}

// Build runs the live rows: each cell's runs at once, the cells of a row
// one after another, the rows of the two services side by side. A
// service whose server cannot run here (ZooKeeper without Java) gives
// rows whose cells say so and what to install.
func Build(ctx context.Context, opt Options) ([]*report.Row, error) {
	opt.defaults()
	for _, id := range opt.Algorithms {
		if !slices.ContainsFunc(Rows, func(r Row) bool { return r.Algorithm == id }) {
			return nil, fmt.Errorf("livecard: no live lock %q (the live locks: %s)", id, strings.Join(IDs(), ", "))
		}
	}
	out := make([]*report.Row, len(Rows))
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i, service := range []string{"etcd", "zookeeper"} {
		var idx []int
		for j, r := range Rows {
			if r.service == service && (opt.Algorithms == nil || slices.Contains(opt.Algorithms, r.Algorithm)) {
				idx = append(idx, j)
			}
		}
		if len(idx) == 0 {
			continue
		}
		wg.Go(func() {
			srv, err := startServer(service, opt)
			if err != nil {
				errs[i] = err
				return
			}
			defer srv.close()
			for _, j := range idx {
				if out[j], err = runRow(ctx, &Rows[j], srv, opt); err != nil {
					errs[i] = err
					return
				}
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	var rows []*report.Row
	for _, r := range out {
		if r != nil {
			rows = append(rows, r)
		}
	}
	return rows, ctx.Err()
}

// IDs are the live locks' ids.
func IDs() []string {
	var out []string
	for _, r := range Rows {
		if !slices.Contains(out, r.Algorithm) {
			out = append(out, r.Algorithm)
		}
	}
	return out
}

// server is a service's server for a row's runs: run plays one lesson of
// a cell on it; missing, when set, says why it cannot run here and what
// to install (the cells are then not run).
type server struct {
	name    string
	run     func(ctx context.Context, c *Cell) (*live.Recorder, error)
	missing *sim.Text
	close   func()
}

// startServer starts (or finds) a service's server.
func startServer(service string, opt Options) (*server, error) {
	if service == "etcd" {
		var srv *etcd.Server
		var err error
		if opt.Etcd == "" {
			// its ports are chosen free and then bound: on a busy machine
			// another process may take one in between, so it tries again
			for try := 0; try < 3; try++ {
				if srv, err = etcd.StartEmbedded(); err == nil || !strings.Contains(err.Error(), "address already in use") {
					break
				}
			}
		} else {
			srv, err = etcd.External(opt.Etcd)
		}
		if err != nil {
			return nil, err
		}
		name, _, _ := strings.Cut(srv.String(), " at ") // its port differs from run to run
		return &server{name: name, close: srv.Close,
			run: func(ctx context.Context, c *Cell) (*live.Recorder, error) { return etcd.Run(ctx, srv, c.Etcd) }}, nil
	}
	addr, name, stop := opt.ZooKeeper, "an external ZooKeeper", func() {}
	if addr == "" {
		srv, err := zookeeper.Start(zookeeper.Options{})
		if errors.Is(err, zookeeper.ErrNoJava) {
			missing := fact.Say("livecard.zookeeper.needs-java", zookeeper.InstallCommand())
			return &server{name: "ZooKeeper (not run: no Java)", close: stop, missing: &missing}, nil
		}
		if err != nil {
			return nil, err
		}
		addr, name, stop = srv.Addr, "ZooKeeper"+version(srv)+" (a JVM started by Lockstep, tickTime 100ms)", srv.Kill
	}
	return &server{name: name, close: stop,
		run: func(ctx context.Context, c *Cell) (*live.Recorder, error) {
			return zookeeper.Run(ctx, addr, c.ZooKeeper)
		}}, nil
}

// runRow runs every cell of a row, one after another.
func runRow(ctx context.Context, r *Row, srv *server, opt Options) (*report.Row, error) {
	t0 := time.Now()
	row := &report.Row{Algorithm: r.Algorithm, Variant: r.Variant, Title: r.Title, Needs: r.Needs, Storage: r.Storage, Advice: r.Advice,
		Sample: &report.Sample{Runs: opt.Runs, Date: opt.Now().UTC().Format("2006-01-02"), Machine: Machine(), Server: srv.name}}
	for _, col := range Columns() {
		spec := r.Cells[col]
		c := &report.Cell{Column: col}
		switch {
		case spec.NA != nil:
			c.Kind, c.Why = report.NA, spec.NA
		case srv.missing != nil:
			c.Kind, c.Why = report.Unsearched, srv.missing
		default:
			var err error
			if c, _, err = runCell(ctx, r, &spec, col, srv, opt.Runs, opt.Parallel); err != nil {
				return nil, err
			}
		}
		row.Cells = append(row.Cells, c)
		if opt.Progress != nil {
			opt.Progress(row, c)
		}
	}
	row.Sample.Took = time.Since(t0).Round(100 * time.Millisecond).String()
	return row, nil
}

// runCell runs a cell's lesson runs times, parallel at once, and
// tallies how the runs ended; it gives the runs' logs too.
func runCell(ctx context.Context, r *Row, spec *Cell, col string, srv *server, runs, parallel int) (*report.Cell, []*live.Recorder, error) {
	verdicts := make([][]string, runs)
	recs := make([]*live.Recorder, runs)
	errs := make([]error, runs)
	var wg sync.WaitGroup
	slots := make(chan struct{}, parallel)
	for i := range runs {
		wg.Go(func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			rec, err := srv.run(ctx, spec)
			if err != nil {
				errs[i] = err
				return
			}
			verdicts[i], recs[i] = rec.Verdicts(), rec
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, nil, fmt.Errorf("livecard: %s (%s) under %s: %w", r.Algorithm, r.Variant, col, err)
	}
	return Tally(r.Storage, col, spec.Placement, verdicts), recs, nil
}

// Tally is a cell decided by runs that ended with these verdicts: Broke
// when any run broke the lock (any violation; at a storage, any but two
// clients inside at once), with the verdict most of those runs had, else
// Unbroken.
func Tally(storage bool, col string, placement sim.Text, runs [][]string) *report.Cell {
	c := &report.Cell{Column: col, Runs: len(runs), Placement: &placement}
	count := map[string]int{}
	for _, v := range runs {
		vs := slices.Clone(v)
		slices.Sort(vs)
		key := strings.Join(vs, ",")
		if count[key] == 0 {
			c.Tally = append(c.Tally, report.Tally{Verdicts: vs})
		}
		count[key]++
		if b := Breaks(storage, v); b != "" {
			c.Broken++
			count["broke:"+b]++
		}
	}
	for i := range c.Tally {
		c.Tally[i].Runs = count[strings.Join(c.Tally[i].Verdicts, ",")]
	}
	slices.SortStableFunc(c.Tally, func(a, b report.Tally) int { return b.Runs - a.Runs })
	c.Kind = report.Unbroken
	if c.Broken > 0 {
		c.Kind = report.Broke
		for _, v := range sim.Verdicts {
			if n := count["broke:"+v]; n > count["broke:"+c.Verdict] {
				c.Verdict = v
			}
		}
		for _, t := range c.Tally { // the most runs' verdicts that broke it
			if Breaks(storage, t.Verdicts) != "" {
				c.Verdicts = t.Verdicts
				break
			}
		}
	}
	return c
}

// Breaks is the verdict by which a run that ended with verdicts broke the
// lock ("" when it did not): the first violation in sim.Verdicts' order,
// and at a storage any but mutual-exclusion.
func Breaks(storage bool, verdicts []string) string {
	for _, v := range sim.Verdicts {
		if v == sim.VerdictSafe || storage && v == sim.VerdictMutualExclusion || !slices.Contains(verdicts, v) {
			continue
		}
		return v
	}
	return ""
}

// Machine names the machine the runs ran on.
func Machine() string {
	return fmt.Sprintf("%s/%s, %d CPUs, %s", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version())
}

// version is the ZooKeeper server's version as its srvr command says it
// (" 3.8.0"), or "" when it does not say.
func version(srv *zookeeper.Server) string {
	ans, err := srv.FourLetter("srvr")
	if err != nil {
		return ""
	}
	_, v, ok := strings.Cut(ans, "Zookeeper version: ")
	if !ok {
		return ""
	}
	v, _, _ = strings.Cut(v, "-")
	v, _, _ = strings.Cut(v, ",")
	return " " + strings.TrimSpace(v)
}
