package e2e

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"github.com/lockstep/lockstep/internal/server"
)

// fill sets the form's fields (rf-NAME) as a person types them.
func fill(t *testing.T, ctx context.Context, fields map[string]string) {
	t.Helper()
	for name, v := range fields {
		choose(t, ctx, "rf-"+name, v)
	}
}

// tick ticks only these fault columns of the form.
func tick(t *testing.T, ctx context.Context, columns ...string) {
	t.Helper()
	eval[bool](t, ctx, fmt.Sprintf(`(want => { for (const c of document.querySelectorAll('[data-testid=rf-fault]')) c.checked = want.split(',').includes(c.value); return true })(%q)`, strings.Join(columns, ",")))
}

// spyOps records, in window.sentOps, the op of every frame the page
// sends the server from now on (its socket's send, wrapped once).
func spyOps(t *testing.T, ctx context.Context) {
	t.Helper()
	eval[bool](t, ctx, `(() => {
		if (window.sentOps) return true;
		window.sentOps = [];
		const send = WebSocket.prototype.send;
		WebSocket.prototype.send = function (d) { try { window.sentOps.push(JSON.parse(d).op); } catch (e) { window.sentOps.push('?'); } return send.call(this, d); };
		return true;
	})()`)
}

// sent lists the ops the page sent since spyOps.
func sent(t *testing.T, ctx context.Context) []string {
	t.Helper()
	return eval[[]string](t, ctx, `window.sentOps.slice()`)
}

// formChoices is true once the form shows the server's choices: the
// catalog's 19 locks and "my own", the card's 9 fault columns.
const formChoices = `document.querySelectorAll('[data-testid=rf-lock] option').length === 20 && document.querySelectorAll('[data-testid=rf-fault]').length === 9`

// question opens Check my lock on a page that has no card kept, and
// holds the question it asks first: shown at once, its first choice
// the scenario loaded (named by the lesson's title, as the page heads
// it), the keyboard on it, and no card asked of the server.
func question(t *testing.T, ctx context.Context) {
	t.Helper()
	spyOps(t, ctx)
	click(t, ctx, "mine-open")
	waitFor(t, ctx, "the question", `!document.querySelector('[data-testid=report-start]').hidden && document.activeElement === document.querySelector('[data-testid=report-start-loaded]')`)
	if got, title := eval[string](t, ctx, `document.getElementById('report-start-loaded-what').textContent`), eval[string](t, ctx, `document.getElementById('title').textContent.trim()`); title == "" || !strings.HasPrefix(got, title) {
		t.Errorf("the choice of the scenario loaded says %q, want it named by the title %q", got, title)
	}
	if eval[bool](t, ctx, `!!document.querySelector('[data-testid=report-table]') || document.querySelector('[data-testid=report-instead]').checkVisibility()`) {
		t.Errorf("the question shows a card's grid or What to use instead")
	}
	if ops := sent(t, ctx); slices.Contains(ops, "setup") {
		t.Errorf("opening Check my lock sent %v: a card started before the user asked for one", ops)
	}
}

// openForm opens Check my lock and its short form, from the question,
// and holds that its choices appear within a few seconds (the server
// answers setup-form at once; no card of this session runs to delay
// it) and that no card was asked for.
func openForm(t *testing.T, ctx context.Context) {
	t.Helper()
	question(t, ctx)
	click(t, ctx, "report-start-form")
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](formChoices, chromedp.WithPollingTimeout(10*time.Second), chromedp.WithPollingInterval(25*time.Millisecond))); err != nil {
		t.Fatalf("the form's choices did not appear within 10s (%s): %v", formChoices, err)
	}
	if !eval[bool](t, ctx, `document.activeElement === document.querySelector('[data-testid=rf-lock]') && document.querySelector('[data-testid=report-start-form]').getAttribute('aria-expanded') === 'true'`) {
		t.Errorf("the form opened, but the keyboard is not on its first field or its choice is not marked expanded")
	}
	if ops := sent(t, ctx); slices.Contains(ops, "setup") {
		t.Errorf("opening the form sent %v: a card started before the form was submitted", ops)
	}
}

// formError submits the form and waits for the error it gets, marked on field.
func formError(t *testing.T, ctx context.Context, field string) string {
	t.Helper()
	click(t, ctx, "rf-run")
	waitFor(t, ctx, "the error on "+field, `document.querySelector('[data-testid=rf-`+field+`]').getAttribute('aria-invalid') === 'true' && document.querySelector('[data-testid=rf-error]').textContent !== ''`)
	return text(t, ctx, "rf-error")
}

// Check my lock from the short form, in both languages. The server adds
// lua-compare-delete beside the user's lock; the form ticks the columns.
// What the cells must say, argued before they were run:
//
//   - en: SET NX PX and a plain DEL pasted as commands, 2 workers, lease
//     1s, work 500ms, retry 100ms, only a pause before the release
//     ticked. W1's pause (up to the lease) puts its DEL after its lease
//     ended and W2 took the key: the DEL deletes W2's lock,
//     foreign-unlock ✗. lua-compare-delete compares its token first: ✓,
//     and it is what to use instead.
//   - 中文: set-nx-ex-blind-del picked, 2 workers, the same lease and
//     work, contention and a pause longer than the lease ticked. With no
//     fault the work (500ms) ends inside the lease: ✓; a 2s pause as W1
//     enters lets its key expire and the next worker enter beside it:
//     mutual-exclusion ✗, for lua-compare-delete too.
func TestBrowserCheckMyLockForm(t *testing.T) {
	chromium(t)
	url := startServer(t, server.Options{SetupLocks: []string{"lua-compare-delete"}, SetupTime: cardTab})
	b := startBrowser(t)
	dir := artifacts(t)

	t.Run("en-pasted-commands", func(t *testing.T) {
		ctx := pageWithin(t, b, url, cardTab)
		openForm(t, ctx)
		shot(t, ctx, dir, "check-my-lock-question-en")
		do(t, ctx, "a phone", chromedp.EmulateViewport(414, 896))
		shot(t, ctx, dir, "check-my-lock-question-phone-en")
		do(t, ctx, "a laptop", chromedp.EmulateViewport(1400, 900))
		fill(t, ctx, map[string]string{"workers": "40"})
		if got := formError(t, ctx, "workers"); got != "setup-form: workers: 40 workers: give 1 to 16 (the clients of one scenario)" {
			t.Errorf("workers out of range: %q", got)
		}
		fill(t, ctx, map[string]string{"workers": "2", "release": "if redis.call('get', KEYS[1]) == ARGV[1] then\n  return redis.call('del' KEYS[1])\nend"})
		if got := formError(t, ctx, "release"); !strings.Contains(got, "release: line 2, column 27: Lua syntax error") {
			t.Errorf("a Lua syntax error: %q", got)
		}
		if eval[string](t, ctx, `document.querySelector('[data-testid=rf-workers]').getAttribute('aria-invalid')`) != "false" {
			t.Errorf("the workers field is still marked once it is right")
		}
		fill(t, ctx, map[string]string{"acquire": "SET $key $token NX PX $ttl => OK", "release": "DEL $key", "acquire_ok": "", "release_ok": ""})
		tick(t, ctx, "pause-release")
		shot(t, ctx, dir, "check-my-lock-form-en")
		if ops := sent(t, ctx); slices.Contains(ops, "setup") {
			t.Errorf("the form, filled in and refused twice, sent %v: a card started before it was submitted", ops)
		}
		click(t, ctx, "rf-run")
		waitFor(t, ctx, "the card of the form's scenario", `!!lockstep.reporter.mine && lockstep.reporter.mine.scenario === 'my-lock'`)
		if ops := sent(t, ctx); slices.Index(ops, "setup") < 0 || slices.Index(ops, "setup") < slices.Index(ops, "setup-form") {
			t.Errorf("the form submitted sent %v: want its card asked for (setup) after the form (setup-form)", ops)
		}
		mineDone(t, ctx)
		ed := eval[string](t, ctx, `document.querySelector('[data-testid=editor]').value`)
		if !strings.Contains(ed, "- name: my-lock") || !strings.Contains(ed, `run: ["DEL", "$key"]`) || !eval[bool](t, ctx, `document.getElementById('editor-panel').open`) {
			t.Errorf("the editor holds %q: want the form's scenario, open", ed)
		}
		if n := eval[int](t, ctx, `lockstep.reporter.mine.columns.length`); n != 1 || eval[int](t, ctx, `lockstep.reporter.mine.total`) != 2 {
			t.Errorf("%d columns: want the one ticked", n)
		}
		for lock, kind := range map[string]string{"my-lock": "fails", "lua-compare-delete": "holds"} {
			if got := eval[string](t, ctx, cellOf(lock, "pause-release")); !strings.HasPrefix(got, kind) {
				t.Errorf("%s under a pause before the release: %q, want %s", lock, got, kind)
			}
		}
		if got := eval[string](t, ctx, cellOf("my-lock", "pause-release")); !strings.Contains(got, "foreign-unlock") {
			t.Errorf("the user's ✗ %q: want foreign-unlock beside it", got)
		}
		if got := eval[[]string](t, ctx, alternatives); strings.Join(got, ",") != "lua-compare-delete" {
			t.Errorf("what to use instead: %v", got)
		}
		// Beside it, the two locks' code: the commands pasted, and
		// lua-compare-delete's Go (its SET NX, promoted from the type it
		// embeds) and its compare-and-delete script.
		checkCode(t, ctx, "lua-compare-delete", []string{"SET $key $token NX PX $ttl", "DEL $key", "my-lock"},
			[]string{"func (l *setNXLock) Lock(", "func (l *setNXLock) unlockOwned(", "scripts/compare_and_delete.lua:1", "redis.call"},
			[]string{"acquire", "release"}, "side by side")
		eval[bool](t, ctx, `(document.querySelector('[data-testid=report-code]').scrollIntoView({block: 'start'}), true)`)
		shot(t, ctx, dir, "check-my-lock-form-card-en")

		// Download as HTML: the card as one page, the ✗ linked to its
		// counterexample's YAML, that opens from file:// with nothing
		// fetched (the tab's watcher fails the test on a failed load).
		down := t.TempDir()
		if _, err := chromedp.CallBrowser(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
			Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: down,
			BrowserContextID: chromedp.FromContext(ctx).BrowserContextID}); err != nil {
			t.Fatal(err)
		}
		if got := text(t, ctx, "report-export-html"); got != "Download as HTML" {
			t.Errorf("the HTML button reads %q", got)
		}
		click(t, ctx, "report-export-html")
		page := string(downloaded(t, down, ".html"))
		if !strings.HasPrefix(page, "<!doctype html>") || !strings.Contains(page, `href="#cx-my-lock-pause-release"`) ||
			!strings.Contains(page, "locks/my-lock.yaml") || !strings.Contains(page, "改用什么") || strings.Contains(page, "http") {
			t.Errorf("the HTML downloaded is not the card's offline page: %.300s", page)
		}
		path := filepath.Join(down, "my-lock-card.html")
		do(t, ctx, "open the page offline", chromedp.Navigate("file://"+path))
		waitFor(t, ctx, "the offline page", `!!document.querySelector('#cx-my-lock-pause-release pre') && document.title.startsWith('The card for my-lock')`)
		shot(t, ctx, dir, "check-my-lock-form-html")
	})

	t.Run("zh-catalog-lock", func(t *testing.T) {
		ctx := pageWithin(t, b, url, cardTab)
		click(t, ctx, "lang")
		waitFor(t, ctx, "中文", `document.getElementById('timeline').dataset.lang === 'zh'`)
		openForm(t, ctx)
		if got := text(t, ctx, "report-start-form"); got != "描述我的锁" {
			t.Errorf("the question's choice of the form in 中文: %q", got)
		}
		shot(t, ctx, dir, "check-my-lock-question-zh")
		do(t, ctx, "a phone", chromedp.EmulateViewport(414, 896))
		shot(t, ctx, dir, "check-my-lock-question-phone-zh")
		do(t, ctx, "a laptop", chromedp.EmulateViewport(1400, 900))
		if got := text(t, ctx, "rf-run"); got != "检查这把锁" {
			t.Errorf("the form's button in 中文: %q", got)
		}
		fill(t, ctx, map[string]string{"lock": "set-nx-ex-blind-del", "workers": "0"})
		if eval[bool](t, ctx, `!document.querySelector('[data-testid=rf-acquire]').closest('label').hidden`) {
			t.Errorf("a catalog lock picked, the pasted steps are still shown")
		}
		if got := formError(t, ctx, "workers"); !strings.Contains(got, "工作者数：0 个工作者：请给出 1 到 16 个") {
			t.Errorf("workers out of range in 中文: %q", got)
		}
		tick(t, ctx)
		click(t, ctx, "rf-run")
		waitFor(t, ctx, "no fault ticked", `document.querySelector('[data-testid=rf-error]').textContent === '请至少勾选一种故障。'`)
		fill(t, ctx, map[string]string{"workers": "2"})
		tick(t, ctx, "contention", "pause")
		shot(t, ctx, dir, "check-my-lock-form-zh")
		click(t, ctx, "rf-run")
		waitFor(t, ctx, "the card of the form's scenario", `!!lockstep.reporter.mine && lockstep.reporter.mine.scenario === 'my-lock'`)
		mineDone(t, ctx)
		for _, tc := range []struct{ lock, column, kind string }{
			{"set-nx-ex-blind-del", "contention", "holds"}, {"set-nx-ex-blind-del", "pause", "fails"},
			{"lua-compare-delete", "contention", "holds"}, {"lua-compare-delete", "pause", "fails"},
		} {
			if got := eval[string](t, ctx, cellOf(tc.lock, tc.column)); !strings.HasPrefix(got, tc.kind) {
				t.Errorf("%s under %s: %q, want %s", tc.lock, tc.column, got, tc.kind)
			}
		}
		if got := eval[string](t, ctx, `document.querySelector('[data-testid=report-table] tbody tr .rep-name').textContent`); !strings.Contains(got, "(你的)") {
			t.Errorf("the first row %q: want the lock picked, marked yours", got)
		}
		if got := text(t, ctx, "report-export-html"); got != "下载为 HTML" {
			t.Errorf("the HTML button in 中文 reads %q", got)
		}
		// The same SET NX PX acquire in both columns; the releases differ.
		checkCode(t, ctx, "lua-compare-delete", []string{"func (l *SetNXBlindDel) Unlock("},
			[]string{"func (l *LuaCompareDelete) Unlock(", "compare_and_delete.lua"}, []string{"加锁", "释放", "func (l *setNXLock) Lock("}, "side by side")
		if !strings.Contains(codeSide(t, ctx, "lua-compare-delete", "yours"), "你的：") {
			t.Errorf("the column of your code is not headed in 中文")
		}
		eval[bool](t, ctx, `(document.querySelector('[data-testid=report-code]').scrollIntoView({block: 'start'}), true)`)
		shot(t, ctx, dir, "check-my-lock-form-card-zh")
		do(t, ctx, "a phone", chromedp.EmulateViewport(414, 896))
		checkCode(t, ctx, "lua-compare-delete", nil, nil, nil, "stacked")
		eval[bool](t, ctx, `(document.querySelector('[data-testid=report-code] [data-side=instead]').scrollIntoView({block: 'start'}), true)`)
		shot(t, ctx, dir, "check-my-lock-form-code-phone-zh")
	})
}
