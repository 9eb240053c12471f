package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/lockstep/lockstep/internal/server"
)

// sameRun waits until a student's page shows the teacher's run: the same
// step and the same events, text for text.
func sameRun(t *testing.T, student, teacher context.Context, who string) {
	t.Helper()
	want := eval[string](t, teacher, `JSON.stringify([lockstep.state.snap.step, lockstep.state.model.events.map(e => e.text)])`)
	waitFor(t, student, who+" at the teacher's step", fmt.Sprintf(`JSON.stringify([lockstep.state.snap.step, lockstep.state.model.events.map(e => e.text)]) === %q`, want))
}

// clickJS clicks an element by a CSS selector from the page's side (the
// element may be under another, as a dialog's button is not).
func clickJS(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	do(t, ctx, "click "+sel, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector(%q).click()`, sel)))
}

// TestBrowserClass is a class in real Chromium: a teacher and four
// students (one on a phone, one in 中文, one who joins late). They join by
// code, follow three steps, one roams and comes back, a late joiner catches
// up, a question is asked and answered by all, the reveal shows the right
// tally and the truth from the run, and the teacher ends the class.
func TestBrowserClass(t *testing.T) {
	base := startServer(t, server.Options{})
	browser := startBrowser(t)
	teacher := page(t, browser, base)
	load(t, teacher, "no-lock-oversell")
	click(t, teacher, "start-class")
	waitFor(t, teacher, "the class's code", `!!document.querySelector('[data-testid=class-code]')`)
	code := text(t, teacher, "class-code")
	if len(code) != 6 || text(t, teacher, "class-big-code") != code {
		t.Fatalf("the class's code %q, shown big as %q", code, text(t, teacher, "class-big-code"))
	}
	if link := text(t, teacher, "class-link"); link != base+"/#join="+code {
		t.Fatalf("join link %q, want %s/#join=%s", link, base, code)
	}
	if n := eval[int](t, teacher, `document.querySelectorAll('.class-big svg.qr path').length`); n != 1 {
		t.Fatalf("the big code has %d QR paths", n)
	}
	// The teacher's key is in this browser's storage, never on the page.
	key := eval[string](t, teacher, fmt.Sprintf(`localStorage.getItem('lockstep.teach.%s') || ''`, code))
	if len(key) < 16 || strings.Contains(eval[string](t, teacher, `document.body.innerHTML`), key) {
		t.Fatalf("the teacher's key %q: missing, or shown on the page", key)
	}
	clickJS(t, teacher, ".class-big button")

	// Three students: a laptop typing the code, a phone opening the join
	// link, one in 中文.
	joinAs := func(ctx context.Context, name string, typed bool) {
		t.Helper()
		if typed {
			click(t, ctx, "join-class")
			choose(t, ctx, "join-code", strings.ToLower(code))
		}
		waitFor(t, ctx, "the join dialog", `!document.querySelector('[data-testid=join-dialog]').hidden`)
		if got := eval[string](t, ctx, `document.querySelector('[data-testid=join-code]').value`); !strings.EqualFold(got, code) {
			t.Fatalf("%s: the join dialog holds the code %q, want %s", name, got, code)
		}
		choose(t, ctx, "nickname", name)
		click(t, ctx, "join")
		waitFor(t, ctx, name+" in the class", `(c => c && c.role === 'student')(lockstep.classroom.cls)`)
		sameRun(t, ctx, teacher, name)
	}
	ann := page(t, browser, base)
	joinAs(ann, "Ann", true)
	phone := tab(t, browser, true)
	probs := watch(t, phone)
	t.Cleanup(func() {
		for _, p := range probs.take() {
			t.Errorf("phone: page problem: %s", p)
		}
	})
	do(t, phone, "a phone's screen", chromedp.EmulateViewport(414, 896))
	do(t, phone, "open the join link", chromedp.Navigate(base+"/#join="+code))
	waitFor(t, phone, "the page", `!!(window.lockstep && window.lockstep.state.snap)`)
	joinAs(phone, "Bo", false)
	zh := page(t, browser, base)
	click(t, zh, "lang")
	waitFor(t, zh, "中文", `lockstep.state.lang === 'zh'`)
	joinAs(zh, "小明", true)
	students := map[string]context.Context{"Ann": ann, "Bo": phone, "小明": zh}
	waitFor(t, teacher, "three in the class", `lockstep.classroom.cls.counts.online === 3 && lockstep.classroom.cls.counts.following === 3`)

	// Follow three steps.
	for range 3 {
		step(t, teacher)
		for name, ctx := range students {
			sameRun(t, ctx, teacher, name)
		}
	}
	// The teacher's view follows too: the time view and the selected row.
	click(t, teacher, "time-scale")
	sel := eval[int](t, teacher, `lockstep.state.model.events[2].seq`)
	do(t, teacher, "select a row", chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`lockstep.state.selected = %d`, sel)))
	do(t, teacher, "render", chromedp.Evaluate[chromedp.Void](`lockstep.classroom.render()`))
	for name, ctx := range students {
		waitFor(t, ctx, name+" sees the teacher's view", fmt.Sprintf(`lockstep.state.timeScale === true && lockstep.state.selected === %d`, sel))
	}
	// The code view: the teacher picks B's code; their screens show B's.
	do(t, teacher, "B's code", chromedp.Evaluate[chromedp.Void](`document.querySelector('.code-client[data-client=B]').click()`))
	do(t, teacher, "render", chromedp.Evaluate[chromedp.Void](`lockstep.classroom.render()`))
	for name, ctx := range students {
		waitFor(t, ctx, name+" sees B's code", `lockstep.code.client === 'B' && document.querySelector('.code-client[data-client=B]').getAttribute('aria-pressed') === 'true'`)
	}
	// Side by side: their screens open it with the teacher's choice, and
	// close it with the teacher.
	click(t, teacher, "compare-open")
	for name, ctx := range students {
		waitFor(t, ctx, name+" sees Side by side", `!document.querySelector('[data-testid=compare]').hidden && !!lockstep.state.snap`)
	}
	click(t, teacher, "compare-close")
	for name, ctx := range students {
		waitFor(t, ctx, name+" closes Side by side", `document.querySelector('[data-testid=compare]').hidden`)
	}
	// Ann roams: a step of her own; the class goes on without her.
	ann0 := eval[int](t, ann, `lockstep.state.snap.step`)
	click(t, ann, "roam")
	waitFor(t, ann, "roaming", `document.querySelector('[data-testid=follow]').dataset.following === 'false'`)
	step(t, ann)
	step(t, teacher)
	sameRun(t, phone, teacher, "Bo")
	sameRun(t, zh, teacher, "小明")
	if got := eval[int](t, ann, `lockstep.state.snap.step`); got != ann0+1 {
		t.Fatalf("roaming Ann is at step %d, want her own %d", got, ann0+1)
	}
	waitFor(t, teacher, "one roaming", `lockstep.classroom.cls.counts.roaming === 1`)
	if c := text(t, teacher, "room-count"); !strings.Contains(c, "3 in the class") || !strings.Contains(c, "1 roaming") {
		t.Fatalf("the teacher's counts read %q", c)
	}
	click(t, ann, "back-to-class")
	sameRun(t, ann, teacher, "Ann, back")

	// A late joiner catches up at once.
	late := page(t, browser, base)
	joinAs(late, "Cy", true)
	students["Cy"] = late

	// A question: which client moves next? Everyone answers.
	choose(t, teacher, "ask-kind", "next")
	click(t, teacher, "ask")
	waitFor(t, teacher, "the question", `!!document.querySelector('[data-testid=question]')`)
	nChoices := eval[int](t, teacher, `lockstep.classroom.cls.question.choices.length`)
	answers := map[int]int{}
	i := 0
	for name, ctx := range students {
		waitFor(t, ctx, name+" sees the question", `document.querySelectorAll('[data-testid=answer]').length > 1`)
		c := i % nChoices
		i++
		answers[c]++
		clickJS(t, ctx, fmt.Sprintf(`[data-testid=answer][data-choice="%d"]`, c))
		waitFor(t, ctx, name+"'s answer counted", `lockstep.classroom.cls.question.mine != null`)
	}
	if got := eval[string](t, zh, `document.querySelector('.class-q-text b').textContent`); got != "下一步由哪个客户端行动？" {
		t.Fatalf("the 中文 student reads the question as %q", got)
	}
	waitFor(t, teacher, "four answers", `lockstep.classroom.cls.counts.answered === 4`)
	// Until the reveal the projector says how many answered, not which way.
	waitFor(t, teacher, "the count of answers", `/4/.test(document.querySelector('.class-q-foot').textContent)`)
	if eval[bool](t, teacher, `!!document.querySelector('[data-testid=tally], .class-fill')`) {
		t.Fatalf("the teacher's screen shows the tally before the reveal")
	}
	click(t, teacher, "reveal")
	for name, ctx := range students {
		waitFor(t, ctx, name+" sees the tally", `!!document.querySelector('[data-testid=tally]')`)
		for c := range nChoices {
			got := eval[string](t, ctx, fmt.Sprintf(`document.querySelector('[data-testid=tally] li[data-choice="%d"]').dataset.count`, c))
			if got != fmt.Sprint(answers[c]) {
				t.Fatalf("%s: the tally shows %s for choice %d, want %d", name, got, c, answers[c])
			}
		}
	}
	// The truth is the client whose move the next step logs.
	truth := eval[string](t, teacher, `(q => q.choices[q.truth[0]].en)(lockstep.classroom.cls.question)`)
	right := eval[string](t, ann, `document.querySelector('[data-testid=tally] li.right .class-choice').textContent`)
	if right != truth {
		t.Fatalf("the tally marks %q right, the truth is %q", right, truth)
	}
	before := eval[int](t, teacher, `lockstep.state.model.events.length`)
	step(t, teacher)
	mover := eval[string](t, teacher, fmt.Sprintf(`(lockstep.state.model.events.slice(%d).find(e => e.client) || {client: 'no client: a key expires'}).client`, before))
	if !strings.HasPrefix(truth, mover) {
		t.Fatalf("the truth said %q moves next; the step moved %q", truth, mover)
	}
	// On a projector (Presenter mode at 1280×720) the class bar and the
	// question leave the timeline most of the screen.
	do(t, teacher, "a projector's screen", chromedp.EmulateViewport(1280, 720))
	click(t, teacher, "presenter")
	if h := eval[float64](t, teacher, `document.querySelector('[data-testid=class]').getBoundingClientRect().height`); h > 200 {
		t.Errorf("in Presenter mode at 1280×720 the class bar is %.0f px high", h)
	}
	if h := eval[float64](t, teacher, `document.querySelector('[data-testid=timeline]').getBoundingClientRect().height`); h < 300 {
		t.Errorf("in Presenter mode at 1280×720 the timeline is %.0f px high", h)
	}
	// The clicker's PageDown steps the teacher, and the class follows.
	before = eval[int](t, teacher, `lockstep.state.snap.step`)
	do(t, teacher, "the clicker's PageDown", chromedp.KeyEvent(kb.PageDown))
	waitFor(t, teacher, "a step by the clicker", fmt.Sprintf(`lockstep.state.snap.step > %d`, before))
	for name, ctx := range students {
		if eval[bool](t, ctx, `document.querySelector('[data-testid=follow]').dataset.following !== 'false'`) {
			sameRun(t, ctx, teacher, name+" after the clicker")
		}
	}
	shot(t, teacher, artifacts(t), "class-teacher")
	shot(t, phone, artifacts(t), "class-phone")

	// The teacher ends the class: every student is told and is on their own.
	do(t, teacher, "agree to end", chromedp.Evaluate[chromedp.Void](`window.confirm = () => true`))
	click(t, teacher, "end-class")
	for name, ctx := range students {
		waitFor(t, ctx, name+" out of the class", `lockstep.classroom.cls === null && document.querySelector('[data-testid=class]').hidden`)
	}
	waitFor(t, teacher, "the teacher out of the class", `lockstep.classroom.cls === null`)
	if n := eval[int](t, teacher, `lockstep.classroom.history.length`); n != 1 {
		t.Fatalf("the teacher's page keeps %d questions for the CSV, want 1", n)
	}
}
