package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/lockstep/lockstep/internal/server"
)

// TestBrowserClassAccessible runs axe-core over the class's screens, for
// the teacher in English and a student in 中文 on a phone: the big code
// for the projector, the join dialog, a student following with a question
// open, the answered question, the teacher's revealed tally, and a
// roaming student. No serious or critical finding may remain.
func TestBrowserClassAccessible(t *testing.T) {
	chromium(t)
	base := startServer(t, server.Options{})
	browser := startBrowser(t)

	teacher := axeTab(t, browser)
	open(t, teacher, base)
	load(t, teacher, "no-lock-oversell")
	click(t, teacher, "start-class")
	waitFor(t, teacher, "the class's code", `!!document.querySelector('[data-testid=class-big-code]')`)
	code := text(t, teacher, "class-code")
	audit(t, teacher, "teacher, the big code")
	clickJS(t, teacher, ".class-big button")
	click(t, teacher, "step")

	student := axeTab(t, browser)
	do(t, student, "a phone's screen", chromedp.EmulateViewport(414, 896))
	open(t, student, base)
	click(t, student, "lang")
	waitFor(t, student, "中文", `document.documentElement.lang === 'zh-CN'`)
	click(t, student, "join-class")
	choose(t, student, "join-code", code)
	waitFor(t, student, "the join dialog", `!document.querySelector('[data-testid=join-dialog]').hidden`)
	audit(t, student, "student, the join dialog")
	choose(t, student, "nickname", "小明")
	click(t, student, "join")
	waitFor(t, student, "in the class", `(c => c && c.role === 'student')(lockstep.classroom.cls)`)
	audit(t, student, "student, following")

	choose(t, teacher, "ask-kind", "next")
	click(t, teacher, "ask")
	waitFor(t, student, "the question", `document.querySelectorAll('[data-testid=answer]').length > 1`)
	audit(t, student, "student, a question open")
	audit(t, teacher, "teacher, a question asked")
	clickJS(t, student, `[data-testid=answer][data-choice="0"]`)
	waitFor(t, student, "the answer counted", `lockstep.classroom.cls.question.mine != null`)
	audit(t, student, "student, answered")
	waitFor(t, teacher, "one answer", `lockstep.classroom.cls.counts.answered === 1`)
	click(t, teacher, "reveal")
	waitFor(t, teacher, "the tally", `!!document.querySelector('[data-testid=tally]')`)
	waitFor(t, student, "the tally", `!!document.querySelector('[data-testid=tally]')`)
	audit(t, teacher, "teacher, the tally")
	audit(t, student, "student, the tally")

	click(t, student, "roam")
	waitFor(t, student, "roaming", `document.querySelector('[data-testid=follow]').dataset.following === 'false'`)
	audit(t, student, "student, roaming")
}
