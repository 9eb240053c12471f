package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/server"
)

// cutLabels lists the labels of the given roles that the whole timeline
// would not draw whole, through the page's draw model (lockstep.audit()):
// each label carries the text drawn and the whole text it stands for, so
// a label with an ellipsis, past the canvas's edges, or shorter than its
// text (a command drawn "SET …") is found; a text written over several
// lines must add up to the whole.
func cutLabels(roles ...string) string {
	js, _ := json.Marshal(roles)
	return fmt.Sprintf(`(roles => {
	const bare = (s) => s.replace(/\s+/g, ''), groups = new Map(), out = [];
	for (const l of lockstep.audit()) {
		if (!roles.includes(l.role)) continue;
		const k = l.role + ' #' + l.seq;
		if (!groups.has(k)) groups.set(k, []);
		groups.get(k).push(l);
	}
	for (const [k, ls] of groups) {
		const drawn = ls.map(l => l.text).join(' ');
		if (ls.some(l => l.cut) || bare(drawn) !== bare(ls[0].full)) out.push(k + ' drawn ' + JSON.stringify(drawn) + ' of ' + JSON.stringify(ls[0].full));
	}
	return out.slice(0, 10);
})(%s)`, js)
}

// rawOutcomes lists the replies whose badge is not their answer's: an
// exec or reply event with a reply and no answer (the badge would show the
// reply's text cut short, "(integer) …"), and badges that show such text.
const rawOutcomes = `(() => {
	const out = lockstep.state.model.events.filter(e => (e.kind === 'exec' || e.kind === 'reply') && e.reply && !e.answer).map(e => '#' + e.seq + ' ' + e.reply);
	for (const l of lockstep.audit()) if (l.role === 'outcome' && /^\((integer|error)/.test(l.text)) out.push('#' + l.seq + ' badge ' + l.text);
	return out.slice(0, 10);
})()`

// setbackColours lists the marks drawn in the colour of trouble that are
// not setbacks, and the setbacks drawn in another colour: a mark is a
// setback when the server's welcome names it (sim.SetbackMarks), never by
// its name's letters.
const setbackColours = `(async () => {
	const base = document.querySelector('script[type=module]').src; // page.js, beside the modules
	const { BAD } = await import(new URL('paint.js', base));
	const setbacks = new Set(lockstep.state.setbacks || []);
	const bySeq = new Map(lockstep.state.model.events.map(e => [e.seq, e]));
	const out = [];
	if (!setbacks.has('release-refused')) out.push('the welcome names no setback marks');
	for (const l of lockstep.audit()) {
		const e = bySeq.get(l.seq);
		if (l.role !== 'mark' || !e || e.kind !== 'mark') continue;
		if ((l.color === BAD) !== setbacks.has(e.name)) out.push('#' + l.seq + ' ' + e.name + ' in ' + l.color);
	}
	return out;
})()`

// smallLabels lists the labels of a role drawn smaller than px.
func smallLabels(role string, px int) string {
	return fmt.Sprintf(`lockstep.audit().filter(l => l.role === %q && l.size < %d).map(l => '#' + l.seq + ' ' + l.size + 'px ' + l.text).slice(0, 10)`, role, px)
}

// laneClash lists the lane names (and the time view's clocks) that
// overlap another (names may take two lines: any two boxes that meet),
// the gutter's head, or run past the timeline's edges, and the lane names
// cut short (an ellipsis, class cut, or text wider than its box) or
// written smaller than minPx: a name is read whole, at a size the back
// row reads, or it is a problem.
func laneClash(minPx int) string {
	return `((minPx) => {
	const out = [], tl = document.getElementById('timeline').getBoundingClientRect();
	const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
	for (const sel of ['#lanes .lane', '#lanes .lane-clock']) {
		const seen = [];
		const head = document.querySelector('#lanes .gutter-head');
		if (sel === '#lanes .lane' && head) {
			const r = document.createRange(); r.selectNodeContents(head);
			const h = head.getBoundingClientRect();
			seen.push({ left: h.left, top: h.top, bottom: h.bottom, right: Math.min(r.getBoundingClientRect().right, h.right), text: head.textContent });
		}
		for (const e of document.querySelectorAll(sel)) {
			// A box shadow (a client's ring when it can move) is drawn outside the box, unless inset.
			const spread = Math.max(0, ...getComputedStyle(e).boxShadow.split(/,(?![^(]*\))/).filter(b => !/inset/.test(b)).map(b => +((b.match(/(-?[\d.]+)px\s+(-?[\d.]+)px\s+(-?[\d.]+)px\s+(-?[\d.]+)px/) || [])[4] || 0)));
			const b = e.getBoundingClientRect(), text = e.textContent;
			const r = { left: b.left - spread, right: b.right + spread, top: b.top - spread, bottom: b.bottom + spread };
			if (r.left < tl.left - 0.5 || r.right > tl.right + 0.5) out.push(text + ' past the edge');
			for (const q of seen) if (meet(r, q)) out.push(text + ' over ' + q.text);
			if (e.scrollWidth > e.clientWidth + 1 || e.classList.contains('cut')) out.push(text + ' cut');
			if (sel === '#lanes .lane' && parseFloat(getComputedStyle(e).fontSize) < minPx) out.push(text + ' at ' + getComputedStyle(e).fontSize);
			seen.push({ left: r.left, right: r.right, top: r.top, bottom: r.bottom, text });
		}
	}
	return out;
})(` + fmt.Sprint(minPx) + `)`
}

// lanesDrawn is laneClash once the page has drawn two more frames (the
// lane names are written as the timeline is drawn).
func lanesDrawn(t *testing.T, ctx context.Context, minPx int) []string {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`new Promise(res => requestAnimationFrame(() => requestAnimationFrame(() => res(`+laneClash(minPx)+`))))`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("lane names: %v", err)
	}
	return v
}

// cardFits checks that an open overlay's card (a selector) is inside the
// window and that each of its parts (selectors: its title, its buttons)
// is the topmost element at its own centre (nothing covers it, it is not
// scrolled away).
func cardFits(card string, parts ...string) string {
	js, _ := json.Marshal(parts)
	return fmt.Sprintf(`((card, parts) => {
	const c = document.querySelector(card), out = [];
	if (!c) return ['no ' + card];
	const r = c.getBoundingClientRect();
	if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) out.push(card + ' ' + JSON.stringify([r.left, r.top, r.right, r.bottom]) + ' outside ' + innerWidth + 'x' + innerHeight);
	for (const sel of parts) {
		const e = document.querySelector(sel);
		if (!e) { out.push('no ' + sel); continue; }
		const b = e.getBoundingClientRect();
		const at = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
		if (!at || (at !== e && !e.contains(at))) out.push(sel + ' not in view');
	}
	return out;
})(%q, %s)`, card, js)
}

// TestBrowserPresenter walks every lesson and lab to its end in Presenter
// mode on a 1280×720 projector, in English and in 中文, and checks through
// the page's draw model that every command is drawn with its whole text
// (SET lock d2733b18 EX 3 NX, not SET …) at the presenter's size, that no
// reply outcome, mark or verdict is cut, that the lane names are whole
// (no ellipsis), at least 14 px, and neither overlap nor run off (Redlock's
// seven take two lines), that the code is larger than on a laptop and that
// the keyboard card, the class's join dialog and its big code with the QR
// code fit the screen, and that every mark is drawn in the colour of
// trouble exactly when it is a setback. LOCKSTEP_ARTIFACTS keeps a
// screenshot of each.
func TestBrowserPresenter(t *testing.T) {
	chromium(t)
	url := startServer(t, server.Options{})
	b := startBrowser(t)
	dir := artifacts(t)
	all := append([]scenario.Scenario(nil), catalog(t).Scenarios...)
	all = append(all, labs(t).Scenarios...)

	ctx, cancel := chromedp.NewContext(b, chromedp.WithNewBrowserContext())
	ctx, cancelT := context.WithTimeout(ctx, 8*time.Minute)
	defer func() { cancelT(); cancel() }()
	probs := watch(t, ctx)
	do(t, ctx, "a projector's screen", chromedp.EmulateViewport(1280, 720))
	open(t, ctx, url)
	do(t, ctx, "presenter mode", chromedp.KeyEvent("f"))
	waitFor(t, ctx, "presenter mode", `document.body.classList.contains('presenter')`)

	for _, lang := range []string{"en", "zh"} {
		if lang == "zh" {
			click(t, ctx, "lang")
		}
		waitFor(t, ctx, lang, fmt.Sprintf(`lockstep.state.lang === %q`, lang))
		t.Run(lang+"/help", func(t *testing.T) {
			click(t, ctx, "help")
			waitFor(t, ctx, "the keyboard card", `!document.getElementById('help').hidden`)
			if bad := eval[[]string](t, ctx, cardFits("#help .card", "#help-title", "#help-close")); len(bad) > 0 {
				t.Errorf("the keyboard card at 1280x720: %q", bad)
			}
			shot(t, ctx, dir, "presenter-help-"+lang)
			do(t, ctx, "close it", chromedp.KeyEvent("\u001b"))
			waitFor(t, ctx, "the card closed", `document.getElementById('help').hidden`)
			// The class's overlays: the join dialog a student opens on the
			// projector's machine, and the big code with its QR code that
			// the teacher shows the room.
			click(t, ctx, "join-class")
			waitFor(t, ctx, "the join dialog", `!document.querySelector('[data-testid=join-dialog]').hidden`)
			if bad := eval[[]string](t, ctx, cardFits(".join-card", "#join-title", "[data-testid=join-code]", "[data-testid=nickname]", "[data-testid=join]")); len(bad) > 0 {
				t.Errorf("the join dialog at 1280x720: %q", bad)
			}
			do(t, ctx, "close it", chromedp.Evaluate[chromedp.Void](`document.querySelector('[data-testid=join-dialog]').hidden = true`))
			click(t, ctx, "start-class")
			waitFor(t, ctx, "the big code", `!!document.querySelector('[data-testid=class-big-code]') && !document.querySelector('.class-big').closest('.overlay').hidden`)
			if bad := eval[[]string](t, ctx, cardFits(".class-big", "#class-big-title", "[data-testid=class-big-code]", ".class-big svg.qr", ".class-big > button")); len(bad) > 0 {
				t.Errorf("the class's big code at 1280x720: %q", bad)
			}
			shot(t, ctx, dir, "presenter-class-code-"+lang)
			clickJS(t, ctx, ".class-big > button")
			// End it, answering the page's "end the class?" for the teacher.
			do(t, ctx, "end the class", chromedp.Evaluate[chromedp.Void](`(() => { const c = window.confirm; window.confirm = () => true; document.querySelector('[data-testid=end-class]').click(); window.confirm = c; })()`))
			waitFor(t, ctx, "the class ended", `lockstep.classroom.cls === null`)
		})
		for _, sc := range all {
			t.Run(lang+"/"+sc.ID, func(t *testing.T) {
				load(t, ctx, sc.ID)
				step(t, ctx)
				if bad := lanesDrawn(t, ctx, 14); len(bad) > 0 {
					t.Errorf("lane names at 1280x720 after a step (whole, apart, at least 14 px): %q", bad)
				}
				do(t, ctx, "to the end", chromedp.Evaluate[chromedp.Void](`document.querySelector('[data-testid=end]').click()`))
				waitFor(t, ctx, "the verdict", `lockstep.state.snap.ended && lockstep.state.model.verdicts.length > 0`)
				waitFor(t, ctx, "drawn", fmt.Sprintf(`document.getElementById('timeline').dataset.lang === %q`, lang))
				if cut := eval[[]string](t, ctx, cutLabels("command", "outcome", "verdict", "mark")); len(cut) > 0 {
					t.Errorf("cut at 1280x720 in presenter mode: %q", cut)
				}
				if bad := eval[[]string](t, ctx, rawOutcomes); len(bad) > 0 {
					t.Errorf("replies summed up from their text, not their answer: %q", bad)
				}
				if bad, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](setbackColours, chromedp.EvalAwaitPromise)); err != nil || len(bad) > 0 {
					t.Errorf("marks in the wrong colour: %q (%v)", bad, err)
				}
				if small := eval[[]string](t, ctx, smallLabels("command", 16)); len(small) > 0 {
					t.Errorf("commands drawn smaller than 16 px: %q", small)
				}
				if bad := lanesDrawn(t, ctx, 14); len(bad) > 0 {
					t.Errorf("lane names at 1280x720 (whole, apart, at least 14 px): %q", bad)
				}
				if px := eval[float64](t, ctx, `(c => c ? parseFloat(getComputedStyle(c).fontSize) : 99)(document.querySelector('.code-lines'))`); px < 15 {
					t.Errorf("the code is %.1f px in presenter mode, want at least 15", px)
				}
				if w := eval[float64](t, ctx, `document.getElementById('timeline').getBoundingClientRect().width`); w < 780 {
					t.Errorf("the timeline is %.0f px wide at 1280, want at least 780", w)
				}
				shot(t, ctx, dir, "presenter-"+sc.ID+"-"+lang)
				for _, p := range probs.take() {
					t.Errorf("%s", p)
				}
			})
		}
		// More lanes than any lesson has: six Redlock clients and five
		// nodes, whose names take two lines rather than shrink or be cut.
		t.Run(lang+"/many-lanes", func(t *testing.T) {
			runFile(t, ctx, manyLanes(6), "many-lanes")
			do(t, ctx, "close the editor", chromedp.Evaluate[chromedp.Void](`document.getElementById('editor-panel').open = false`))
			step(t, ctx)
			if bad := lanesDrawn(t, ctx, 14); len(bad) > 0 {
				t.Errorf("six clients and five nodes at 1280x720 (whole, apart, at least 14 px): %q", bad)
			}
			if !eval[bool](t, ctx, `document.getElementById('lanes').classList.contains('two')`) {
				t.Errorf("six clients and five nodes: the names are on one line, want two (the case this checks)")
			}
			shot(t, ctx, dir, "presenter-many-lanes-"+lang)
			for _, p := range probs.take() {
				t.Errorf("%s", p)
			}
		})
	}
}

// manyLanes writes a Redlock scenario of n clients on five nodes.
func manyLanes(n int) string {
	var b strings.Builder
	b.WriteString("scenarios:\n  - id: many-lanes\n    title: {en: Many lanes, zh: 很多泳道}\n    nodes: [{name: r1}, {name: r2}, {name: r3}, {name: r4}, {name: r5}]\n    data: {stock: \"10\"}\n    clients:\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "      - {name: C%02d, algorithm: redlock, params: {ttl: 5s}, work: 10ms, start: %dms}\n", i, i)
	}
	return b.String()
}

// Hiding the code gives its room back: on a laptop and on a wide
// projector the timeline grows by the code's column; on a 1280x720
// projector, where the code sits under the side panels and the timeline
// spans the whole height already, the side panels grow into its room.
func TestBrowserHiddenCodeGivesItsRoomBack(t *testing.T) {
	chromium(t)
	url := startServer(t, server.Options{})
	b := startBrowser(t)
	ctx, cancel := chromedp.NewContext(b, chromedp.WithNewBrowserContext())
	defer cancel()
	box := func(sel string) [2]float64 {
		r := eval[[]float64](t, ctx, fmt.Sprintf(`(r => [r.width, r.height])(document.querySelector(%q).getBoundingClientRect())`, sel))
		return [2]float64{r[0], r[1]}
	}
	for _, c := range []struct {
		name      string
		w, h      int64
		presenter bool
		grows     string // .tl-wrap: wider; .side: taller
	}{{"laptop", 1366, 768, false, ".tl-wrap"}, {"projector-1280", 1280, 720, true, ".side"}, {"projector-1920", 1920, 1080, true, ".tl-wrap"}} {
		t.Run(c.name, func(t *testing.T) {
			do(t, ctx, "the screen", chromedp.EmulateViewport(c.w, c.h))
			open(t, ctx, url)
			if c.presenter {
				do(t, ctx, "presenter mode", chromedp.KeyEvent("f"))
				waitFor(t, ctx, "presenter mode", `document.body.classList.contains('presenter')`)
			}
			waitFor(t, ctx, "the code shown", `!document.body.classList.contains('no-code') && !document.getElementById('code').hidden`)
			tl, side := box(".tl-wrap"), box(".side")
			click(t, ctx, "code-toggle")
			waitFor(t, ctx, "the code hidden", `document.body.classList.contains('no-code')`)
			tl2, side2 := box(".tl-wrap"), box(".side")
			switch c.grows {
			case ".tl-wrap":
				if tl2[0] < tl[0]+200 {
					t.Errorf("the timeline is %.0f px wide with the code hidden, %.0f with it shown: want it to take the code's column", tl2[0], tl[0])
				}
			case ".side":
				if side2[1] < side[1]+150 || tl2[0] < tl[0]-1 {
					t.Errorf("with the code hidden the side panels are %.0f px high (were %.0f) and the timeline %.0f px wide (was %.0f): want the side panels to take the code's room", side2[1], side[1], tl2[0], tl[0])
				}
			}
			click(t, ctx, "code-toggle") // shown again for the next screen
			waitFor(t, ctx, "the code shown again", `!document.body.classList.contains('no-code')`)
			if c.presenter {
				do(t, ctx, "leave presenter mode", chromedp.KeyEvent("f"))
			}
		})
	}
}
