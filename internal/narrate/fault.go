package narrate

import (
	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/sim"
)

// faultText says what a fault did, from the fact the engine logged with it.
func faultText(e *sim.Event) fact.Text {
	target := e.Client
	if target == "" {
		target = e.Node
	} else if e.Node != "" {
		target += " / " + e.Node
	}
	f := e.Fact
	if f == nil {
		return fact.Say("narrate.fault.on", e.Name, target)
	}
	s := sim.FormatTime
	switch f.Key {
	case fact.NotApplied:
		w := f.Reason.Render()
		if f.Reason != nil && f.Reason.Key == fact.BadFault {
			w = f.Reason.Reason.Render() // the refusal's reason, without "sim: bad fault"
		}
		return fact.Say("narrate.fault.not-applied", e.Name, target, w)
	case fact.Paused:
		return fact.Say("narrate.fault.paused", f.Client, s(f.For))
	case fact.CutOff:
		if f.Client == "" {
			return fact.Say("narrate.fault.cut-off-all", f.Node)
		}
		return fact.Say("narrate.fault.cut-off", f.Node, f.Client)
	case fact.Crashed:
		if f.For > 0 {
			return fact.Say("narrate.fault.crashed-for", f.Client, s(f.For))
		}
		return fact.Say("narrate.fault.crashed", f.Client)
	case fact.StartsAgain:
		return fact.Say("narrate.fault.starts-again", f.Client)
	case fact.Down:
		if f.For > 0 {
			return fact.Say("narrate.fault.down-for", f.Node, s(f.For))
		}
		return fact.Say("narrate.fault.down", f.Node)
	case fact.BackEmpty:
		return fact.Say("narrate.fault.back-empty", f.Node)
	case fact.BackWithData:
		return fact.Say("narrate.fault.back-with-data", f.Node)
	case fact.ClockJumps:
		return fact.Say("narrate.fault.clock-jumps", f.Node, s(f.By))
	case fact.RunsAgain:
		return fact.Say("narrate.fault.runs-again", f.Client)
	}
	return fact.Say("narrate.fault.said", e.Name, target, f.Render())
}
