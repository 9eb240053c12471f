package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lockstep/lockstep/internal/server"
)

// TestBrowserOffScriptProse checks that a run taken off its lesson's
// script by hand stops presenting the lesson's prose as true of it. On
// script the lesson's paragraph is shown plainly and the challenge panel
// only offers the challenge. Once a client is stepped by hand, the
// paragraph is marked as the lesson's plan (a label naming the step where
// the run left it, and a style of its own), in English and in 中文, and the
// challenge panel says that this run is not the challenge (its moves count
// for nothing) without claiming a win or a loss. Back to the step before
// the change, the run is on its script again (the snapshot says so) and
// the marks go; forward again, the recorded move replays and they return;
// Reset takes them away. In the challenge itself the paragraph is the
// lesson's plan from the start (the challenge runs without the script),
// the goal stands unmarked and counts the moves.
func TestBrowserOffScriptProse(t *testing.T) {
	chromium(t)
	url := startServer(t, server.Options{})
	b := startBrowser(t)
	dir := artifacts(t)
	ctx := page(t, b, url)
	load(t, ctx, "no-lock-oversell")
	waitFor(t, ctx, "the challenge offered", `!!document.querySelector('[data-testid=challenge-take]')`)

	// unmarked checks the paragraph and the challenge panel as on script.
	unmarked := func(when string) {
		t.Helper()
		waitFor(t, ctx, when+": on script", `lockstep.state.snap.offScript === false`)
		if eval[bool](t, ctx, `(p => !!p && !p.hidden)(document.querySelector('[data-testid=lesson-plan]'))`) {
			t.Errorf("%s: the lesson's paragraph is labelled as the plan: %q", when, text(t, ctx, "lesson-plan"))
		}
		if eval[bool](t, ctx, `document.getElementById('lesson-text').hasAttribute('data-plan')`) {
			t.Errorf("%s: the lesson's paragraph is styled as the plan", when)
		}
		if got, want := eval[string](t, ctx, `document.getElementById('lesson-text').textContent`), eval[string](t, ctx, `lockstep.state.snap.lesson.en`); got != want {
			t.Errorf("%s: the lesson's paragraph = %q, want the lesson's %q", when, got, want)
		}
		if eval[bool](t, ctx, `!!document.querySelector('[data-testid=challenge-offscript]')`) {
			t.Errorf("%s: the challenge panel says the run left its script: %q", when, text(t, ctx, "challenge-offscript"))
		}
	}
	// marked checks the marks of a run that left its script at step cut,
	// in English and in 中文.
	marked := func(when string, cut int) {
		t.Helper()
		waitFor(t, ctx, when+": the paragraph marked", `(p => !!p && !p.hidden)(document.querySelector('[data-testid=lesson-plan]')) && !!document.querySelector('[data-testid=challenge-offscript]')`)
		if got, want := text(t, ctx, "lesson-plan"), fmt.Sprintf("The lesson's plan (this run has left it at step %d)", cut); !strings.Contains(got, want) {
			t.Errorf("%s: the paragraph's label = %q, want %q", when, got, want)
		}
		if !eval[bool](t, ctx, `document.getElementById('lesson-text').hasAttribute('data-plan') && getComputedStyle(document.getElementById('lesson-text')).fontStyle === 'italic'`) {
			t.Errorf("%s: the lesson's paragraph is not styled as the plan", when)
		}
		if got := text(t, ctx, "challenge-offscript"); !strings.Contains(got, fmt.Sprintf("at step %d", cut)) || !strings.Contains(got, "not the challenge") {
			t.Errorf("%s: the challenge panel's note = %q", when, got)
		}
		if !eval[bool](t, ctx, `!!document.querySelector('[data-testid=challenge-goal]') && !document.querySelector('[data-testid=challenge-status]')`) {
			t.Errorf("%s: the challenge panel should keep its goal and claim no outcome", when)
		}
		click(t, ctx, "lang")
		waitFor(t, ctx, when+": 中文", `document.documentElement.lang === 'zh-CN'`)
		if got, want := text(t, ctx, "lesson-plan"), fmt.Sprintf("课程原本的安排（这次运行已在第 %d 步离开它）", cut); !strings.Contains(got, want) {
			t.Errorf("%s: the paragraph's label in 中文 = %q, want %q", when, got, want)
		}
		if got, want := eval[string](t, ctx, `document.getElementById('lesson-text').textContent`), eval[string](t, ctx, `lockstep.state.snap.lesson.zh`); got != want {
			t.Errorf("%s: the lesson's paragraph in 中文 = %q, want %q", when, got, want)
		}
		if got := text(t, ctx, "challenge-offscript"); !strings.Contains(got, fmt.Sprintf("第 %d 步", cut)) || !strings.Contains(got, "不是挑战") {
			t.Errorf("%s: the challenge panel's note in 中文 = %q", when, got)
		}
		shot(t, ctx, dir, "offscript-prose-zh")
		click(t, ctx, "lang")
		waitFor(t, ctx, when+": English", `document.documentElement.lang === 'en'`)
	}

	unmarked("loaded")
	step(t, ctx)
	step(t, ctx)
	unmarked("after the engine's own steps")

	// B moves by hand: the run leaves its script where the cursor was.
	cut := eval[int](t, ctx, `lockstep.state.snap.step`)
	waitFor(t, ctx, "B can move", `!!document.querySelector('[data-testid="move-B"]')`)
	click(t, ctx, "move-B")
	waitFor(t, ctx, "off script", fmt.Sprintf(`lockstep.state.snap.offScript && lockstep.state.snap.step > %d`, cut))
	if at := eval[int](t, ctx, `lockstep.state.snap.offScriptAt`); at != cut {
		t.Fatalf("left the script at step %d, want %d", at, cut)
	}
	marked("after a move by hand", cut)
	shot(t, ctx, dir, "offscript-prose-en")

	// Back to the step of the change: the move is not made yet, the run
	// is the lesson's again.
	click(t, ctx, "back")
	waitFor(t, ctx, "back at the cut", fmt.Sprintf(`lockstep.state.snap.step === %d`, cut))
	unmarked("back before the move")
	// Forward: the recorded move replays, off the script again.
	step(t, ctx)
	waitFor(t, ctx, "off script again", `lockstep.state.snap.offScript`)
	marked("the move replayed", cut)

	click(t, ctx, "reset")
	waitFor(t, ctx, "reset", `lockstep.state.snap.step === 0`)
	unmarked("after Reset")

	// The challenge: a run without the lesson's script from its start.
	click(t, ctx, "challenge-take")
	waitFor(t, ctx, "the challenge taken", `(c => !!(c && c.active && c.progress))(lockstep.state.snap.challenge)`)
	waitFor(t, ctx, "the paragraph marked in the challenge", `(p => !!p && !p.hidden)(document.querySelector('[data-testid=lesson-plan]'))`)
	if got := text(t, ctx, "lesson-plan"); !strings.Contains(got, "The lesson's plan") || !strings.Contains(got, "challenge") {
		t.Errorf("in the challenge, the paragraph's label = %q", got)
	}
	waitFor(t, ctx, "A can move", `!!document.querySelector('[data-testid="move-A"]')`)
	click(t, ctx, "move-A")
	waitFor(t, ctx, "the move counted", `lockstep.state.snap.challenge.progress.moves === 1`)
	if eval[bool](t, ctx, `!!document.querySelector('[data-testid=challenge-offscript]')`) {
		t.Errorf("in the challenge, the panel says its run is not the challenge: %q", text(t, ctx, "challenge-offscript"))
	}
	if got := eval[string](t, ctx, `document.querySelector('[data-testid=challenge-status]').dataset.state`); got != "notyet" {
		t.Errorf("in the challenge after one move: status %q, want notyet", got)
	}
	click(t, ctx, "lang")
	waitFor(t, ctx, "the challenge's label in 中文", `document.querySelector('[data-testid=lesson-plan]').textContent.includes('挑战')`)
	click(t, ctx, "lang")
	click(t, ctx, "challenge-leave")
	waitFor(t, ctx, "the lesson again", `(c => c && !c.active)(lockstep.state.snap.challenge) && lockstep.state.snap.step === 0`)
	unmarked("back to the lesson")
}
