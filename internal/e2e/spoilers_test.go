package e2e

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/lockstep/lockstep/internal/embedded"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/server"
)

// TestBrowserClassHidesInPresenter is a class taught from Presenter mode,
// in each language: the teacher, on a 1280×720 projector, ticks Hide what
// gives it away in the class bar, and at every step of the blind-DEL
// lesson to its end the projector and each student's screen (a laptop,
// and a phone at 414×896) show no expected verdict, no sentence of the
// lesson's paragraph (it tells how the run ends: "A's blind DEL then frees
// B's lock and C enters beside B"), nor of the challenge's goal offered
// beside it (the same ending), and no chapter the run has not reached.
// What the screens must not show is read from the teacher's page, which
// the server still sends everything: the test knows the ending and looks
// for it. The projector's narration and chapter list are, line for line,
// what lesson.ShownAt says of the same run at that step (the rule
// TestNarrationSpeaksOnlyOfThePast holds every lesson to).
func TestBrowserClassHidesInPresenter(t *testing.T) {
	base := startServer(t, server.Options{})
	browser := startBrowser(t)
	dir := artifacts(t)
	for _, lang := range []string{"en", "zh"} {
		t.Run(lang, func(t *testing.T) {
			teacher := page(t, browser, base)
			do(t, teacher, "a projector's screen", chromedp.EmulateViewport(1280, 720))
			inLang(t, teacher, lang)
			load(t, teacher, "blind-del-slow-release")
			click(t, teacher, "presenter")
			click(t, teacher, "start-class")
			waitFor(t, teacher, "the class's code", `!!document.querySelector('[data-testid=class-code]')`)
			code := text(t, teacher, "class-code")
			clickJS(t, teacher, ".class-big button")
			// The box is on the projector's bar, inside the screen, with
			// nothing over it (the bar is drawn afresh at each render, so
			// the click goes by selector once that is so).
			waitFor(t, teacher, "Hide in the Presenter bar", `(b => !!b && b.offsetParent !== null && (r => r.right <= innerWidth && r.bottom <= innerHeight && r.width > 0 && b.closest('label').contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)))(b.getBoundingClientRect()))(document.querySelector('[data-testid=class-hide]'))`)
			clickJS(t, teacher, "[data-testid=class-hide]")
			waitFor(t, teacher, "the room hides", `lockstep.classroom.cls.hide === true`)

			laptop := page(t, browser, base)
			inLang(t, laptop, lang)
			joinClass(t, laptop, code, "Ann")
			phone := tab(t, browser, true)
			probs := watch(t, phone)
			t.Cleanup(func() {
				for _, p := range probs.take() {
					t.Errorf("phone: page problem: %s", p)
				}
			})
			do(t, phone, "a phone's screen", chromedp.EmulateViewport(414, 896))
			open(t, phone, base)
			inLang(t, phone, lang)
			joinClass(t, phone, code, "Bo")
			students := map[string]context.Context{"Ann": laptop, "Bo": phone}
			waitFor(t, teacher, "two in the class", `lockstep.classroom.cls.counts.following === 2`)

			// What gives it away, from the teacher's page.
			// The challenge's goal is the same ending: "Get B's lock
			// deleted by A".
			secret := eval[[]string](t, teacher, `(s => [s.lesson.en, s.lesson.zh, s.challenge.en, s.challenge.zh])(lockstep.state.snap)`)
			expect := eval[[]string](t, teacher, `lockstep.state.snap.expect`)
			type chapter struct {
				Step int
				En   string
				Zh   string
			}
			chapters := eval[[]chapter](t, teacher, `lockstep.state.snap.chapters.map(c => ({Step: c.step, En: c.text.en, Zh: c.text.zh}))`)
			if len(secret[0]) < 40 || len(expect) == 0 || len(chapters) < 3 {
				t.Fatalf("the lesson's paragraph %q, verdicts %v, %d chapters: nothing to hide", secret[0], expect, len(chapters))
			}
			// The paragraph's second half tells the ending: no screen shows
			// any sentence of it (a sentence of it is enough to give it away).
			var sentences []string
			for _, p := range secret {
				for _, s := range strings.FieldsFunc(p, func(r rune) bool { return r == '.' || r == '。' }) {
					if s = strings.TrimSpace(s); len(s) > 12 {
						sentences = append(sentences, s)
					}
				}
			}
			// The same lesson run in Go, to hold the page to lesson.ShownAt.
			rule := newShownRule(t, "blind-del-slow-release", int64(eval[float64](t, teacher, `lockstep.state.snap.seed`)))
			shotAt := map[int]bool{12: true, 40: true}
			for steps := 0; ; steps++ {
				// While a question is open, and after its reveal, as in
				// the class that found the phone showing the verdict.
				switch steps {
				case 10:
					choose(t, teacher, "ask-kind", "next")
					click(t, teacher, "ask")
					for name, ctx := range students {
						waitFor(t, ctx, name+" sees the question", `document.querySelectorAll('[data-testid=answer]').length > 1`)
					}
				case 14:
					click(t, teacher, "reveal")
					for name, ctx := range students {
						waitFor(t, ctx, name+" sees the tally", `!!document.querySelector('[data-testid=tally]')`)
					}
				}
				screens := map[string]context.Context{"projector": teacher}
				maps.Copy(screens, students)
				for name, ctx := range screens {
					sameRun(t, ctx, teacher, name)
					at := eval[int](t, ctx, `lockstep.state.snap.step`)
					if eval[bool](t, ctx, `lockstep.state.snap.ended`) {
						continue // at the end nothing is ahead: what was hidden comes back
					}
					screen := eval[string](t, ctx, `document.body.innerText`)
					for _, s := range sentences {
						if strings.Contains(screen, s) {
							t.Fatalf("%s at step %d: the screen shows the lesson's ending %q", name, at, s)
						}
					}
					found := eval[[]string](t, ctx, `lockstep.state.model.verdicts.map(v => v.name)`)
					for _, v := range expect {
						if !slices.Contains(found, v) && strings.Contains(screen, v) {
							t.Fatalf("%s at step %d: the screen names the expected verdict %s before the run finds it", name, at, v)
						}
					}
					if got := eval[string](t, ctx, `document.getElementById('expect').textContent`); got != "(hidden until the run gets there)" && got != "(运行到那里之前隐藏)" {
						t.Fatalf("%s at step %d: the expected verdict reads %q", name, at, got)
					}
					for _, c := range chapters {
						if c.Step > at && (strings.Contains(screen, c.En) || strings.Contains(screen, c.Zh)) {
							t.Fatalf("%s at step %d: the screen shows chapter %q, said at step %d", name, at, c.En, c.Step)
						}
					}
					if name == "projector" {
						rule.check(t, ctx, at, lang)
					}
					if shotAt[at] {
						shot(t, ctx, dir, fmt.Sprintf("spoilers-%s-%s-step%d", lang, name, at))
					}
				}
				if eval[bool](t, teacher, `lockstep.state.snap.ended`) {
					break
				}
				step(t, teacher)
			}
			if n := eval[int](t, teacher, `lockstep.state.snap.step`); n < 40 {
				t.Fatalf("the run ended at step %d: too short to have tested much", n)
			}
		})
	}
}

// inLang switches a page to lang (English is where each page starts).
func inLang(t *testing.T, ctx context.Context, lang string) {
	t.Helper()
	if lang == "zh" {
		click(t, ctx, "lang")
		waitFor(t, ctx, "中文", `lockstep.state.lang === 'zh'`)
	}
}

// joinClass joins the class with code under a nickname, typing the code.
func joinClass(t *testing.T, ctx context.Context, code, name string) {
	t.Helper()
	click(t, ctx, "join-class")
	choose(t, ctx, "join-code", code)
	choose(t, ctx, "nickname", name)
	click(t, ctx, "join")
	waitFor(t, ctx, name+" in the class", `(c => c && c.role === 'student')(lockstep.classroom.cls)`)
}

// shownRule runs a lesson in Go beside the page: what lesson.ShownAt says
// the page shows of its story at a step.
type shownRule struct {
	s        *lesson.Session
	chapters []lesson.Chapter
}

func newShownRule(t *testing.T, id string, seed int64) *shownRule {
	t.Helper()
	sc, ok := catalog(t).Find(id)
	if !ok {
		t.Fatalf("no lesson %s", id)
	}
	cfg := lesson.Config{Seed: seed, Servers: embedded.Servers{}}
	chs, err := lesson.Chapters(sc, cfg, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	s, err := lesson.NewSession(sc, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return &shownRule{s: s, chapters: chs}
}

// check holds the page's narration and chapter list at step at to
// lesson.ShownAt, line for line, in lang.
func (r *shownRule) check(t *testing.T, ctx context.Context, at int, lang string) {
	t.Helper()
	if err := r.s.Seek(at); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, l := range lesson.ShownAt(r.s.Log(), r.chapters, at) {
		if lang == "zh" {
			want = append(want, l.Text.Zh)
		} else {
			want = append(want, l.Text.En)
		}
	}
	// Before the first line the panel says only that the story is told as
	// it happens.
	if len(want) == 0 && at > 0 {
		intro := map[string]string{"en": "The run is under way. Its story is told here as it happens, never ahead of it.", "zh": "运行已经开始。这里随着事情的发生讲述它的经过，绝不提前透露。"}[lang]
		if got := eval[string](t, ctx, `document.querySelector('#narration').textContent`); got != intro {
			t.Fatalf("step %d (%s): before the story's first line the narration reads %q", at, lang, got)
		}
	}
	got := eval[[]string](t, ctx, `[...document.querySelectorAll('#narration .say:not(.intro), #narration-history button, #chapters .authored')].map(e => e.textContent)`)
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("step %d (%s): the page shows\n%q\nlesson.ShownAt says\n%q", at, lang, got, want)
	}
}
