package explore

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// A found schedule that needs a clock jump carries the real_redis
// declaration a real server needs, where the jump cannot be made and is
// shown as not applied. lease-pause-stale-write's two first clients, SET
// NX PX (3s lease, 100ms of work) and a 5s clock-jump budget: a jump of redis's clock past A's lease
// while A is inside lets B in (mutual-exclusion). Without the jump, the
// recording's moves leave A's lease to run its course and B waits: the
// declaration expects what the recording replays to with its jumps taken
// out, never the embedded verdict. A schedule without a jump (a pause)
// needs none.
func TestFoundClockJumpDeclaresItsRealRedisVerdicts(t *testing.T) {
	sc := lessonNamed(t, "lease-pause-stale-write", "clock-jump:5s")
	sc.Clients = sc.Clients[:2]
	res := search(t, sc, Options{Strategy: Exhaustive, Exact: true, KeepSizes: true, First: true})
	if res.Verdict == "" {
		t.Fatalf("no violation found with a 5s clock jump (%s)", res.CountsText())
	}
	rec := res.Recording
	if rec.RealRedis == nil {
		t.Fatalf("a recording with a clock jump (%+v) carries no real_redis", res.Shrunk)
	}
	if slices.Contains(rec.RealRedis.Expect, res.Verdict) || rec.RealRedis.Why.En == "" || rec.RealRedis.Why.Zh == "" {
		t.Errorf("real_redis %+v: want the verdicts without the jump, without %s, and why in both languages", rec.RealRedis, res.Verdict)
	}
	without := *rec
	without.Schedule = slices.DeleteFunc(slices.Clone(rec.Schedule), func(a scenario.Action) bool { return a.Do == string(sim.FaultClockJump) })
	without.Faults = slices.DeleteFunc(slices.Clone(rec.Faults), func(f scenario.Fault) bool { return f.Do == string(sim.FaultClockJump) })
	s, err := Replay(&without)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := s.Run().Verdicts(); !lesson.SameVerdicts(got, rec.RealRedis.Expect) {
		t.Errorf("without its jump the recording ends %v, its real_redis says %v", got, rec.RealRedis.Expect)
	}

	pause := search(t, lessonNamed(t, "lease-pause-stale-write", "pause:5s"), Options{Strategy: Exhaustive, Exact: true, KeepSizes: true, First: true})
	if pause.Recording == nil || pause.Recording.RealRedis != nil {
		t.Errorf("a paused schedule needs no real_redis: %+v", pause.Recording)
	}
}

// A shrunk schedule keeps Margin: lua-cad-slow-release's first two
// clients and a pause of up to 1s, found somewhere past B's lease. The
// shrinking finds the shortest pause that still lets the other client
// in, then gives it 100ms more, so the same schedule with the
// pause 100ms shorter, and the horizon 100ms earlier, still breaks the
// lock: the few milliseconds of real latency a real server adds cannot
// take the verdict away.
func TestShrunkScheduleKeepsItsMargin(t *testing.T) {
	sc := lessonNamed(t, "lua-cad-slow-release", "pause:1s")
	sc.Clients = sc.Clients[:2]
	res := search(t, sc, Options{Strategy: Exhaustive, First: true, Marks: []string{sim.MarkEnter}})
	if res.Verdict == "" {
		t.Fatalf("nothing found (%s)", res.CountsText())
	}
	var pause *scenario.Action
	for i := range res.Shrunk {
		if res.Shrunk[i].Do == string(sim.FaultPause) {
			pause = &res.Shrunk[i]
		}
	}
	if pause == nil {
		t.Fatalf("no pause in the shrunk schedule %+v", res.Shrunk)
	}
	if Margin < 100*time.Millisecond {
		t.Fatalf("Margin is %v: docs/explore.md states 100ms", Margin)
	}
	sh := shrinker{p: newPacer(context.Background(), nil), sc: searchScenario(sc, bounds{horizon: res.Horizon.D()}), seed: sc.Seed, verdict: res.Verdict}
	less := slices.Clone(res.Shrunk)
	for i := range less {
		if less[i].Do == string(sim.FaultPause) {
			*less[i].Size() = scenario.Duration(pause.For.D() - Margin)
		}
	}
	if ok, err := sh.holds(less, res.Horizon.D()); err != nil || !ok {
		t.Errorf("the pause of %v, %v shorter, no longer gives %s: no margin kept (%v)", pause.For.D(), Margin, res.Verdict, err)
	}
	if ok, err := sh.holds(res.Shrunk, res.Horizon.D()-Margin); err != nil || !ok {
		t.Errorf("the horizon %v, %v earlier, no longer gives %s: no margin kept (%v)", res.Horizon.D(), Margin, res.Verdict, err)
	}
}
