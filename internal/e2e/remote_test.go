package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/lockstep/lockstep/internal/server"
)

// remotePage opens the teacher's remote at link in a fresh tab of browser
// on a 414×896 phone and waits until it shows the run; the test fails for
// every problem the page reported.
func remotePage(t *testing.T, browser context.Context, link string) context.Context {
	t.Helper()
	ctx := tab(t, browser, true)
	probs := watch(t, ctx)
	t.Cleanup(func() {
		for _, p := range probs.take() {
			t.Errorf("remote page problem: %s", p)
		}
	})
	do(t, ctx, "a phone", chromedp.EmulateViewport(414, 896, chromedp.EmulateMobile, chromedp.EmulateTouch))
	do(t, ctx, "open the remote", chromedp.Navigate(link))
	waitFor(t, ctx, "the remote's run", `!!document.querySelector('[data-testid=remote-step-n]')`)
	return ctx
}

// tapRemote taps a remote's button and waits for cond on the projector.
func tapRemote(t *testing.T, remote, projector context.Context, testid, what, cond string) {
	t.Helper()
	click(t, remote, testid)
	waitFor(t, projector, what, cond)
}

// TestBrowserTeacherRemote: a teacher at 1280×720 in Presenter mode presses
// Remote on the class bar (which still fits), and a phone opens the
// one-time link of its QR code (then spent: a second phone is refused).
// From the phone, at 414×896, in English and in 中文: Step and Back move
// the projector and the student; the phone shows the projector's step and
// narration line, never one ahead; Ask, the tally as it grows, Reveal and
// Dismiss reach every screen; a question of the teacher's own typed on
// the phone; Play and Pause; Hide what gives it away. When
// the class ends the phone says so.
func TestBrowserTeacherRemote(t *testing.T) {
	base := startServer(t, server.Options{})
	browser := startBrowser(t)
	dir := artifacts(t)
	for _, lang := range []string{"en", "zh"} {
		t.Run(lang, func(t *testing.T) {
			teacher := page(t, browser, base)
			do(t, teacher, "a projector's screen", chromedp.EmulateViewport(1280, 720))
			inLang(t, teacher, lang)
			load(t, teacher, "no-lock-oversell")
			click(t, teacher, "presenter")
			click(t, teacher, "start-class")
			waitFor(t, teacher, "the class's code", `!!document.querySelector('[data-testid=class-code]')`)
			code := text(t, teacher, "class-code")
			clickJS(t, teacher, ".class-big button")
			student := page(t, browser, base)
			do(t, student, "a phone", chromedp.EmulateViewport(414, 896, chromedp.EmulateMobile, chromedp.EmulateTouch))
			inLang(t, student, lang)
			joinClass(t, student, code, "Ann")

			if bad := eval[[]string](t, teacher, barCut); len(bad) > 0 {
				t.Errorf("the class bar with Remote at 1280x720: %q", bad)
			}
			want := map[string]string{"en": "Remote", "zh": "遥控"}[lang]
			if got := text(t, teacher, "remote-open"); got != want {
				t.Errorf("the class bar's button reads %q, want %q", got, want)
			}
			press(t, teacher, "remote-open")
			waitFor(t, teacher, "the remote's QR code", `!!document.querySelector('[data-testid=remote-pair] svg.qr')`)
			link := text(t, teacher, "remote-link")
			key := eval[string](t, teacher, fmt.Sprintf(`localStorage.getItem('lockstep.teach.%s')`, code))
			if !strings.Contains(link, "/remote#"+code+".") || strings.Contains(link, key) {
				t.Fatalf("the projector shows the link %q: want /remote#%s.SECRET, never the key", link, code)
			}
			shot(t, teacher, dir, "remote-pair-"+lang)

			remote := remotePage(t, browser, link)
			inLangRemote(t, remote, lang)
			if h := eval[string](t, remote, `location.hash`); h != "" {
				t.Errorf("the remote keeps its secret in the address bar: %q", h)
			}
			waitFor(t, remote, "the key kept on the phone", fmt.Sprintf(`localStorage.getItem('lockstep.teach.%s') === %q`, code, key))
			waitFor(t, teacher, "the spent QR code gone from the projector", `document.querySelector('[data-testid=remote-pair]').hidden`)
			// The link is spent: a second phone is refused.
			other := tab(t, browser, true)
			do(t, other, "a second phone", chromedp.Navigate(link))
			waitFor(t, other, "the second phone refused", `(e => e && e.classList.contains('bad'))(document.getElementById('toast'))`)

			// Step from the phone: the projector, the student and the phone agree.
			for n := 1; n <= 3; n++ {
				tapRemote(t, remote, teacher, "remote-step", fmt.Sprintf("step %d on the projector", n), fmt.Sprintf(`lockstep.state.snap.step === %d`, n))
				waitFor(t, student, fmt.Sprintf("step %d on the student's phone", n), fmt.Sprintf(`lockstep.state.snap.step === %d`, n))
				waitFor(t, remote, fmt.Sprintf("step %d on the remote", n), fmt.Sprintf(`document.querySelector('[data-testid=remote-step-n]').dataset.step === '%d'`, n))
				projected := eval[string](t, teacher, `(e => e ? e.textContent.trim() : '')(document.querySelector('#narration .say:not(.intro)'))`)
				said := text(t, remote, "remote-say")
				if projected != "" && said != projected {
					t.Errorf("step %d: the remote says %q, the projector %q", n, said, projected)
				}
			}
			tapRemote(t, remote, teacher, "remote-back", "Back on the projector", `lockstep.state.snap.step === 2`)
			waitFor(t, student, "Back on the student's phone", `lockstep.state.snap.step === 2`)

			// A question from the phone: the tally grows there before Reveal.
			tapRemote(t, remote, teacher, "remote-ask", "the question on the projector", `!!document.querySelector('[data-testid=question]')`)
			waitFor(t, student, "the question on the student's phone", `!!document.querySelector('[data-testid=answer]')`)
			waitFor(t, remote, "the question on the remote", `!!document.querySelector('[data-testid=remote-reveal]')`)
			click(t, student, "answer")
			waitFor(t, remote, "the answer counted on the remote", `[...document.querySelectorAll('.rm-choices li')].some(li => li.dataset.count === '1')`)
			shot(t, remote, dir, "remote-question-"+lang)
			tapRemote(t, remote, teacher, "remote-reveal", "the tally on the projector", `!!document.querySelector('[data-testid=tally]')`)
			waitFor(t, student, "the tally on the student's phone", `!!document.querySelector('[data-testid=tally]')`)
			tapRemote(t, remote, teacher, "remote-dismiss", "the question gone from the projector", `!document.querySelector('[data-testid=question]')`)
			waitFor(t, student, "the question gone from the student's phone", `!document.querySelector('[data-testid=question]')`)

			// A question queued for step 4 from the phone: asked by itself
			// when the run gets there, on the projector and the student's phone.
			choose(t, remote, "remote-ask-kind", "holder")
			choose(t, remote, "remote-queue-step", "4")
			click(t, remote, "remote-queue-add")
			waitFor(t, remote, "the queue on the remote", `[...document.querySelectorAll('[data-testid=remote-queue] li')].map(li => li.dataset.step).join() === '4'`)
			shot(t, remote, dir, "remote-queue-"+lang)
			// The projector shows the queue the phone made, in its language,
			// on one line under the class bar.
			waitFor(t, teacher, "the queue on the projector", `[...document.querySelectorAll('[data-testid=class-queue] li')].map(li => li.dataset.step).join() === '4'`)
			wantQ := map[string]string{"en": "step 4 · Who holds the lock?", "zh": "第 4 步 · 谁持有锁？"}[lang]
			if got := eval[string](t, teacher, `document.querySelector('[data-testid=class-queue] li').textContent`); !strings.Contains(got, wantQ) {
				t.Errorf("the projector's queue reads %q, want %q", got, wantQ)
			}
			if h := eval[float64](t, teacher, `document.querySelector('[data-testid=class-queue]').getBoundingClientRect().height`); h > 40 {
				t.Errorf("the projector's queue is %.0f px high, want one line", h)
			}
			shot(t, teacher, dir, "remote-queue-projector-"+lang)
			tapRemote(t, remote, teacher, "remote-step", "step 3", `lockstep.state.snap.step === 3`)
			if eval[bool](t, student, `!!document.querySelector('[data-testid=question]')`) {
				t.Fatal("the queued question was asked at step 3, before its step")
			}
			tapRemote(t, remote, teacher, "remote-step", "the queued question on the projector at step 4", `lockstep.state.snap.step === 4 && (q => q && q.kind === 'holder' && q.at === 4)(lockstep.classroom.cls.question)`)
			waitFor(t, student, "the queued question on the student's phone", `!!document.querySelector('[data-testid=answer]') && lockstep.classroom.cls.question.at === 4`)
			waitFor(t, remote, "the queue emptied", `!document.querySelector('[data-testid=remote-queue] li[data-step]')`)
			waitFor(t, teacher, "the queue gone from the projector", `!document.querySelector('[data-testid=class-queue]')`)
			tapRemote(t, remote, teacher, "remote-dismiss", "the queued question dismissed", `!document.querySelector('[data-testid=question]')`)

			// The teacher's own question, typed on the phone: its text and
			// its choices reach the projector and the student's phone.
			choose(t, remote, "remote-ask-kind", "free")
			own := map[string][]string{"en": {"Is the stock safe?", "yes", "no"}, "zh": {"库存安全吗？", "安全", "不安全"}}[lang]
			choose(t, remote, "remote-ask-text", own[0])
			choose(t, remote, "remote-ask-choices", own[1]+"\n"+own[2])
			tapRemote(t, remote, teacher, "remote-ask", "the phone's own question on the projector", fmt.Sprintf(`(q => !!q && q.kind === 'free' && q.text.en === %q)(lockstep.classroom.cls.question)`, own[0]))
			waitFor(t, student, "the phone's own question on the student's phone", fmt.Sprintf(`[...document.querySelectorAll('[data-testid=answer]')].map(b => b.textContent).join('|') === %q`, own[1]+"|"+own[2]))
			if got := eval[string](t, remote, `document.querySelector('[data-testid=remote-ask-text]').value`); got != own[0] {
				t.Errorf("the phone's question text after asking reads %q, want it kept: %q", got, own[0])
			}
			tapRemote(t, remote, teacher, "remote-dismiss", "the phone's own question dismissed", `!document.querySelector('[data-testid=question]')`)

			// Play and Pause; Hide what gives it away.
			tapRemote(t, remote, teacher, "remote-play", "playing on the projector", `lockstep.state.snap.playing || lockstep.state.snap.ended`)
			pause := map[string]string{"en": "Pause", "zh": "暂停"}[lang]
			waitFor(t, remote, "Pause offered", `lockstepRemote.run.ended || document.querySelector('[data-testid=remote-play]').textContent === '`+pause+`'`)
			if !eval[bool](t, remote, `lockstepRemote.run.ended`) {
				click(t, remote, "remote-play")
				waitFor(t, teacher, "paused", `!lockstep.state.snap.playing`)
			}
			click(t, remote, "remote-hide")
			waitFor(t, teacher, "the teacher's box ticked", `!!(lockstep.classroom.cls && lockstep.classroom.cls.hide)`)
			waitFor(t, student, "the student's expected verdict hidden", `lockstep.state.snap.ended || lockstep.state.snap.expect.length === 0`)
			shot(t, remote, dir, "remote-"+lang)
			shot(t, teacher, dir, "remote-projector-"+lang)
			shot(t, student, dir, "remote-phone-"+lang)
			// The phone's page fits it: no sideways scroll, big buttons.
			if w := eval[int](t, remote, `document.documentElement.scrollWidth`); w > 414 {
				t.Errorf("the remote is %d px wide on a 414 px phone", w)
			}
			if h := eval[float64](t, remote, `document.querySelector('[data-testid=remote-step]').getBoundingClientRect().height`); h < 56 {
				t.Errorf("the remote's Step is %.0f px high, want a thumb's 56 at least", h)
			}

			do(t, teacher, "end the class", chromedp.Evaluate[chromedp.Void](`window.confirm = () => true`))
			click(t, teacher, "end-class")
			waitFor(t, remote, "the remote told the class ended", `!!document.querySelector('[data-testid=remote-ended]')`)
		})
	}
}

// inLangRemote switches the remote's page to lang.
func inLangRemote(t *testing.T, ctx context.Context, lang string) {
	t.Helper()
	if eval[string](t, ctx, `document.documentElement.lang`) == map[string]string{"en": "en", "zh": "zh-CN"}[lang] {
		return
	}
	click(t, ctx, "remote-lang")
	waitFor(t, ctx, lang, `document.documentElement.lang === `+map[string]string{"en": `'en'`, "zh": `'zh-CN'`}[lang])
}

// TestBrowserRemoteAccessible runs axe-core over the teacher's remote on a
// 414×896 phone, in English and in 中文, with a question on the screens
// and one queued, and over the projector's one-time QR code. No serious
// or critical finding may remain.
func TestBrowserRemoteAccessible(t *testing.T) {
	chromium(t)
	base := startServer(t, server.Options{})
	browser := startBrowser(t)
	teacher := axeTab(t, browser)
	open(t, teacher, base)
	load(t, teacher, "no-lock-oversell")
	click(t, teacher, "start-class")
	waitFor(t, teacher, "the class's code", `!!document.querySelector('[data-testid=class-code]')`)
	clickJS(t, teacher, ".class-big button")
	press(t, teacher, "remote-open")
	waitFor(t, teacher, "the remote's QR code", `!!document.querySelector('[data-testid=remote-pair] svg.qr')`)
	audit(t, teacher, "the projector's remote QR code")
	link := text(t, teacher, "remote-link")

	remote := axeTab(t, browser)
	do(t, remote, "a phone", chromedp.EmulateViewport(414, 896, chromedp.EmulateMobile, chromedp.EmulateTouch))
	do(t, remote, "open the remote", chromedp.Navigate(link))
	waitFor(t, remote, "the remote's run", `!!document.querySelector('[data-testid=remote-step-n]')`)
	click(t, remote, "remote-step")
	waitFor(t, remote, "step 1", `document.querySelector('[data-testid=remote-step-n]').dataset.step === '1'`)
	click(t, remote, "remote-ask")
	waitFor(t, remote, "the question", `!!document.querySelector('[data-testid=remote-reveal]')`)
	choose(t, remote, "remote-queue-step", "5")
	click(t, remote, "remote-queue-add")
	waitFor(t, remote, "the queue", `!!document.querySelector('[data-testid=remote-queue] li[data-step]')`)
	audit(t, remote, "the remote in English")
	inLangRemote(t, remote, "zh")
	audit(t, remote, "the remote in 中文")
}
