package explore

import (
	"slices"
	"testing"

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
