package e2e

import (
	"strings"
	"testing"

	"github.com/lockstep/lockstep/internal/server"
)

// TestBrowserClassDismiss: a revealed question stays on the students'
// screens until the teacher dismisses it (Dismiss, 收起 in 中文), and a
// question goes with the lesson when the teacher loads another.
func TestBrowserClassDismiss(t *testing.T) {
	base := startServer(t, server.Options{})
	browser := startBrowser(t)
	teacher := page(t, browser, base)
	load(t, teacher, "no-lock-oversell")
	click(t, teacher, "start-class")
	waitFor(t, teacher, "the class's code", `!!document.querySelector('[data-testid=class-code]')`)
	code := text(t, teacher, "class-code")
	clickJS(t, teacher, ".class-big button")
	student := page(t, browser, base)
	click(t, student, "join-class")
	choose(t, student, "join-code", strings.ToLower(code))
	choose(t, student, "nickname", "Ann")
	click(t, student, "join")
	waitFor(t, student, "Ann in the class", `(c => c && c.role === 'student')(lockstep.classroom.cls)`)
	step(t, teacher)

	click(t, teacher, "ask")
	waitFor(t, student, "the question", `!!document.querySelector('[data-testid=question]')`)
	click(t, teacher, "reveal")
	waitFor(t, student, "the tally", `!!document.querySelector('[data-testid=tally]')`)
	// the teacher's page may hear of it after the student's
	waitFor(t, teacher, "the teacher's Dismiss", `!!document.querySelector('[data-testid=dismiss-question]')`)
	if got := text(t, teacher, "dismiss-question"); got != "Dismiss" {
		t.Fatalf("the teacher's button reads %q, want Dismiss", got)
	}
	click(t, teacher, "dismiss-question")
	waitFor(t, student, "the question gone", `!document.querySelector('[data-testid=question]')`)
	waitFor(t, teacher, "the question gone from the projector", `!document.querySelector('[data-testid=question]') && !document.querySelector('[data-testid=dismiss-question]')`)
	if n := eval[int](t, teacher, `lockstep.classroom.history.length`); n != 1 {
		t.Fatalf("the teacher's tally holds %d questions after the dismissal, want 1", n)
	}

	// In 中文 the button is 收起; another lesson takes the question away.
	click(t, teacher, "lang")
	waitFor(t, teacher, "中文", `lockstep.state.lang === 'zh'`)
	click(t, teacher, "ask")
	waitFor(t, student, "the second question", `!!document.querySelector('[data-testid=question]')`)
	waitFor(t, teacher, "the teacher's 收起", `!!document.querySelector('[data-testid=dismiss-question]')`)
	if got := text(t, teacher, "dismiss-question"); got != "收起" {
		t.Fatalf("the 中文 teacher's button reads %q, want 收起", got)
	}
	load(t, teacher, "blind-del-long-work")
	waitFor(t, student, "the question gone with the lesson", `lockstep.state.snap.scenario === 'blind-del-long-work' && !document.querySelector('[data-testid=question]')`)
	if eval[bool](t, teacher, `!!document.querySelector('[data-testid=question]')`) {
		t.Fatal("the teacher's screen keeps the question of the lesson before")
	}
}
