package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"github.com/lockstep/lockstep/internal/server"
)

// planTab is the time limit of each tab of the class plan: the whole
// 50-minute plan is walked in one tab per person, on a machine shared with
// other work.
const planTab = 4 * time.Minute

// classPlan is a class taught as docs/browser.md's plan says: a teacher
// at a 1280×720 projector in Presenter mode, a phone as the remote, a
// student on a laptop and one on a 414×896 phone.
type classPlan struct {
	lang            string
	dir, down       string
	teacher, remote context.Context
	laptop, phone   context.Context
	students        map[string]context.Context
	code            string
}

// TestBrowserClassPlan walks the README's 50-minute class plan
// (docs/browser.md, "A 50-minute class on the no-lock and SET NX
// lessons") step by step, doing what each step says with the controls it
// names, in Presenter mode at 1280×720, in English and in 中文. Every
// control the plan names must be on the projector's screen, not covered,
// when the teacher reaches for it (press); where the plan promises
// something ("the truth was the run's", "everyone follows", "their screens
// follow") the test checks it on the students' screens.
func TestBrowserClassPlan(t *testing.T) {
	base := startServer(t, server.Options{})
	b := startBrowser(t)
	dir := artifacts(t)
	for _, lang := range []string{"en", "zh"} {
		t.Run(lang, func(t *testing.T) {
			p := &classPlan{lang: lang, dir: dir}
			p.before(t, b, base)
			p.join(t, b, base)
			p.noLock(t)
			p.roam(t)
			p.blindDel(t)
			p.challenge(t)
			p.end(t)
		})
	}
}

// everyone waits for cond on both students' screens.
func (p *classPlan) everyone(t *testing.T, what, cond string) {
	t.Helper()
	for name, ctx := range p.students {
		waitFor(t, ctx, name+": "+what, cond)
	}
}

// following waits until both students follow the teacher's run at its step.
func (p *classPlan) following(t *testing.T, what string) {
	t.Helper()
	at := eval[int](t, p.teacher, `lockstep.state.snap.step`)
	id := eval[string](t, p.teacher, `lockstep.state.snap.scenario`)
	p.everyone(t, what, fmt.Sprintf(`(s => !!s && s.scenario === %q && s.step === %d)(lockstep.state.snap) && lockstep.classroom.cls.following`, id, at))
}

// before is the plan's step 1: Presenter, the lesson, Start a class, Hide
// what gives it away on the class bar, and the phone paired as the remote.
func (p *classPlan) before(t *testing.T, b context.Context, base string) {
	t.Helper()
	p.teacher = tabWithin(t, b, true, planTab)
	p.down = t.TempDir()
	do(t, p.teacher, "a blank tab", chromedp.Navigate("about:blank"))
	if _, err := chromedp.CallBrowser(p.teacher, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: p.down,
		BrowserContextID: chromedp.FromContext(p.teacher).BrowserContextID}); err != nil {
		t.Fatal(err)
	}
	probs := watch(t, p.teacher)
	t.Cleanup(func() {
		for _, x := range probs.take() {
			t.Errorf("projector: page problem: %s", x)
		}
	})
	do(t, p.teacher, "a projector's screen", chromedp.EmulateViewport(1280, 720))
	open(t, p.teacher, base)
	inLang(t, p.teacher, p.lang)
	press(t, p.teacher, "presenter")
	waitFor(t, p.teacher, "Presenter mode", `document.body.classList.contains('presenter')`)
	pick(t, p.teacher, "scenario-select", "no-lock-oversell")
	waitFor(t, p.teacher, "the no-lock lesson", `(s => s.scenario === 'no-lock-oversell' && s.step === 0)(lockstep.state.snap)`)
	press(t, p.teacher, "start-class")
	waitFor(t, p.teacher, "the class's code", `!!document.querySelector('[data-testid=class-code]') && !document.querySelector('.class-big').closest('.overlay').hidden`)
	p.code = text(t, p.teacher, "class-code")
	if big := eval[string](t, p.teacher, `document.querySelector('.class-big').textContent`); !strings.Contains(big, p.code) {
		t.Fatalf("the big code %q does not show the bar's %s", big, p.code)
	}
	clickJS(t, p.teacher, ".class-big button") // to reach the bar; the students join in step 2
	press(t, p.teacher, "class-hide")
	if _, err := chromedp.Run(p.teacher, chromedp.Poll[bool](`lockstep.classroom.cls.hide === true`, chromedp.WithPollingTimeout(5*time.Second))); err != nil {
		shot(t, p.teacher, p.dir, "plan-1-hide-"+p.lang)
		t.Fatalf("Hide what gives it away pressed, the room does not hide (checked %v)", eval[bool](t, p.teacher, `document.querySelector('[data-testid=class-hide]').checked`))
	}

	press(t, p.teacher, "remote-open")
	waitFor(t, p.teacher, "the remote's QR code", `!!document.querySelector('[data-testid=remote-pair] svg.qr')`)
	link := text(t, p.teacher, "remote-link") // what the QR code says
	p.remote = tabWithin(t, b, true, planTab)
	do(t, p.remote, "a phone", chromedp.EmulateViewport(414, 896, chromedp.EmulateMobile, chromedp.EmulateTouch))
	do(t, p.remote, "scan the QR code", chromedp.Navigate(link))
	waitFor(t, p.remote, "the remote's run", `!!document.querySelector('[data-testid=remote-step-n]')`)
	inLangRemote(t, p.remote, p.lang)
	waitFor(t, p.teacher, "the spent QR code gone", `document.querySelector('[data-testid=remote-pair]').hidden`)
	shot(t, p.teacher, p.dir, "plan-1-before-"+p.lang)
}

// join is step 2: the students join from the big code, the bar counts
// them in, the big code is closed.
func (p *classPlan) join(t *testing.T, b context.Context, base string) {
	t.Helper()
	press(t, p.teacher, "start-class") // now Join code: the code big again
	waitFor(t, p.teacher, "the big code shown again", `!document.querySelector('.class-big').closest('.overlay').hidden && document.querySelector('.class-big').textContent.includes(`+fmt.Sprintf("%q", p.code)+`)`)
	p.laptop = pageWithin(t, b, base, planTab)
	inLang(t, p.laptop, p.lang)
	joinClass(t, p.laptop, p.code, "Ann")
	p.phone = tabWithin(t, b, true, planTab)
	probs := watch(t, p.phone)
	t.Cleanup(func() {
		for _, x := range probs.take() {
			t.Errorf("phone: page problem: %s", x)
		}
	})
	do(t, p.phone, "a phone's screen", chromedp.EmulateViewport(414, 896, chromedp.EmulateMobile, chromedp.EmulateTouch))
	open(t, p.phone, base)
	inLang(t, p.phone, p.lang)
	joinClass(t, p.phone, p.code, "Bo")
	p.students = map[string]context.Context{"Ann": p.laptop, "Bo": p.phone}
	in := map[string]string{"en": "2 in", "zh": "2 人"}[p.lang]
	waitFor(t, p.teacher, "the bar counts two in", fmt.Sprintf(`document.querySelector('[data-testid=room-count] .class-short').textContent.startsWith(%q)`, in))
	shot(t, p.teacher, p.dir, "plan-2-join-"+p.lang)
	clickJS(t, p.teacher, ".class-big button")
	waitFor(t, p.teacher, "the big code closed", `document.querySelector('.class-big').closest('.overlay').hidden`)
	if bad := eval[[]string](t, p.teacher, barCut); len(bad) > 0 {
		t.Errorf("the class bar with two students at 1280x720: %q", bad)
	}
}

// stepOn presses Step on ctx (the projector or the remote) and waits for
// the projector to move.
func (p *classPlan) stepOn(t *testing.T, ctx context.Context, testid string) {
	t.Helper()
	before := eval[int](t, p.teacher, `lockstep.state.snap.step`)
	press(t, ctx, testid)
	waitFor(t, p.teacher, "the step", fmt.Sprintf(`lockstep.state.snap.step > %d || lockstep.state.snap.ended`, before))
}

// askAll asks kind from the projector's bar, has each student answer
// choice (by its index) and waits until the bar counts every answer.
func (p *classPlan) askAll(t *testing.T, kind string, choice func() int) {
	t.Helper()
	pick(t, p.teacher, "ask-kind", kind)
	before := eval[int](t, p.teacher, `(q => q ? q.id : 0)(lockstep.classroom.cls.question)`)
	press(t, p.teacher, "ask")
	waitFor(t, p.teacher, kind+" asked", fmt.Sprintf(`(q => !!q && q.id > %d && q.kind === %q)(lockstep.classroom.cls.question)`, before, kind))
	p.answerAll(t, choice)
}

// answerAll has each student answer the open question and waits until
// the bar counts every answer.
func (p *classPlan) answerAll(t *testing.T, choice func() int) {
	t.Helper()
	id := eval[int](t, p.teacher, `lockstep.classroom.cls.question.id`)
	for name, ctx := range p.students {
		waitFor(t, ctx, name+" sees the question", fmt.Sprintf(`(q => !!q && q.id === %d)(lockstep.classroom.cls.question) && !!document.querySelector('[data-testid=answer]')`, id))
		pressAt(t, ctx, fmt.Sprintf(`[data-testid=answer][data-choice="%d"]`, choice()))
	}
	waitFor(t, p.teacher, "everyone answered", `(c => c.counts.answered === 2 && c.question.counts.reduce((a, b) => a + b, 0) === 2)(lockstep.classroom.cls)`)
	if !strings.Contains(eval[string](t, p.teacher, `document.querySelector('[data-testid=room-count] .class-short').textContent`), "2 ✓") {
		t.Errorf("the bar does not say that everyone answered: %q", text(t, p.teacher, "room-count"))
	}
}

// revealed presses Reveal on ctx (the projector or the remote) and
// returns the truth's labels in English, once every student sees the
// tally.
func (p *classPlan) revealed(t *testing.T, ctx context.Context, testid string) []string {
	t.Helper()
	press(t, ctx, testid)
	waitFor(t, p.teacher, "the tally", `!!document.querySelector('[data-testid=tally]')`)
	p.everyone(t, "the tally", `!!document.querySelector('[data-testid=tally]') && !!document.querySelector('.class-choices li.right')`)
	return eval[[]string](t, p.teacher, `(q => q.truth.map(i => q.choices[i].en))(lockstep.classroom.cls.question)`)
}

// noLock is step 3: the two buyers' reads stepped; before the first
// write, Who moves next? asked, answered, revealed, and the next Step
// moves the client the truth named; Which verdict? asked and revealed
// before playing to the end.
func (p *classPlan) noLock(t *testing.T) {
	t.Helper()
	const read = `(n => lockstep.state.model.events.some(e => e.kind === 'mark' && e.client === n && e.text.includes('read')))`
	const written = `lockstep.state.model.events.some(e => e.kind === 'send' && e.cmd && e.cmd[0] !== 'GET')`
	for i := 0; !eval[bool](t, p.teacher, read+`('A') && `+read+`('B')`); i++ {
		if i > 20 || eval[bool](t, p.teacher, written) {
			t.Fatalf("the buyers wrote before both had read: the plan's \"before the first write\" is not a step")
		}
		p.stepOn(t, p.teacher, "step")
	}
	if eval[bool](t, p.teacher, written) {
		t.Fatal("a buyer wrote with the reads: no step lies between the reads and the first write")
	}
	p.following(t, "the reads")
	p.askAll(t, "next", func() int { return 0 })
	truth := p.revealed(t, p.teacher, "reveal")
	shot(t, p.teacher, p.dir, "plan-3-next-"+p.lang)
	at := eval[int](t, p.teacher, `lockstep.state.snap.step`)
	p.stepOn(t, p.teacher, "step")
	moved := eval[string](t, p.teacher, fmt.Sprintf(`(e => e ? e.client : '')(lockstep.state.model.events.find(e => e.step === %d && e.client))`, at+1))
	if len(truth) != 1 || truth[0] != moved {
		t.Errorf("the truth revealed was %q, the run moved %q", truth, moved)
	}
	p.following(t, "the step after the reveal")

	p.askAll(t, "verdict", func() int { return 0 })
	verdicts := p.revealed(t, p.teacher, "reveal")
	// Play stops at each chapter (docs/browser.md, paced play): Play
	// again until the end.
	for i := 0; !eval[bool](t, p.teacher, `lockstep.state.snap.ended`); i++ {
		if i > 10 {
			t.Fatal("Play pressed 10 times and the run has not ended")
		}
		press(t, p.teacher, "play")
		waitFor(t, p.teacher, "playing, or at its end", `lockstep.state.snap.playing || lockstep.state.snap.ended`)
		waitFor(t, p.teacher, "a chapter, or the end", `!lockstep.state.snap.playing`)
	}
	got := eval[[]string](t, p.teacher, `lockstep.state.model.verdicts.map(v => v.name)`)
	if strings.Join(verdicts, ",") != strings.Join(got, ",") {
		t.Errorf("the verdict revealed %q, the run ended with %q", verdicts, got)
	}
	p.following(t, "the end")
}

// roam is step 4: each student roams, goes back before the writes and
// steps a client by hand (the laptop) or injects a fault (the phone) in a
// private copy; the projector's run stays; Back to the class.
func (p *classPlan) roam(t *testing.T) {
	t.Helper()
	end := eval[int](t, p.teacher, `lockstep.state.snap.step`)
	for name, ctx := range p.students {
		press(t, ctx, "roam")
		waitFor(t, ctx, name+" roaming", `document.querySelector('[data-testid=follow]').dataset.following === 'false'`)
		for i := 0; i < 3; i++ {
			before := eval[int](t, ctx, `lockstep.state.snap.step`)
			press(t, ctx, "back")
			waitFor(t, ctx, name+" a step back", fmt.Sprintf(`lockstep.state.snap.step < %d`, before))
		}
	}
	waitFor(t, p.teacher, "two roaming", `lockstep.classroom.cls.counts.roaming === 2`)
	waitFor(t, p.laptop, "B can move", `!!document.querySelector('[data-testid="move-B"]')`)
	at := eval[int](t, p.laptop, `lockstep.state.snap.step`)
	press(t, p.laptop, "move-B")
	waitFor(t, p.laptop, "B stepped by hand", fmt.Sprintf(`lockstep.state.snap.step === %d`, at+1))
	pick(t, p.phone, "fault-client", "A")
	press(t, p.phone, "fault-pause")
	waitFor(t, p.phone, "A paused in the private copy", `lockstep.state.model.events.some(e => e.kind === 'fault' && e.client === 'A')`)
	shot(t, p.phone, p.dir, "plan-4-roam-"+p.lang)
	if got := eval[int](t, p.teacher, `lockstep.state.snap.step`); got != end || eval[bool](t, p.teacher, `lockstep.state.model.events.some(e => e.kind === 'fault')`) {
		t.Errorf("the projector's run moved with a roaming student: step %d, want %d", got, end)
	}
	for name, ctx := range p.students {
		press(t, ctx, "back-to-class")
		waitFor(t, ctx, name+" back in the class", `document.querySelector('[data-testid=follow]').dataset.following === 'true'`)
	}
	p.following(t, "back to the class")
}
