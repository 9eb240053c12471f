package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/lockstep/lockstep/internal/server"
)

// TestBrowserClassKeepsTheTeachersSettings walks the 50-minute
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
	// Outside a class the lesson's paragraph ("…the stock is sold twice")
	// goes too; the chapters the run has not reached are never listed.
	waitFor(t, teacher, "the lesson's paragraph hidden, the chapters ahead unlisted", lessonHidden(hiddenLessonEn)+" && "+chaptersAheadUnlisted)
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
	waitFor(t, student, "the lesson's paragraph and the chapters ahead hidden from Ann", lessonHidden(hiddenLessonEn)+" && "+chaptersAheadUnlisted)
	// The server does not even send them to her.
	if got := eval[string](t, student, `lockstep.state.snap.lesson.en + lockstep.state.snap.lesson.zh + lockstep.state.snap.expect.join()`); got != "" {
		t.Errorf("while the teacher hides, Ann's state carries the lesson and the verdict: %q", got)
	}
	// A second tab of Ann's browser may not join under another nickname
	// (and vote twice).
	twin, closeTwin := chromedp.NewContext(student)
	defer closeTwin()
	open(t, twin, base)
	click(t, twin, "join-class")
	choose(t, twin, "join-code", code)
	choose(t, twin, "nickname", "Ann's twin")
	click(t, twin, "join")
	waitFor(t, twin, "the twin refused", `(e => !!e && e.code === 'class-one-seat')(lockstep.state.lastError) && !lockstep.classroom.cls && document.body.textContent.includes('this browser is in the class already, as Ann')`)
	closeTwin()
	// Off its script (the teacher moves B by hand), the lesson's-plan
	// label stands over the paragraph, which stays hidden.
	step(t, teacher)
	step(t, teacher)
	waitFor(t, teacher, "B can move", `!!document.querySelector('[data-testid="move-B"]')`)
	click(t, teacher, "move-B")
	waitFor(t, student, "the plan's label over the hidden paragraph", `lockstep.state.snap.offScript && (l => !l.hidden && l.textContent.includes("The lesson's plan"))(document.getElementById('lesson-plan')) && document.getElementById('lesson-text').hasAttribute('data-plan') && `+lessonHidden(hiddenLessonEn))

	// On the projector, in 中文: a verdict question.
	click(t, teacher, "presenter")
	click(t, teacher, "lang")
	waitFor(t, teacher, "中文", `lockstep.state.lang === 'zh'`)
	waitFor(t, teacher, "the paragraph hidden in 中文", lessonHidden("（运行结束前隐藏：它说出了这次运行的结局）"))
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

	// The tally's CSV: a row a choice, the question and the choice quoted
	// (a quote doubled), in the page's language, the truth marked.
	rows := eval[[]string](t, teacher, `lockstep.classroom.csv().trim().split('\n')`)
	if len(rows) != 1+len(labels) || rows[0] != "question,asked at step,kind,text,choice,answers,right" {
		t.Fatalf("the tally's CSV: %q", rows)
	}
	rights := 0
	for i, r := range rows[1:] {
		want := fmt.Sprintf(`1,%d,verdict,"这次运行最终会得到哪个判定？","%s",`, eval[int](t, teacher, `lockstep.classroom.history[0].at`), labels[i])
		if !strings.HasPrefix(r, want) {
			t.Errorf("CSV row %d = %q, want it to start %q", i+1, r, want)
		}
		if strings.HasSuffix(r, ",yes") {
			rights++
		} else if !strings.HasSuffix(r, ",no") {
			t.Errorf("CSV row %d = %q: no truth column", i+1, r)
		}
	}
	if rights == 0 {
		t.Errorf("the tally's CSV marks no choice right: %q", rows)
	}
	free := `lockstep.classroom.csv([{id: 2, at: 3, kind: 'free', text: {en: 'Say "hi"?', zh: '说"你好"吗？'}, choices: [{en: 'a,b', zh: 'a,乙'}, {en: 'c', zh: '丙'}], counts: [2], truth: []}], 'zh')`
	if got, want := eval[string](t, teacher, free), "question,asked at step,kind,text,choice,answers,right\n"+
		`2,3,free,"说""你好""吗？","a,乙",2,`+"\n"+`2,3,free,"说""你好""吗？","丙",0,`+"\n"; got != want {
		t.Errorf("a free question's CSV (quotes, commas, 中文, no truth):\n got %q\nwant %q", got, want)
	}

	// The run ends: the paragraph comes back. Back before the end it hides
	// again, until the teacher stops hiding.
	do(t, teacher, "to the end", chromedp.Evaluate[chromedp.Void](`lockstep.link.send('seek', {step: 1000})`))
	waitFor(t, student, "the paragraph at the end", `lockstep.state.snap.ended && !document.getElementById('lesson-text').hasAttribute('data-hidden') && document.getElementById('lesson-text').textContent.includes('sold twice')`)
	do(t, teacher, "back to step 1", chromedp.Evaluate[chromedp.Void](`lockstep.link.send('seek', {step: 1})`))
	waitFor(t, student, "the paragraph hidden again", `!lockstep.state.snap.ended && `+lessonHidden(hiddenLessonEn))
	clickJS(t, teacher, "[data-testid=class-hide]")
	waitFor(t, student, "the paragraph once the teacher stops hiding", `!lockstep.classroom.hiding() && document.getElementById('lesson-text').textContent.includes('sold twice') && document.getElementById('expect').textContent.includes('oversell')`)
	waitFor(t, student, "the chapters ahead still unlisted", chaptersAheadUnlisted)

	// The class ends; the tally stays offered until the teacher puts it away.
	do(t, teacher, "agree to end", chromedp.Evaluate[chromedp.Void](`window.confirm = () => true`))
	click(t, teacher, "end-class")
	waitFor(t, teacher, "the class ended", `lockstep.classroom.cls === null`)
	waitFor(t, teacher, "the tally after the class", `(b => !!b && !b.disabled && b.offsetParent !== null)(document.querySelector('[data-testid=export-csv]'))`)
	click(t, teacher, "dismiss-tally")
	waitFor(t, teacher, "the bar put away", `document.getElementById('class').hidden`)
}

// The placeholder of the hidden lesson's paragraph, and the page's tests
// of what is hidden: the paragraph, and every chapter the run has not
// reached, hiding or not (there is at least one: it is counted, not
// listed).
const hiddenLessonEn = "(hidden until the end: it tells how the run ends)"

func lessonHidden(placeholder string) string {
	return fmt.Sprintf(`(p => p.hasAttribute('data-hidden') && p.textContent === %q)(document.getElementById('lesson-text'))`, placeholder)
}

const chaptersAheadUnlisted = `(s => !!document.querySelector('[data-testid=chapters-ahead]') && [...document.querySelectorAll('#chapters [data-step]')].every(b => +b.dataset.step <= s) && !(lockstep.state.snap.chapters || []).filter(c => c.step > s).some(c => document.body.innerText.includes(c.text.en)))(lockstep.state.snap.step)`

// hasHan reports whether s holds a Chinese character.
func hasHan(s string) bool {
	for _, r := range s {
		if r >= 0x4e00 && r <= 0x9fff {
			return true
		}
	}
	return false
}
