package e2e

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/lockstep/lockstep/internal/server"
)

// barRows is the class bar's line's height and its tallest control's
// (with its margins): the same when the line holds one row.
const barRows = `(() => {
	const line = document.querySelector('#class .class-line');
	let tall = 0;
	for (const e of line.children) {
		const r = e.getBoundingClientRect(), cs = getComputedStyle(e);
		if (r.height === 0) continue;
		tall = Math.max(tall, r.height + parseFloat(cs.marginTop) + parseFloat(cs.marginBottom));
	}
	return [line.getBoundingClientRect().height, tall];
})()`

// barCut lists what of the class bar (its line, the question card's
// buttons are in it) a projector does not show whole: an element with a
// box that leaves the window, a text wider than its box (an ellipsis or
// overflow), a select narrower than its widest choice (Chromium draws a
// select as wide as that choice when nothing holds it narrower: a copy
// left free is measured beside it).
const barCut = `(() => {
	const out = [], W = innerWidth, H = innerHeight;
	const name = (e) => (e.dataset.testid || e.className || e.tagName) + ' ' + JSON.stringify((e.textContent || e.getAttribute('aria-label') || '').trim().slice(0, 40));
	const line = document.querySelector('#class .class-line');
	if (!line) return ['no class bar'];
	for (const e of [line, ...line.querySelectorAll('*')]) {
		if (e.closest('svg') && e.tagName !== 'svg') continue;
		const r = e.getBoundingClientRect();
		if (r.width === 0 && r.height === 0) continue; // not shown (Presenter's hidden buttons)
		if (getComputedStyle(e).clip === 'rect(0px, 0px, 0px, 0px)' || getComputedStyle(e).clipPath === 'inset(50%)') continue; // for screen readers
		if (r.left < -0.5 || r.top < -0.5 || r.right > W + 0.5 || r.bottom > H + 0.5) out.push(name(e) + ' outside the window');
		if (e.tagName === 'OPTION') continue;
		if (e.tagName === 'SELECT') {
			const free = e.cloneNode(true);
			free.style.cssText = 'max-width:none;min-width:0;width:auto;flex:none;position:absolute;visibility:hidden';
			e.parentNode.append(free);
			const need = free.offsetWidth;
			free.remove();
			if (e.offsetWidth + 0.5 < need) out.push(name(e) + ' ' + e.offsetWidth + ' px wide, its longest choice needs ' + need);
			continue;
		}
		if (e.scrollWidth > e.clientWidth + 1 && e.clientWidth > 0) out.push(name(e) + ' text ' + e.scrollWidth + ' px in ' + e.clientWidth);
		if (getComputedStyle(e).textOverflow === 'ellipsis' && e.scrollWidth > e.clientWidth) out.push(name(e) + ' ellipsis');
	}
	return out;
})()`

// rowsInView counts a side's drawn timeline rows wholly inside the window
// and inside the scroller that shows them.
const rowsInView = `((side) => {
	const sc = document.querySelector('[data-testid=sbs-scroll]').getBoundingClientRect();
	const top = Math.max(0, sc.top), bottom = Math.min(innerHeight, sc.top + document.querySelector('[data-testid=sbs-scroll]').clientHeight);
	return [...document.querySelectorAll('[data-testid=sbs-rows-' + side + '] li')].filter(li => {
		const r = li.getBoundingClientRect();
		return r.height > 0 && r.top >= top - 0.5 && r.bottom <= bottom + 0.5;
	}).length;
})`

// TestBrowserProjectorBars is a class taught from Presenter mode on a
// 1280×720 projector with one student, in English and in 中文: with a
// question on the screens (Reveal, Dismiss and the tally's CSV all on the
// bar), nothing of the class bar or of the question picker is cut or
// leaves the window; the page's "Code" (the lock's code view) and the
// class's join code have names that tell them apart; and Side by side,
// opened in the class, gives each side's timeline at least 14 rows
// wholly in view.
func TestBrowserProjectorBars(t *testing.T) {
	base := startServer(t, server.Options{})
	browser := startBrowser(t)
	dir := artifacts(t)
	for _, lang := range []string{"en", "zh"} {
		t.Run(lang, func(t *testing.T) {
			teacher := page(t, browser, base)
			do(t, teacher, "a projector's screen", chromedp.EmulateViewport(1280, 720))
			inLang(t, teacher, lang)
			load(t, teacher, "owner-check-expire-between")
			click(t, teacher, "presenter")
			click(t, teacher, "start-class")
			waitFor(t, teacher, "the class's code", `!!document.querySelector('[data-testid=class-code]')`)
			code := text(t, teacher, "class-code")
			clickJS(t, teacher, ".class-big button")
			student := page(t, browser, base)
			inLang(t, student, lang)
			joinClass(t, student, code, "Ann")
			waitFor(t, teacher, "Ann counted", `/1/.test(document.querySelector('[data-testid=room-count]').textContent)`)
			step(t, teacher)

			// The names: the lock's code view and the class's join code.
			codeBtn, joinBtn := text(t, teacher, "code-toggle"), text(t, teacher, "start-class")
			want := map[string][2]string{"en": {"Lock code", "Join code"}, "zh": {"锁代码", "加入码"}}[lang]
			if codeBtn != want[0] || joinBtn != want[1] {
				t.Errorf("the header's buttons read %q and %q, want %q and %q", codeBtn, joinBtn, want[0], want[1])
			}

			checkBar := func(when string) {
				t.Helper()
				if bad := eval[[]string](t, teacher, barCut); len(bad) > 0 {
					t.Errorf("the class bar at 1280x720 %s: %q", when, bad)
				}
			}
			checkBar("before a question")
			click(t, teacher, "ask")
			waitFor(t, student, "the question", `!!document.querySelector('[data-testid=question]')`)
			click(t, student, "answer")
			waitFor(t, teacher, "the answer counted", `lockstep.classroom.cls.question.answered === 1`)
			click(t, teacher, "reveal")
			waitFor(t, teacher, "the tally", `!!document.querySelector('[data-testid=tally]')`)
			checkBar("with a question revealed")
			shot(t, teacher, dir, "projector-bar-"+lang)

			// Side by side in the class: the timelines get the screen.
			click(t, teacher, "compare-open")
			waitFor(t, teacher, "both sides drawn", `document.querySelectorAll('[data-testid=sbs-rows-left] li').length > 0 && document.querySelectorAll('[data-testid=sbs-rows-right] li').length > 0`)
			waitFor(t, teacher, "the verdicts", `!!document.querySelector('[data-testid=sbs-head-right] .v')`)
			rows := func(mode string) {
				t.Helper()
				for _, side := range []string{"left", "right"} {
					n := rowsInView1(t, teacher, side)
					t.Logf("%s, %s: %d rows of the %s timeline in view", lang, mode, n, side)
					if n < 14 {
						t.Errorf("Side by side in a class %s at 1280x720: %d rows of the %s timeline in view, want at least 14", mode, n, side)
					}
				}
			}
			rows("in Presenter mode")
			checkBar("in Side by side")
			shot(t, teacher, dir, "projector-sides-"+lang)
			// The teacher's laptop, out of Presenter mode: the lesson's
			// title and the class bar's whole sentences above the bar.
			click(t, teacher, "presenter")
			waitFor(t, teacher, "out of Presenter mode", `!document.body.classList.contains('presenter')`)
			rows("out of Presenter mode")
			shot(t, teacher, dir, "projector-sides-laptop-"+lang)
			click(t, teacher, "compare-close")

			// A challenge's vote open in Presenter mode, the bar's fullest
			// state (the picker, Ask, Reveal, Dismiss, Play the winner, Hide,
			// the tally, Remote, End): still one line, in both languages.
			click(t, teacher, "presenter")
			waitFor(t, teacher, "Presenter mode", `document.body.classList.contains('presenter')`)
			load(t, teacher, "no-lock-oversell")
			click(t, teacher, "challenge-take")
			waitFor(t, teacher, "the challenge", `(c => !!c && c.active)(lockstep.state.snap.challenge)`)
			pick(t, teacher, "ask-kind", "move")
			click(t, teacher, "ask")
			waitFor(t, teacher, "the vote open", `(q => !!q && q.kind === 'move' && q.open)(lockstep.classroom.cls.question) && !!document.querySelector('[data-testid=play-winner]')`)
			waitFor(t, student, "the vote", `!!document.querySelector('[data-testid=answer]')`)
			click(t, student, "answer")
			waitFor(t, teacher, "the vote counted", `lockstep.classroom.cls.question.answered === 1`)
			checkBar("with a vote open")
			if rows := eval[[]float64](t, teacher, barRows); rows[0] > rows[1]+1 {
				t.Errorf("the class bar with a vote open at 1280x720 is %.0f px high, its tallest control %.0f: it wraps", rows[0], rows[1])
			}
			shot(t, teacher, dir, "projector-vote-"+lang)
		})
	}
}

// rowsInView1 waits two frames (the rows are laid out as they are drawn)
// and counts a side's rows in view.
func rowsInView1(t *testing.T, ctx context.Context, side string) int {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[int](`new Promise(res => requestAnimationFrame(() => requestAnimationFrame(() => res(`+rowsInView+`('`+side+`')))))`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("rows in view: %v", err)
	}
	return v
}
