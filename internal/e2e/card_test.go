package e2e

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/server"
)

// The "Which lock?" card as an engineer reads it, with the card this
// build carries (19 locks × 8 faults), on a 1400×900 laptop and on a
// 414×896 phone, in English and in 中文: axe-core finds nothing serious
// on it; at least 12 locks are on screen at once; the lock column stays
// in view when the grid is scrolled right to "use it when…" (and down);
// every lock is named in words, its id in its tooltip; every ✓ says the
// bound it holds within beside it; every ? says plainly that it was not
// searched; in 中文 no cell has a Latin word (a verdict reads 互斥被打破,
// not mutual-exclusion) and the status names no file or command; on the
// phone nothing is wider than the screen.
func TestBrowserCardReadable(t *testing.T) {
	chromium(t)
	url := startServer(t, server.Options{Card: lockstep.Card})
	b := startBrowser(t)
	dir := artifacts(t)
	for _, lang := range []string{"en", "zh"} {
		t.Run(lang, func(t *testing.T) {
			ctx := axeTab(t, b)
			probs := watch(t, ctx)
			open(t, ctx, url)
			if lang == "zh" {
				click(t, ctx, "lang")
				waitFor(t, ctx, "中文", `document.documentElement.lang === 'zh-CN'`)
			}
			click(t, ctx, "report-open")
			waitFor(t, ctx, "the stored card", `document.querySelector('[data-testid=report-status]').dataset.state === 'done'`)
			cardLaptop(t, ctx, lang)
			shot(t, ctx, dir, "card-laptop-"+lang)
			audit(t, ctx, "the card at 1400×900")
			cardScrolled(t, ctx, dir, "card-laptop-scrolled-"+lang)
			cardNotSearched(t, ctx, lang)
			cardLive(t, ctx, dir, lang)

			do(t, ctx, "a phone", chromedp.EmulateViewport(414, 896))
			waitFor(t, ctx, "the phone's layout", `window.innerWidth === 414`)
			if w := eval[[]int](t, ctx, `[document.documentElement.scrollWidth, document.querySelector('#report-body').scrollWidth, window.innerWidth]`); w[0] > w[2] || w[1] > w[2] {
				t.Errorf("on a 414 px phone the page is %d px wide and the card %d px: want neither wider than the screen", w[0], w[1])
			}
			shot(t, ctx, dir, "card-phone-"+lang)
			audit(t, ctx, "the card on a phone")
			for _, p := range probs.take() {
				t.Errorf("page problem: %s", p)
			}
		})
	}
}

// latinWord is a word of two Latin letters or more (n/a, mutual, s).
var latinWord = regexp.MustCompile(`[A-Za-z]{2,}`)

// cardLaptop checks the card as drawn at 1400×900 in lang: rows on
// screen, names, the bounds of the ✓, the ? said plainly, and in 中文
// no Latin word in a cell nor a file or command in the status.
func cardLaptop(t *testing.T, ctx context.Context, lang string) {
	t.Helper()
	// A row is on screen when all of it is inside the card's scrolled box,
	// below the sticky header, and inside the window.
	visible := eval[int](t, ctx, `(() => {
		const body = document.querySelector('#report-body').getBoundingClientRect();
		const head = document.querySelector('[data-testid=report-table] thead th').getBoundingClientRect();
		const top = Math.max(body.top, head.bottom), bottom = Math.min(body.bottom, window.innerHeight);
		return [...document.querySelectorAll('[data-testid=report-table] tbody tr')].filter(r => {
			const b = r.getBoundingClientRect();
			return b.height > 0 && b.top >= top - 1 && b.bottom <= bottom + 1;
		}).length;
	})()`)
	t.Logf("%d of 19 locks on screen at 1400×900 (%s)", visible, lang)
	if visible < 12 {
		t.Errorf("%d of 19 locks on screen at 1400×900, want at least 12", visible)
	}
	names := eval[[]string](t, ctx, `[...document.querySelectorAll('[data-testid=report-table] tbody tr')].map(r => {
		const th = r.querySelector('th');
		return r.dataset.lock + '|' + th.textContent.trim() + '|' + (th.title || '');
	})`)
	for _, n := range names {
		p := strings.SplitN(n, "|", 3)
		if p[1] == p[0] || !strings.Contains(p[1], " ") && lang == "en" || !strings.Contains(p[2], p[0]) {
			t.Errorf("the lock %s reads %q with the tooltip %q: want a name in words, its id in the tooltip", p[0], p[1], p[2])
		}
	}
	// Every ✓ says beside it the bound it holds within: the clients and
	// requests, and the lease when the lock has one.
	holds := eval[[]string](t, ctx, `[...document.querySelectorAll('[data-testid=report-cell][data-kind=holds]')].map(c => c.dataset.lock + '|' + c.textContent.trim())`)
	if len(holds) < 20 {
		t.Errorf("%d ✓ cells, want the stored card's (more than 20)", len(holds))
	}
	within := map[string]string{"en": "2×1", "zh": "2×1"}[lang]
	for _, h := range holds {
		if !strings.Contains(h, within) {
			t.Errorf("a ✓ reads %q: want the bound beside it (%s: clients × requests)", h, within)
			break
		}
	}
	if got := eval[string](t, ctx, cellOf("fencing-token", "pause")); !strings.Contains(got, map[string]string{"en": "1s", "zh": "1秒"}[lang]) {
		t.Errorf("the fencing ✓ under a pause reads %q: want its lease beside it", got)
	}
	// A row is two lines at most; a lock clicked opens its row in full.
	clamped := eval[string](t, ctx, `(a => a ? a.closest('tr').dataset.lock : '')([...document.querySelectorAll('[data-testid=report-advice] > *')].find(a => a.scrollHeight > a.clientHeight + 2))`)
	if clamped == "" {
		t.Errorf("no lock's \"use it when…\" is cut to its first lines")
	} else {
		do(t, ctx, "open "+clamped+"'s row", chromedp.Click(chromedp.CSS(fmt.Sprintf(`tr[data-lock=%q] th button`, clamped))))
		if !eval[bool](t, ctx, fmt.Sprintf(`(a => a.scrollHeight <= a.clientHeight + 2)(document.querySelector('tr[data-lock=%q] [data-testid=report-advice] > *'))`, clamped)) {
			t.Errorf("%s clicked: its \"use it when…\" is still cut", clamped)
		}
		do(t, ctx, "close "+clamped+"'s row", chromedp.Click(chromedp.CSS(fmt.Sprintf(`tr[data-lock=%q] th button`, clamped))))
	}
	if lang != "zh" {
		return
	}
	cells := eval[[]string](t, ctx, `[...document.querySelectorAll('[data-testid=report-cell]')].map(c => c.dataset.lock + '/' + c.dataset.column + ': ' + c.textContent.trim())`)
	latin := 0
	for _, c := range cells {
		if _, text, _ := strings.Cut(c, ": "); latinWord.MatchString(text) {
			if latin++; latin <= 5 {
				t.Errorf("a cell in 中文 reads %s: a Latin word in it", c)
			}
		}
	}
	if got := text(t, ctx, "report-status"); strings.Contains(got, "docs/") || strings.Contains(got, "visualizer") {
		t.Errorf("the status in 中文 names a file or a command: %q", got)
	}
}

// cardScrolled scrolls the grid to its right end and halfway down: the
// lock column is still in view, beside "use it when…", and the header
// row above the rows (a screenshot under name keeps what was seen).
func cardScrolled(t *testing.T, ctx context.Context, dir, name string) {
	t.Helper()
	scroll := eval[[]int](t, ctx, `(b => { b.scrollLeft = b.scrollWidth; b.scrollTop = 200; return [b.scrollLeft, b.scrollTop]; })(document.querySelector('#report-body'))`)
	if scroll[0] == 0 {
		t.Logf("the grid fits without scrolling right")
	}
	got := eval[string](t, ctx, `(() => {
		const body = document.querySelector('#report-body').getBoundingClientRect();
		const out = [];
		// the sticky header cells (thead itself scrolls away: its cells stick)
		const head = { bottom: Math.max(...[...document.querySelectorAll('[data-testid=report-table] thead th')].map(h => h.getBoundingClientRect().bottom)) };
		for (const tr of document.querySelectorAll('[data-testid=report-table] tbody tr')) {
			const th = tr.querySelector('th').getBoundingClientRect();
			// scrolled out vertically, or partly under the sticky header row (a row of
			// two lines under a header of two lines, in 中文)
			if (th.top < head.bottom - 1 || th.top > body.bottom - 5) continue;
			const x = th.left + th.width / 2, y = th.top + Math.min(th.height / 2, 8);
			const at = document.elementFromPoint(x, y);
			if (th.left < body.left - 1 || th.right > body.right + 1 || !at || !tr.querySelector('th').contains(at)) out.push(tr.dataset.lock);
		}
		const heads = [...document.querySelectorAll('[data-testid=report-table] thead th')];
		const left = heads[0].getBoundingClientRect().right; // the lock column's header, the corner
		for (const th of heads) {
			const h = th.getBoundingClientRect();
			if (th !== heads[0] && (h.right < left + 8 || h.left > body.right)) continue; // scrolled out sideways (or under the lock column), as it may
			const at = document.elementFromPoint(th === heads[0] ? h.left + 4 : Math.max(h.left, left) + 4, h.top + 4);
			if (h.top < body.top - 1 || !at || !th.contains(at)) out.push('the header ' + JSON.stringify(th.textContent));
		}
		return out.join(', ');
	})()`)
	if got != "" {
		t.Errorf("scrolled to the right end of the grid and down, out of view or covered: %s", got)
	}
	if !eval[bool](t, ctx, `[...document.querySelectorAll('[data-testid=report-advice]')].some(a => { const r = a.getBoundingClientRect(), b = document.querySelector('#report-body').getBoundingClientRect(); return r.right <= b.right + 1 && r.left >= b.left; })`) {
		t.Errorf("scrolled right, no \"use it when…\" in view")
	}
	// Two frames drawn after the scroll, so that the screenshot shows it.
	do(t, ctx, "draw the scroll", chromedp.Evaluate[chromedp.Void](`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))`, chromedp.EvalAwaitPromise))
	shot(t, ctx, dir, name)
	do(t, ctx, "scroll back", chromedp.Evaluate[chromedp.Void](`(b => { b.scrollLeft = 0; b.scrollTop = 0; })(document.querySelector('#report-body'))`))
}

// cardNotSearched checks a ? cell in lang. The stored card has none: a
// cell the card's time limit stopped is given to the page as the server
// sends one (report.Cell.Text's words), and is drawn saying plainly that
// it was not searched.
func cardNotSearched(t *testing.T, ctx context.Context, lang string) {
	t.Helper()
	do(t, ctx, "a cell not searched", chromedp.Evaluate[chromedp.Void](`lockstep.reporter.onMessage({type: 'report-cell', done: 152, total: 152,
		cell: {lock: 'redlock', column: 'restart', kind: 'unsearched', text: {
			en: "? not searched to its end: the card's time limit stopped its search after 12 schedules, before the end of its budget",
			zh: '? 没有搜索完：报告卡的时限让它的搜索在 12 个调度之后、预算用完之前就停止了'}}})`))
	plain := map[string]string{"en": "? not searched", "zh": "? 未搜索"}[lang]
	if got := eval[string](t, ctx, cellOf("redlock", "restart")); got != "unsearched "+plain {
		t.Errorf("a ? cell reads %q, want %q", got, "unsearched "+plain)
	}
}

// cardLive checks the live rows (etcd, ZooKeeper) under the grid in lang:
// a heading that says they are samples of real runs, not a search; every
// cell a tally of real runs (✗ k/N ◷, ✓ 0/N ◷), n/a with why, or not run;
// the plain write broken under a pause and the checked write not; and
// where and when each row ran.
func cardLive(t *testing.T, ctx context.Context, dir, lang string) {
	t.Helper()
	do(t, ctx, "scroll to the live rows", chromedp.Evaluate[chromedp.Void](`document.querySelector('[data-testid=report-live-title]').scrollIntoView()`))
	words := map[string][2]string{"en": {"in real time", "not a search"}, "zh": {"真实时间", "不是搜索"}}[lang]
	if got := text(t, ctx, "report-live-title"); !strings.Contains(got, words[0]) || !strings.Contains(got, words[1]) {
		t.Errorf("the live rows' heading reads %q: want it to say %q and %q", got, words[0], words[1])
	}
	if got := text(t, ctx, "report-live-legend"); !strings.Contains(got, "◷") || !strings.Contains(got, words[1]) {
		t.Errorf("the live rows' legend reads %q: want ◷ and %q", got, words[1])
	}
	rows := eval[[]string](t, ctx, `[...document.querySelectorAll('[data-testid=report-live-table] tbody tr')].map(r => r.dataset.lock + '|' + r.querySelector('[data-testid=report-sample]').textContent)`)
	if len(rows) != 4 {
		t.Fatalf("%d live rows, want etcd's two and ZooKeeper's two: %q", len(rows), rows)
	}
	sample := map[string]string{"en": "real-time runs a cell", "zh": "次真实时间运行"}[lang]
	for _, r := range rows {
		if !strings.Contains(r, sample) {
			t.Errorf("a live row reads %q: want where and when its runs ran (%q)", r, sample)
		}
	}
	runs := map[string]string{"en": "real runs", "zh": "真实运行"}[lang]
	cells := eval[[]string](t, ctx, `[...document.querySelectorAll('[data-testid=report-live-table] [data-testid=report-cell]')].map(c => c.dataset.kind + '|' + c.textContent.trim())`)
	for _, c := range cells {
		kind, got, _ := strings.Cut(c, "|")
		switch kind {
		case "broke", "unbroken":
			if !strings.Contains(got, "◷") || !strings.Contains(got, runs) {
				t.Errorf("a live %s cell reads %q: want its tally of %s and ◷", kind, got, runs)
			}
		case "n/a", "unsearched":
		default:
			t.Errorf("a live cell of kind %s (%q): want a tally of real runs, n/a or not run", kind, got)
		}
	}
	kinds := eval[[]string](t, ctx, `[...document.querySelectorAll('[data-testid=report-live-table] tbody tr')].map(r => r.querySelector('[data-column=pause]').dataset.kind)`)
	if len(kinds) != 4 || kinds[0] != "broke" || kinds[1] != "unbroken" {
		t.Errorf("etcd's pause cells are %q: want the Put broken and the Txn If IsOwner not", kinds)
	}
	shot(t, ctx, dir, "card-live-"+lang)
}
