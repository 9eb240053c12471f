package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/lockstep/lockstep/internal/server"
)

// TestBrowserClassKeepsTheTeachersSettings walks the README's 50-minute
// class in the order a teacher does it: tick "Hide what gives it away",
// start the class, go to Presenter mode and 中文, ask which verdict the run
// will end with, reveal, and take the tally home after ending the class.
// What the teacher set before the class holds in it; the verdict choices
// read as the page names verdicts; the tally is reachable on the projector
// and after the end.
func TestBrowserClassKeepsTheTeachersSettings(t *testing.T) {
	base := startServer(t, server.Options{})
	browser := startBrowser(t)
	teacher := page(t, browser, base)
	load(t, teacher, "no-lock-oversell")
	click(t, teacher, "hide-giveaways")
	waitFor(t, teacher, "the page hides", `lockstep.classroom.hiding()`)
	click(t, teacher, "start-class")
	waitFor(t, teacher, "the class's code", `!!document.querySelector('[data-testid=class-code]')`)
	code := text(t, teacher, "class-code")
	clickJS(t, teacher, ".class-big button")
	// The setting ticked before the class is the room's.
	waitFor(t, teacher, "the room hides", `lockstep.classroom.cls.hide === true`)

	student := page(t, browser, base)
	click(t, student, "join-class")
	choose(t, student, "join-code", code)
	choose(t, student, "nickname", "Ann")
	click(t, student, "join")
	waitFor(t, student, "Ann in the class", `(c => c && c.role === 'student')(lockstep.classroom.cls)`)
	waitFor(t, student, "the expected verdict hidden from Ann", `lockstep.classroom.hiding() && !document.getElementById('expect').textContent.includes('oversell')`)

	// On the projector, in 中文: a verdict question.
	click(t, teacher, "presenter")
	click(t, teacher, "lang")
	waitFor(t, teacher, "中文", `lockstep.state.lang === 'zh'`)
	choose(t, teacher, "ask-kind", "verdict")
	click(t, teacher, "ask")
	waitFor(t, student, "the question", `document.querySelectorAll('[data-testid=answer]').length > 1`)
	clickJS(t, student, `[data-testid=answer][data-choice="0"]`)
	waitFor(t, teacher, "one answer", `lockstep.classroom.cls.counts.answered === 1`)
	click(t, teacher, "reveal")
	waitFor(t, teacher, "revealed", `lockstep.classroom.cls.question.revealed`)
	// Each choice is a verdict name as the page writes it in 中文: 超卖（oversell）.
	labels := eval[[]string](t, teacher, `[...document.querySelectorAll('[data-testid=tally] .class-choice')].map(e => e.textContent)`)
	if len(labels) < 2 {
		t.Fatalf("the tally shows %d choices", len(labels))
	}
	for _, l := range labels {
		if !hasHan(l) {
			t.Errorf("a verdict choice on the 中文 projector reads %q: no Chinese name", l)
		}
	}
	// The tally's CSV is on the projector once a question was asked.
	if !eval[bool](t, teacher, `(b => !!b && !b.disabled && b.offsetParent !== null)(document.querySelector('[data-testid=export-csv]'))`) {
		t.Errorf("Presenter mode hides Tally (CSV) after a question was asked")
	}

	// The class ends; the tally stays offered until the teacher puts it away.
	do(t, teacher, "agree to end", chromedp.Evaluate[chromedp.Void](`window.confirm = () => true`))
	click(t, teacher, "end-class")
	waitFor(t, teacher, "the class ended", `lockstep.classroom.cls === null`)
	waitFor(t, teacher, "the tally after the class", `(b => !!b && !b.disabled && b.offsetParent !== null)(document.querySelector('[data-testid=export-csv]'))`)
	click(t, teacher, "dismiss-tally")
	waitFor(t, teacher, "the bar put away", `document.getElementById('class').hidden`)
}

// hasHan reports whether s holds a Chinese character.
func hasHan(s string) bool {
	for _, r := range s {
		if r >= 0x4e00 && r <= 0x9fff {
			return true
		}
	}
	return false
}
