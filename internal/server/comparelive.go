package server

// Side by side with a lesson that runs in real time on a live server
// (etcd, ZooKeeper: internal/live). Its run cannot be replayed under the
// other side's schedule, so each side runs as its own lesson declares
// and the two logs are lined up by the clients' marks (compare.Beside);
// the answer says what can be compared (compare.RealTime, ByMarks). The
// session's own live run is its recorded log, once it has ended; a live
// lesson on the right is run afresh, in real time, to its end.

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/lockstep/lockstep/internal/compare"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// liveBesideTime is the most a live lesson run for a comparison may
// take, its server's start included (a JVM's first start is seconds on a
// loaded machine; the lessons' horizons are at most 20 s).
const liveBesideTime = 45 * time.Second

// compareFromLive compares the session's live run, once it has ended,
// with r.With: a lesson with the same clients, of embedded Redis or of a
// live service. With none, it lists the lessons alike (compare.Like).
func (s *session) compareFromLive(r *Request) (*Message, error) {
	l := s.live
	ans := compareAnswer{Algorithms: []string{}, Groups: []compare.Group{}, Alike: compare.Like(l.lesson.ID), Diverge: -1}
	if r.With == "" {
		return &Message{Type: "compare", Compare: &ans}, nil
	}
	if l.run == nil || !l.ended {
		name := l.svc.Name()
		return nil, coded("compare-live-running", map[string]any{"service": name},
			"compare: the run on the live %s server has not ended: play it to its end, then compare the log it recorded", name)
	}
	left := compare.Recorded(liveScenario(l.liveLesson), l.events, l.run.Sections)
	right, service, err := s.besideSide(r.With, left.Scenario)
	if err != nil {
		return nil, err
	}
	return s.besideAnswer(ans, r.With, left, right, l.svc.Name(), service)
}

// compareWithLive compares the session's engine run (left, from seed, as
// compareLeft gives it) with a live lesson, run afresh in real time.
func (s *session) compareWithLive(ans compareAnswer, left *scenario.Scenario, seed int64, ll liveLesson) (*Message, error) {
	if err := sameClientNames(left, liveScenario(ll)); err != nil {
		return nil, compareError(err, left.ID, ll.lesson.ID)
	}
	ls, err := s.aloneSliced(left, seed)
	if err != nil {
		return nil, err
	}
	right, err := s.runBeside(ll)
	if err != nil {
		return nil, err
	}
	return s.besideAnswer(ans, ll.lesson.ID, ls, right, "", ll.svc.Name())
}

// besideSide is the right of a comparison with a run in real time: the
// lesson with, run to its end as it is (from its own seed), on the engine
// or on its live server (service names it then). Its clients must be
// left's.
func (s *session) besideSide(with string, left *scenario.Scenario) (compare.Side, string, error) {
	if ll, ok := s.srv.lives[with]; ok {
		if err := sameClientNames(left, liveScenario(ll)); err != nil {
			return compare.Side{}, "", compareError(err, left.ID, with)
		}
		sd, err := s.runBeside(ll)
		return sd, ll.svc.Name(), err
	}
	if s.srv.opts.Servers != nil {
		return compare.Side{}, "", coded("compare-real", nil, "compare: runs side by side on embedded Redis only, not on real servers")
	}
	sc, ok := s.srv.find(with)
	if !ok {
		return compare.Side{}, "", compareError(compare.ErrUnknown, left.ID, with)
	}
	if err := sameClientNames(left, sc); err != nil {
		return compare.Side{}, "", compareError(err, left.ID, with)
	}
	if err := s.srv.checkCaps(sc); err != nil {
		return compare.Side{}, "", err
	}
	if err := s.srv.checkBudget(sc); err != nil {
		return compare.Side{}, "", err
	}
	sd, err := s.aloneSliced(sc, sc.Seed)
	return sd, "", err
}

// aloneSliced plays sc from seed to its end as a comparison's side, as
// long work (compareSliced's slots, memory and time).
func (s *session) aloneSliced(sc *scenario.Scenario, seed int64) (compare.Side, error) {
	var sd compare.Side
	lim := s.srv.limits.MaxSteps
	err := s.sliced(func(b compare.Bounds) error {
		var err error
		b.MaxSteps = lim
		sd, err = compare.Alone(sc, seed, b)
		return err
	})
	if errors.Is(err, compare.ErrTooLong) {
		return sd, coded("step-cap", map[string]any{"max": lim},
			"compare: the runs go past the session's cap of %d steps: compare them with visualizer compare", lim)
	}
	var ce *codedError
	if err != nil && !errors.As(err, &ce) {
		return sd, compareError(err, sc.ID, "")
	}
	return sd, err
}

// runBeside runs a live lesson to its end, in real time, on one of the
// server's live slots, and gives its recorded log as a side.
func (s *session) runBeside(ll liveLesson) (compare.Side, error) {
	name := ll.svc.Name()
	select {
	case s.srv.liveRuns <- struct{}{}:
		defer func() { <-s.srv.liveRuns }()
	default:
		return compare.Side{}, coded("live-busy", map[string]any{"max": maxLiveRuns, "service": name},
			"%d runs on a live server are running on this server, the most it holds at once: try again in a few seconds", maxLiveRuns)
	}
	ctx, cancel := s.workContext(liveBesideTime)
	defer cancel()
	run, err := ll.svc.Start(context.Background(), ll.lesson.ID)
	if err != nil {
		return compare.Side{}, liveStartError(name, err)
	}
	defer run.Stop()
	select {
	case <-run.Done():
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.Canceled) {
			return compare.Side{}, coded("evicted", nil, "this session ended while comparing: reload the page")
		}
		return compare.Side{}, coded("compare-live-time", map[string]any{"service": name, "max": int(liveBesideTime / time.Second)},
			"compare: the run on the live %s server took more than %d s: try again shortly", name, int(liveBesideTime/time.Second))
	}
	if err := run.Err(); err != nil {
		return compare.Side{}, coded("live-failed", map[string]any{"service": name, "detail": err.Error()},
			"the run on the %s server stopped: %v", name, err)
	}
	return compare.Recorded(liveScenario(ll), run.Events(), run.Sections), nil
}

// besideAnswer lines left and right up (compare.Beside) and answers with
// both sides, the left's faults with whether the right met each alike,
// and what a side in real time lets one compare (leftLive, rightLive: the
// service each side ran on, "" for the engine).
func (s *session) besideAnswer(ans compareAnswer, with string, left, right compare.Side, leftLive, rightLive string) (*Message, error) {
	res, met := compare.Beside(left, right)
	ans.With, ans.Diverge, ans.Fair, ans.Notes = with, res.Diverge, res.Fair(), []sim.Text{}
	ans.Faults = []compareFault{}
	for _, m := range met {
		ans.Faults = append(ans.Faults, compareFault{Fault: m.Fault, Where: m.Where, How: "alike", Placed: m.Placed})
	}
	if leftLive != "" {
		ans.Live = append(ans.Live, compare.RealTime(leftLive, "left"))
	}
	if rightLive != "" {
		ans.Live = append(ans.Live, compare.RealTime(rightLive, "right"))
	}
	ans.Live = append(ans.Live, compare.ByMarks())
	if n := max(len(res.Left.Rows), len(res.Right.Rows)); n > compareRows {
		return nil, coded("compare-big", map[string]any{"n": n, "max": compareRows},
			"compare: the runs have %d rows, over the view's %d: compare them with visualizer compare", n, compareRows)
	}
	if !s.hold.bulkTurnUnless(s.quit, func() { ans.Left, ans.Right = wireSide(res.Left), wireSide(res.Right) }) {
		return nil, errEnded()
	}
	return &Message{Type: "compare", Compare: &ans}, nil
}

// liveScenario is a live lesson as a comparison names its side: its id,
// title, story and clients.
func liveScenario(ll liveLesson) *scenario.Scenario {
	sc := &scenario.Scenario{ID: ll.lesson.ID, Title: ll.lesson.Title, Lesson: ll.lesson.Story}
	for _, c := range ll.lesson.Clients {
		sc.Clients = append(sc.Clients, scenario.Client{Name: c})
	}
	return sc
}

// sameClientNames is compare.ErrClients unless a and b have the same
// clients, by name.
func sameClientNames(a, b *scenario.Scenario) error {
	names := func(sc *scenario.Scenario) []string {
		out := make([]string, 0, len(sc.Clients))
		for _, c := range sc.Clients {
			out = append(out, c.Name)
		}
		slices.Sort(out)
		return out
	}
	if !slices.Equal(names(a), names(b)) {
		return compare.ErrClients
	}
	return nil
}
