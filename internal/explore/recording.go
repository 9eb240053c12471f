package explore

import (
	"fmt"
	"sort"
	"strings"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/scenario"
)

// Recording writes a schedule as a scenario of its own: sc with the
// schedule (the faults placed on marks among its scripted faults), the
// horizon and, as expect, nothing yet (the caller sets it);
// the narration, real_redis and challenge, which were about the author's
// schedule (a challenge's keep_faults names scripted faults by position),
// go.
// Its id ends in -explored; its title says it was found by a search.
func Recording(sc *scenario.Scenario, actions []scenario.Action, horizon scenario.Duration) *scenario.Scenario {
	out := *withFaults(sc, actions)
	out.ID = sc.ID + "-explored"
	title := fact.Say("explore.recording.title", sc.Title)
	out.Title.En = title.En
	if sc.Title.Zh != "" {
		out.Title.Zh = title.Zh
	}
	out.Horizon = horizon
	out.Narration = nil
	out.RealRedis = nil // it explained the author's schedule, not this one
	out.Challenge = nil // the found schedule is the answer, not a goal
	out.Lesson = fact.Say("explore.recording.lesson")
	return &out
}

// Neutral is sc with its scripted faults, recorded schedule and narration
// removed (they belonged to the schedule its author chose) and budget, if
// not nil, as its explore section: the starting point of a search.
func Neutral(sc *scenario.Scenario, budget *scenario.Explore) *scenario.Scenario {
	out := *sc
	out.Faults, out.Schedule, out.Narration = nil, nil, nil
	if budget != nil {
		out.Explore = budget
	}
	return &out
}

// CountsText lists an exhaustive search's verdict counts, most frequent
// first: "safe: 180, mutual-exclusion,lost-update: 60".
func (r *Result) CountsText() string {
	type kv struct {
		k string
		n int
	}
	var list []kv
	for k, n := range r.Counts {
		list = append(list, kv{k, n})
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].n != list[j].n {
			return list[i].n > list[j].n
		}
		return list[i].k < list[j].k
	})
	parts := make([]string, len(list))
	for i, e := range list {
		parts[i] = fmt.Sprintf("%s: %d", e.k, e.n)
	}
	return strings.Join(parts, "; ")
}

// Seen reports whether any schedule of an exhaustive search ended with
// verdict v.
func (r *Result) Seen(v string) bool {
	for k := range r.Counts {
		if containsStr(strings.Split(k, ","), v) {
			return true
		}
	}
	return false
}
