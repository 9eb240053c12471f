package explore

import (
	"context"
	"errors"
	"time"
)

// paceSteps is how many engine steps a search takes between two looks at
// whether it must stop (its context done, or Options.Yield saying so).
const paceSteps = 16

// errStopped ends a schedule, a replay or a shrink that was told to stop.
var errStopped = errors.New("explore: stopped")

// pacer is how a search's every loop over engine steps learns it must
// stop: every paceSteps steps it looks at the search's context and calls
// Options.Yield, which may hand the CPU to others for a while. Once told
// to stop it stays stopped, and err says why.
type pacer struct {
	ctx   context.Context
	yield func() error
	end   time.Time // when not zero, a deadline of its own, before ctx's
	n     int
	err   error // context.Canceled, context.DeadlineExceeded, or Yield's error
}

// until is a pacer like p that stops at end too.
func (p *pacer) until(end time.Time) *pacer {
	return &pacer{ctx: p.ctx, yield: p.yield, end: end}
}

func newPacer(ctx context.Context, yield func() error) *pacer {
	if ctx == nil {
		ctx = context.Background()
	}
	return &pacer{ctx: ctx, yield: yield}
}

// step counts an engine step; false when the search must stop.
func (p *pacer) step() bool {
	if p.err != nil {
		return false
	}
	if p.n++; p.n%paceSteps != 0 {
		return true
	}
	return p.check()
}

// check looks at once whether the search must stop; false when it must.
func (p *pacer) check() bool {
	if p.err != nil {
		return false
	}
	if err := p.ctx.Err(); err != nil {
		p.err = err
		return false
	}
	if !p.end.IsZero() && !time.Now().Before(p.end) {
		p.err = context.DeadlineExceeded
		return false
	}
	if p.yield != nil {
		if err := p.yield(); err != nil {
			p.err = err
			return false
		}
	}
	return true
}
