package e2e

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/server"
)

// problems collects what a tab reports that a page must never do: console
// errors, uncaught exceptions, failed loads (404 and the like).
type problems struct {
	mu   sync.Mutex
	list []string
}

func (p *problems) add(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.list = append(p.list, s)
}

func (p *problems) take() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := p.list
	p.list = nil
	return out
}

// watch listens to a tab's console, exceptions, log and responses.
func watch(t *testing.T, ctx context.Context) *problems {
	t.Helper()
	p := &problems{}
	err := chromedp.Listen(ctx, func(ev any) {
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeAssert {
				var parts []string
				for _, a := range e.Args {
					parts = append(parts, string(a.Value)+a.Description)
				}
				p.add("console error: " + strings.Join(parts, " "))
			}
		case *runtime.EventExceptionThrown:
			p.add("exception: " + e.ExceptionDetails.Text + " " + fmt.Sprint(e.ExceptionDetails.Exception))
		case *log.EventEntryAdded:
			if e.Entry.Level == log.EntryLevelError {
				p.add("log error: " + e.Entry.Text + " " + e.Entry.URL)
			}
		case *network.EventResponseReceived:
			if e.Response.Status >= 400 {
				p.add(fmt.Sprintf("HTTP %d %s", e.Response.Status, e.Response.URL))
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// inView is a JS test: the newest row of the timeline is in the view.
const inView = `(() => {
	const sc = document.getElementById('tl-scroll'), m = lockstep.state.model;
	if (!m.rows.length) return true;
	const r = m.rows.length - 1, top = lockstep.timeline.rowTop(r), H = lockstep.timeline.rowHeight(r);
	return top >= sc.scrollTop - 1 && top + H <= sc.scrollTop + sc.clientHeight + 1;
})()`

// english finds English phrases (two words in a row, the second in lower
// case) in the page's own text in 中文 mode: the chrome, tooltips and the
// canvas labels. Code, identifiers, the lessons' own authored text and
// text in double quotes (a library's own error, quoted as it wrote it, as
// TestBrowserChinese allows) are left out.
const english = `(() => {
	const phrase = /\b[A-Za-z]?[a-z]{2,}[ '’]+[a-z]{3,}\b/;
	const re = { test: (s) => phrase.test(s.replace(/"(?:[^"\\]|\\.)*"/g, '""')) };
	const out = [];
	const skip = 'code, pre, .val, #title, #lesson-text, #narration, #narration-history, #verdict .v p, #scenario, #editor, #editor-gutter, #editor-errors, .real-banner, noscript, .detail dd .reply, .authored';
	const walk = (el) => {
		if (el.matches && el.matches(skip)) return;
		if (el.hidden || (el.closest && el.closest('[hidden]'))) return;
		for (const n of el.childNodes) {
			if (n.nodeType === 3) { const s = n.textContent.trim(); if (re.test(s)) out.push('text: ' + s); }
			else if (n.nodeType === 1) walk(n);
		}
	};
	walk(document.body);
	if (re.test(document.title)) out.push('title: ' + document.title);
	for (const el of document.querySelectorAll('[title], [aria-label]')) {
		if (el.closest('[hidden]') || el.matches('[data-testid=event]')) continue; // a row's tooltip is its text, checked above
		for (const a of ['title', 'aria-label']) { const s = el.getAttribute(a); if (s && re.test(s)) out.push(a + ': ' + s); }
	}
	for (const l of lockstep.audit()) {
		if (['command', 'keys', 'verdict'].includes(l.role)) continue;
		if (re.test(l.full)) out.push('canvas ' + l.role + ' #' + l.seq + ': ' + l.full);
	}
	return [...new Set(out)].slice(0, 12);
})()`

// noChinese lists the lesson's texts shown in 中文 that have no Chinese
// side (the page would show their English): title, lesson, narration,
// verdicts.
const noChinese = `(() => {
	const s = lockstep.state.snap, m = lockstep.state.model, out = [];
	const zh = (what, x) => { if (x && x.en && !x.zh) out.push(what + ': ' + x.en); };
	zh('title', s.title);
	zh('lesson', s.lesson);
	for (const e of m.says) zh('say #' + e.seq, e.say);
	for (const v of m.verdicts) { zh('verdict #' + v.seq, v.say); if (!v.say) out.push('verdict #' + v.seq + ' says nothing'); }
	return out.slice(0, 10);
})()`

// cutOutcomes lists the commands, reply outcomes and verdicts that the
// whole timeline would not draw whole (cutLabels: a command drawn as its
// name alone, "SET …", is not whole), and the verdicts whose drawn lines
// do not start with their mark and name (in 中文 the Chinese name comes
// first, the name beside it) and end with their whole explanation.
var cutOutcomes = `(() => {
	const out = ` + cutLabels("command", "outcome", "verdict") + `;
	const labels = lockstep.audit(), lang = lockstep.state.lang;
	const bare = (s) => s.replace(/\s+/g, '');
	for (const v of lockstep.state.model.verdicts) {
		const say = (v.say && (v.say[lang] || v.say.en)) || '';
		const got = bare(labels.filter(l => l.role === 'verdict' && l.seq === v.seq).map(l => l.text).join(' '));
		const head = bare((v.name === 'safe' ? '✓ ' : '✗ ') + (lang === 'zh' ? '' : v.name));
		if (!got.startsWith(head) || !got.includes(bare(v.name)) || !got.endsWith(bare(say))) out.push('verdict #' + v.seq + ' drawn as ' + JSON.stringify(got) + ', want ' + JSON.stringify(v.name + ' — ' + say));
	}
	return out.slice(0, 10);
})()`

// lessonWhole checks, on a phone, that the lesson's paragraph can be read
// whole: either it shows whole, or it is cut with a visible More button
// which opens it whole (and then says Less, and closes it again).
func lessonWhole(t *testing.T, ctx context.Context) {
	t.Helper()
	const whole = `(p => p.scrollHeight <= p.clientHeight + 1)(document.getElementById('lesson-text'))`
	const more = `(b => !b.hidden && b.getBoundingClientRect().height > 0)(document.querySelector('[data-testid=lesson-more]'))`
	waitFor(t, ctx, "the lesson's text", `document.getElementById('lesson-text').textContent.length > 0`)
	if eval[bool](t, ctx, whole) {
		return
	}
	if !eval[bool](t, ctx, more) {
		t.Errorf("the lesson's text is cut (%s) with no More button", eval[string](t, ctx, `document.getElementById('lesson-text').textContent.slice(-40)`))
		return
	}
	// Clicked from the page's side: on a phone the button sits far above the
	// scrolled timeline, and a click at coordinates computed while the page
	// scrolls back to it sometimes lands beside it.
	clickJS(t, ctx, "[data-testid=lesson-more]")
	waitFor(t, ctx, "the lesson's text opened whole", whole+` && document.querySelector('[data-testid=lesson-more]').getAttribute('aria-expanded') === 'true'`)
	clickJS(t, ctx, "[data-testid=lesson-more]")
	waitFor(t, ctx, "the lesson's text closed again", `!(`+whole+`) && document.querySelector('[data-testid=lesson-more]').getAttribute('aria-expanded') === 'false'`)
	do(t, ctx, "back to the timeline", chromedp.Evaluate[chromedp.Void](`document.getElementById('tl-scroll').focus()`))
}

// TestBrowserReadable walks every lesson and lab to its verdict in both
// languages on a laptop and a phone screen and checks that the timeline
// can be read: no reply outcome cut, the newest row in view after each
// step, the detail panel showing the selected event, no English in 中文
// mode outside code and identifiers, no console error and no failed load.
func TestBrowserReadable(t *testing.T) {
	chromium(t)
	url := startServer(t, server.Options{})
	b := startBrowser(t)
	dir := artifacts(t)
	all := append([]scenario.Scenario(nil), catalog(t).Scenarios...)
	all = append(all, labs(t).Scenarios...)

	for _, size := range []struct {
		name string
		w, h int64
	}{{"1400x900", 1400, 900}, {"414x896", 414, 896}} {
		t.Run(size.name, func(t *testing.T) {
			ctx, cancel := chromedp.NewContext(b, chromedp.WithNewBrowserContext())
			ctx, cancelT := context.WithTimeout(ctx, 6*time.Minute)
			defer func() { cancelT(); cancel() }()
			probs := watch(t, ctx)
			do(t, ctx, "viewport", chromedp.EmulateViewport(size.w, size.h))
			open(t, ctx, url)
			do(t, ctx, "English", chromedp.Evaluate[chromedp.Void](`localStorage.setItem('lockstep.lang', 'en')`))
			for _, sc := range all {
				sc := sc
				t.Run(sc.ID, func(t *testing.T) {
					load(t, ctx, sc.ID)
					if size.w < 600 {
						lessonWhole(t, ctx)
					}
					if a := eval[string](t, ctx, `document.activeElement ? document.activeElement.id : ''`); a == "scenario" {
						t.Errorf("after picking a lesson the focus stays on the picker")
					}
					// The keyboard steps the run; the newest row stays in view.
					for i := 0; i < 3; i++ {
						before := eval[int](t, ctx, `lockstep.state.snap.step`)
						do(t, ctx, "space", chromedp.KeyEvent(" "))
						waitFor(t, ctx, "a step by the space bar", fmt.Sprintf(`lockstep.state.snap.step > %d || lockstep.state.snap.ended`, before))
						waitFor(t, ctx, "the newest row in view", inView)
					}
					// A click on a row shows that event in the detail panel.
					seq := eval[int](t, ctx, `(li => li ? Number(li.dataset.seq) : -1)([...document.querySelectorAll('[data-testid=event]')].pop())`)
					if seq >= 0 {
						do(t, ctx, "select a row", chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector('[data-testid=event][data-seq="%d"]').click()`, seq)))
						waitFor(t, ctx, "the detail panel", fmt.Sprintf(`document.querySelector('[data-testid=event-detail]').dataset.seq === '%d'`, seq))
						d := text(t, ctx, "event-detail")
						if !strings.Contains(d, fmt.Sprintf("#%d", seq)) {
							t.Errorf("detail panel: expected event #%d, got %q", seq, d)
						}
					}
					do(t, ctx, "to the end", chromedp.Evaluate[chromedp.Void](`document.querySelector('[data-testid=end]').click()`))
					waitFor(t, ctx, "the verdict", `lockstep.state.snap.ended && lockstep.state.model.verdicts.length > 0`)
					waitFor(t, ctx, "the newest row in view at the end", inView)
					got := eval[[]string](t, ctx, `[...new Set(lockstep.state.model.verdicts.map(v => v.name))]`)
					if !lesson.SameVerdicts(got, sc.Expect) {
						t.Errorf("verdict: expected %v, got %v", sc.Expect, got)
					}
					if cut := eval[[]string](t, ctx, cutOutcomes); len(cut) > 0 {
						t.Errorf("outcomes or verdicts cut at %s in English: %v", size.name, cut)
					}
					if out := eval[[]string](t, ctx, `(r => [...document.querySelectorAll('#lanes .lane')].filter(e => e.getBoundingClientRect().right > r + 1).map(e => e.textContent))(document.getElementById('timeline').getBoundingClientRect().right)`); len(out) > 0 {
						t.Errorf("lane headers past the timeline's right edge at %s: %q", size.name, out)
					}
					if m := eval[int](t, ctx, `document.querySelectorAll('[data-testid^="move-"]').length`); m != 0 {
						t.Errorf("at the end of the run %d moves are still offered", m)
					}
					do(t, ctx, "switch language", chromedp.Evaluate[chromedp.Void](`document.querySelector('[data-testid=lang]').click()`))
					waitFor(t, ctx, "中文", `document.documentElement.lang === 'zh-CN' && document.getElementById('timeline').dataset.lang === 'zh'`)
					if cut := eval[[]string](t, ctx, cutOutcomes); len(cut) > 0 {
						t.Errorf("outcomes or verdicts cut at %s in 中文: %v", size.name, cut)
					}
					if size.w < 600 {
						lessonWhole(t, ctx)
					}
					if en := eval[[]string](t, ctx, english); len(en) > 0 {
						t.Errorf("English in 中文 mode: %q", en)
					}
					if u := eval[[]string](t, ctx, `lockstep.untranslated()`); len(u) > 0 {
						t.Errorf("server texts shown in English in 中文 mode: %q", u)
					}
					if no := eval[[]string](t, ctx, noChinese); len(no) > 0 {
						t.Errorf("texts without a Chinese side: %q", no)
					}
					if sc.ID == "redlock-split-vote" || sc.ID == "market-watch-contention" {
						do(t, ctx, "to the top", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
						shot(t, ctx, dir, "readable-"+sc.ID+"-zh-"+size.name)
					}
					do(t, ctx, "switch language", chromedp.Evaluate[chromedp.Void](`document.querySelector('[data-testid=lang]').click()`))
					waitFor(t, ctx, "English", `document.documentElement.lang === 'en' && document.getElementById('timeline').dataset.lang === 'en'`)
					if sc.ID == "redlock-split-vote" || sc.ID == "market-watch-contention" {
						shot(t, ctx, dir, "readable-"+sc.ID+"-en-"+size.name)
					}
					for _, p := range probs.take() {
						t.Errorf("%s", p)
					}
				})
			}
		})
	}
}
