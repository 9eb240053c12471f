package check

import (
	"fmt"
	"strconv"

	"github.com/lockstep/lockstep/internal/sim"
)

// stockRule: the final stock equals the initial stock minus the successful
// deductions, and never goes below zero. Clients report each deduction with
// a "deduct" mark.
type stockRule struct {
	key      string
	initial  int
	hasStock bool
	final    string
	deducts  []int
}

func (r *stockRule) observe(e *sim.Event) []sim.Event {
	if r.key == "" {
		return nil
	}
	if e.Kind == sim.KindMark && e.Name == "deduct" {
		r.deducts = append(r.deducts, e.Seq)
	}
	for _, k := range e.Keys {
		if k.Key != r.key {
			continue
		}
		if e.Kind == sim.KindInit {
			if n, err := strconv.Atoi(k.Value); err == nil {
				r.initial, r.hasStock = n, true
			}
		}
		r.final = k.Value
	}
	return nil
}

func (r *stockRule) finish() []sim.Event {
	final, err := strconv.Atoi(r.final)
	if !r.hasStock || err != nil {
		return nil
	}
	n := len(r.deducts)
	switch {
	case n > r.initial || final < 0:
		return []sim.Event{verdict(Oversell, r.deducts,
			fmt.Sprintf("%d buyers were each told they got one of %d items; the stock now reads %d.", n, r.initial, final),
			fmt.Sprintf("库存只有 %d 件，却有 %d 个买家扣减成功；库存现在显示 %d：超卖。", r.initial, n, final))}
	case final != r.initial-n:
		return []sim.Event{verdict(LostUpdate, r.deducts,
			fmt.Sprintf("%d deductions from %d should leave %d, but the stock reads %d: an update was lost.", n, r.initial, r.initial-n, final),
			fmt.Sprintf("从 %d 扣减 %d 次应剩 %d，库存却是 %d：有更新丢失。", r.initial, n, r.initial-n, final))}
	}
	return nil
}
