package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/lockstep/lockstep/internal/embedded"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/sim"
)

// The class plan's steps 5 to 7 (classplan_test.go has the plan and its
// first steps).

// expiryStep is the step of the lesson's run (with the projector's seed)
// that expires a key: "the expiry" of the plan's step 5.
func expiryStep(t *testing.T, id string, seed int64) int {
	t.Helper()
	sc, ok := catalog(t).Find(id)
	if !ok {
		t.Fatalf("no lesson %s", id)
	}
	s, err := lesson.NewSession(sc, lesson.Config{Seed: seed, Servers: embedded.Servers{}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for !s.Done() {
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
		for _, e := range s.Log() {
			if e.Kind == sim.KindExpire {
				return e.Step
			}
		}
	}
	t.Fatalf("%s never expires a key", id)
	return 0
}

// blindDel is step 5: the SET NX lesson picked (everyone follows), What
// will this command reply? at A's SET NX, After this step, who holds the
// lock? at the expiry (queued on the phone for that step, as step 1 says
// the phone can), Time to scale and Side by side with compare-and-delete
// on every screen.
func (p *classPlan) blindDel(t *testing.T) {
	t.Helper()
	const id = "blind-del-slow-release"
	pick(t, p.teacher, "scenario-select", id)
	waitFor(t, p.teacher, "the SET NX lesson", fmt.Sprintf(`(s => s.scenario === %q && s.step === 0)(lockstep.state.snap)`, id))
	p.following(t, "the SET NX lesson")
	p.askAll(t, "reply", func() int { return 0 })
	if about := eval[string](t, p.teacher, `lockstep.classroom.cls.question.about || ''`); !strings.Contains(about, "SET lock") || !strings.Contains(strings.ToLower(about), "nx") {
		t.Fatalf("the reply question at step 0 is about %q, want A's SET NX", about)
	}
	truth := p.revealed(t, p.teacher, "reveal")
	const execA = `lockstep.state.model.events.find(e => e.kind === 'exec' && e.client === 'A')`
	for i := 0; !eval[bool](t, p.teacher, "!!"+execA); i++ {
		if i > 5 {
			t.Fatal("A's SET NX is not run in 5 steps")
		}
		p.stepOn(t, p.teacher, "step")
	}
	got := eval[string](t, p.teacher, `(e => e.reply)(`+execA+`)`)
	if len(truth) != 1 || truth[0] != got {
		t.Errorf("the reply revealed %q, A's SET NX got %q", truth, got)
	}

	// The holder question queued on the phone for the step before the
	// expiry, then stepped to from the phone.
	exp := expiryStep(t, id, int64(eval[float64](t, p.teacher, `lockstep.state.snap.seed`)))
	pick(t, p.remote, "remote-ask-kind", "holder")
	pick(t, p.remote, "remote-queue-step", fmt.Sprint(exp-1))
	press(t, p.remote, "remote-queue-add")
	waitFor(t, p.remote, "the queue on the phone", fmt.Sprintf(`[...document.querySelectorAll('[data-testid=remote-queue] li')].map(li => li.dataset.step).join() === '%d'`, exp-1))
	for eval[int](t, p.teacher, `lockstep.state.snap.step`) < exp-1 {
		p.stepOn(t, p.remote, "remote-step")
	}
	waitFor(t, p.teacher, "the holder question asked at its step", fmt.Sprintf(`(q => !!q && q.kind === 'holder' && q.at === %d)(lockstep.classroom.cls.question)`, exp-1))
	p.answerAll(t, func() int { return 0 })
	truth = p.revealed(t, p.remote, "remote-reveal")
	p.stepOn(t, p.remote, "remote-step")
	if !eval[bool](t, p.teacher, fmt.Sprintf(`lockstep.state.model.events.some(e => e.kind === 'expire' && e.step === %d)`, exp)) {
		t.Errorf("the step after the holder question is not the expiry (step %d)", exp)
	}
	if len(truth) != 1 || truth[0] != "nobody" {
		// A left its critical section before its stall; the expiry lets
		// nobody in by itself (B's next SET NX comes later).
		t.Errorf("after the expiry the truth was %q, want nobody", truth)
	}
	press(t, p.remote, "remote-dismiss")
	p.everyone(t, "the question dismissed", `!document.querySelector('[data-testid=question]')`)

	press(t, p.teacher, "time-scale")
	p.everyone(t, "Time to scale", `document.querySelector('[data-testid=time-scale]').getAttribute('aria-pressed') === 'true'`)
	press(t, p.teacher, "compare-open")
	waitFor(t, p.teacher, "the partner offered", `/compare-delete|cad/.test(document.querySelector('[data-testid=compare-with]').value)`)
	reachable(t, p.teacher, "compare-with")
	press(t, p.teacher, "compare-go")
	const sides = `!document.querySelector('[data-testid=compare]').hidden && !!document.querySelector('[data-testid=sbs-head-right] .v')`
	waitFor(t, p.teacher, "both timelines", sides)
	p.everyone(t, "Side by side", sides)
	shot(t, p.teacher, p.dir, "plan-5-sbs-"+p.lang)
	shot(t, p.phone, p.dir, "plan-5-sbs-phone-"+p.lang)
	press(t, p.teacher, "compare-close")
	p.everyone(t, "Side by side closed", `document.querySelector('[data-testid=compare]').hidden`)
}

// challenge is step 6: Take the challenge, Vote on the next move at each
// move and Play the winner until the debrief. The students vote as the
// hints say (the engine's move until A has sent its write, then pause A),
// so that the class wins.
func (p *classPlan) challenge(t *testing.T) {
	t.Helper()
	press(t, p.teacher, "challenge-take")
	waitFor(t, p.teacher, "the challenge", `lockstep.state.snap.challenge.active`)
	p.following(t, "the challenge")
	vote := func() int {
		wrote := eval[bool](t, p.teacher, `lockstep.state.model.events.some(e => e.kind === 'send' && e.client === 'A' && e.cmd[0] === 'SET' && e.cmd[1] === 'stock')`)
		paused := eval[bool](t, p.teacher, `lockstep.state.model.events.some(e => e.kind === 'fault')`)
		if !wrote || paused {
			return 0
		}
		i := eval[int](t, p.teacher, `lockstep.classroom.cls.question.choices.findIndex(c => c.en.startsWith('pause A'))`)
		if i < 0 {
			t.Fatalf("no pause A to vote for: %v", eval[[]string](t, p.teacher, `lockstep.classroom.cls.question.choices.map(c => c.en)`))
		}
		return i
	}
	for round := 0; !eval[bool](t, p.teacher, `!!document.querySelector('[data-testid=challenge-debrief]')`); round++ {
		if round > 45 {
			t.Fatal("no debrief after 45 votes")
		}
		p.askAll(t, "move", vote)
		before := eval[int](t, p.teacher, `lockstep.state.model.events.length`)
		press(t, p.teacher, "play-winner")
		waitFor(t, p.teacher, "the winner played", fmt.Sprintf(`lockstep.state.model.events.length > %d || !!document.querySelector('[data-testid=challenge-debrief]')`, before))
	}
	if st := eval[string](t, p.teacher, `document.querySelector('[data-testid=challenge-status]').dataset.state`); st != "won" {
		t.Errorf("the class voted as the hints say and the challenge ends %q, want won", st)
	}
	reachable(t, p.teacher, "challenge-debrief")
	p.following(t, "the debrief")
	shot(t, p.teacher, p.dir, "plan-6-debrief-"+p.lang)
}

// end is step 7: Tally (CSV) saves every question's tally; End the class.
func (p *classPlan) end(t *testing.T) {
	t.Helper()
	asked := eval[int](t, p.teacher, `lockstep.classroom.history.length`)
	press(t, p.teacher, "export-csv")
	csv := string(downloaded(t, p.down, ".csv"))
	for _, kind := range []string{"next", "verdict", "reply", "holder", "move"} {
		if !strings.Contains(csv, ","+kind+",") {
			t.Errorf("the tally has no %s question:\n%s", kind, csv)
		}
	}
	if rows := strings.Count(csv, "\n"); rows < asked*2 {
		t.Errorf("the tally has %d rows for %d questions", rows, asked)
	}
	do(t, p.teacher, "agree to end", chromedp.Evaluate[chromedp.Void](`window.confirm = () => true`))
	press(t, p.teacher, "end-class")
	waitFor(t, p.teacher, "the class ended", `lockstep.classroom.cls === null`)
	p.everyone(t, "the class ended", `lockstep.classroom.cls === null`)
	waitFor(t, p.remote, "the phone told", `!!document.querySelector('[data-testid=remote-ended]')`)
}
