package lesson

import (
	"context"
	"errors"
	"fmt"
	"github.com/lockstep/lockstep/internal/fact"
	"strconv"

	"github.com/redis/go-redis/v9"

	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// StockKey is the key of the stock counter that the deduct task works on.
const StockKey = "stock"

// task is the work inside the critical section.
func task(ctx context.Context, p *sim.Proc, c scenario.Client, node string) error {
	switch c.Task {
	case "", scenario.TaskDeduct:
		r := p.Redis(node)
		v, err := r.Get(ctx, StockKey).Result()
		if err != nil {
			return err
		}
		n, _ := strconv.Atoi(v)
		p.Mark(sim.MarkRead, &fact.Fact{Key: fact.StockRead, From: int64(n)})
		if n <= 0 {
			p.Mark("sold-out", fact.New(fact.NoStock))
			return p.Sleep(ctx, c.Work.D())
		}
		if err := p.Sleep(ctx, c.Work.D()); err != nil {
			return err
		}
		if err := r.Set(ctx, StockKey, n-1, 0).Err(); err != nil {
			return err
		}
		p.Mark(sim.MarkDeduct, &fact.Fact{Key: fact.Stock, From: int64(n), To: int64(n - 1)})
		return nil
	case scenario.TaskNone:
		return p.Sleep(ctx, c.Work.D())
	case scenario.TaskWrite:
		return writeTask(ctx, p, c)
	}
	return fmt.Errorf("unknown task %q", c.Task)
}

// optimistic runs the task as a WATCH transaction (row 3): the deduction
// reads the stock under WATCH and writes it in MULTI/EXEC.
func (in *instance) optimistic(ctx context.Context, opt lock.Optimistic) error {
	cl, p := in.cl, in.p
	if cl.c.Task == scenario.TaskBuy {
		return buyWatched(ctx, p, cl.c, opt)
	}
	if cl.c.Task != "" && cl.c.Task != scenario.TaskDeduct {
		return fmt.Errorf("algorithm %s runs only the deduct and buy tasks, not %q", cl.algo.ID, cl.c.Task)
	}
	from := -1
	err := opt.Transact(ctx, []string{StockKey}, func(tx *redis.Tx) (func(redis.Pipeliner) error, error) {
		from = -1
		v, err := tx.Get(ctx, StockKey).Result()
		if err != nil {
			return nil, err
		}
		n, _ := strconv.Atoi(v)
		p.Mark(sim.MarkRead, &fact.Fact{Key: fact.StockRead, From: int64(n)})
		if n <= 0 {
			p.Mark("sold-out", fact.New(fact.NoStock))
			return nil, p.Sleep(ctx, cl.c.Work.D())
		}
		if err := p.Sleep(ctx, cl.c.Work.D()); err != nil {
			return nil, err
		}
		from = n
		return func(pipe redis.Pipeliner) error { pipe.Set(ctx, StockKey, n-1, 0); return nil }, nil
	})
	switch {
	case errors.Is(err, lock.ErrTooManyRetries):
		return nil
	case err != nil:
		return err
	case from > 0:
		p.Mark(sim.MarkDeduct, &fact.Fact{Key: fact.Stock, From: int64(from), To: int64(from - 1)})
	}
	return nil
}
