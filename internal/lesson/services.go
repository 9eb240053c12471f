package lesson

import (
	"context"
	"errors"
	"fmt"
	"github.com/lockstep/lockstep/internal/fact"
	"slices"
	"time"

	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/service/sqldb"
	"github.com/lockstep/lockstep/internal/service/storage"
	"github.com/lockstep/lockstep/internal/sim"
)

// storageKey is the key the write task writes on the storage service.
const storageKey = "file"

// defaultSweepAfter is the age of the lock rows the SQL cleanup job deletes
// when the scenario does not say.
const defaultSweepAfter = 10 * time.Second

// extend adds what a scenario has beyond masters: replicas, the storage
// service, the SQL database.
func (r *Run) extend() error {
	sc, w := r.Scenario, r.World
	for _, n := range sc.Nodes {
		if n.ReplicaOf == "" {
			continue
		}
		if err := w.Replicate(n.ReplicaOf, n.Name, n.Lag.D()); err != nil {
			return fmt.Errorf("node %s: %w", n.Name, err)
		}
	}
	services := sc.Services()
	if slices.Contains(services, scenario.StorageService) {
		if _, err := w.AddService(scenario.StorageService, storage.New(sc.Storage != nil && sc.Storage.Fencing)); err != nil {
			return err
		}
	}
	if slices.Contains(services, scenario.DBService) {
		db, err := sqldb.Open()
		if err != nil {
			return err
		}
		if _, err := w.AddService(scenario.DBService, db); err != nil {
			db.Close()
			return err
		}
		if sc.SQL != nil && sc.SQL.SweepEvery > 0 {
			after := sc.SQL.SweepAfter.D()
			if after <= 0 {
				after = defaultSweepAfter
			}
			if err := w.Sweep(scenario.DBService, sc.SQL.SweepEvery.D(), after); err != nil {
				return err
			}
		}
	}
	return nil
}

// observer shows a client's lock to the engine: its marks are about the
// lock res, the values it writes are the process's, and its fencing
// tokens go to the thread's writes (writeTask).
type observer struct {
	p   *sim.Proc
	res string
}

func (o observer) Mark(name string, said *fact.Fact) { o.p.MarkLock(name, o.res, said) }
func (o observer) Own(value string)                  { o.p.Own(value) }
func (o observer) Fence(token int64)                 { o.p.SetFence(token) }

// redisNodes gives the process's client for every node, in order (the
// masters of Redlock).
func redisNodes(p *sim.Proc) []lock.Redis {
	var out []lock.Redis
	for _, n := range p.Nodes() {
		out = append(out, p.Redis(n))
	}
	return out
}

// writeTask is the write task: work, then write to the storage service,
// presenting the thread's fencing token if its lock gave it one.
func writeTask(ctx context.Context, p *sim.Proc, c scenario.Client) error {
	if err := p.Sleep(ctx, c.Work.D()); err != nil {
		return err
	}
	args := []string{"WRITE", storageKey, "report-by-" + p.Name()}
	tok := p.Fence()
	if tok > 0 {
		args = append(args, "TOKEN", fmt.Sprint(tok))
	}
	_, err := p.Call(ctx, scenario.StorageService, args...)
	switch {
	case errors.Is(err, storage.ErrFenced):
		p.Mark("write-rejected", &fact.Fact{Key: fact.StorageRefused, Token: tok})
		return nil
	case err != nil:
		return err
	}
	p.Mark("wrote", &fact.Fact{Key: fact.StorageAccepted, Token: tok})
	return nil
}
