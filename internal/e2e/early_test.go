package e2e

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	cdpage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/lockstep/lockstep/internal/server"
)

// socketLog wraps the page's WebSocket before any of its scripts run: each
// message received, its type and whether the page's modules had run by
// then (app.js, in page.js, sets window.lockstep), and each request sent,
// its op.
const socketLog = `
	window.__got = []; window.__sent = [];
	const W = window.WebSocket, send = W.prototype.send;
	W.prototype.send = function (d) { try { window.__sent.push(JSON.parse(d).op); } catch (e) {} return send.call(this, d); };
	window.WebSocket = new Proxy(W, { construct(T, args) {
		const ws = new T(...args);
		ws.addEventListener('message', (ev) => {
			let type = '?';
			try { type = JSON.parse(ev.data).type; } catch (e) {}
			window.__got.push({ type, app: !!window.lockstep });
		});
		return ws;
	} });`

// TestBrowserOpensItsSocketWhileItsModulesLoad holds the page's script
// (page.js, its modules joined) at
// the server until the test lets it go, on a first visit in each language,
// and checks that the page has meanwhile opened its socket, been welcomed
// and received the first lesson's state (early.js, a classic script that
// does not wait for the modules): the three round trips overlap the
// modules' loading instead of following it. Then, the modules let go, the
// first lesson is drawn from that state, with one hello and one load sent
// (the page does not ask for the lesson again). On the page before
// early.js the socket is opened by app.js itself, so nothing arrives while
// page.js is held and the test fails at its first wait.
func TestBrowserOpensItsSocketWhileItsModulesLoad(t *testing.T) {
	chromium(t)
	var mu sync.Mutex
	gate := make(chan struct{}) // page.js waits until it is closed; a new one for each load
	held := func() chan struct{} {
		mu.Lock()
		defer mu.Unlock()
		return gate
	}
	url := startServerWrapped(t, server.Options{}, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, "/page.js") {
				select { // held until the test lets it go (or a minute, or the browser gives up)
				case <-held():
				case <-r.Context().Done():
				case <-time.After(time.Minute):
				}
			}
			h.ServeHTTP(w, r)
		})
	})
	b := startBrowser(t)
	for _, lang := range []string{"en", "zh"} {
		t.Run(lang, func(t *testing.T) {
			mu.Lock()
			gate = make(chan struct{})
			mu.Unlock()
			ctx := tab(t, b, true)
			probs := watch(t, ctx)
			src := socketLog
			if lang == "zh" { // a choice stored in the browser before the page's scripts run
				src += `localStorage.setItem('lockstep.lang', 'zh');`
			}
			if _, err := chromedp.Call(ctx, cdpage.AddScriptToEvaluateOnNewDocument, cdpage.AddScriptToEvaluateOnNewDocumentParams{Source: src}); err != nil {
				t.Fatal(err)
			}
			// Navigate without waiting for the load event, which waits for page.js.
			if _, err := chromedp.Call(ctx, cdpage.Navigate, cdpage.NavigateParams{URL: url + "/"}); err != nil {
				t.Fatal(err)
			}
			waitFor(t, ctx, "the welcome and the first lesson's state while page.js is held",
				`(window.__got || []).some(m => m.type === 'welcome' && !m.app) && window.__got.some(m => m.type === 'state' && !m.app)`)
			if eval[bool](t, ctx, `!!window.lockstep`) {
				t.Fatal("the page's modules ran while page.js was held")
			}
			close(held())
			waitFor(t, ctx, "the first lesson drawn", `performance.getEntriesByName('lockstep-first-lesson').length === 1`)
			first := eval[string](t, ctx, `document.querySelector('#scenario option').value`)
			if got := eval[string](t, ctx, `lockstep.state.snap.scenario`); got != first {
				t.Errorf("the first lesson drawn is %q, want the picker's first, %q", got, first)
			}
			if got := eval[string](t, ctx, `document.getElementById('timeline').dataset.lang`); got != lang {
				t.Errorf("the timeline is drawn in %q, want %q", got, lang)
			}
			if got := eval[string](t, ctx, `document.getElementById('scenario').value`); got != first {
				t.Errorf("the picker shows %q, want %q", got, first)
			}
			time.Sleep(300 * time.Millisecond) // a second load, if the page sent one, would be answered by now
			if got := eval[string](t, ctx, `window.__sent.filter(op => op === 'hello' || op === 'load').join(' ')`); got != "hello load" {
				t.Errorf("the page sent %q, want one hello and one load", got)
			}
			if n := eval[int](t, ctx, `window.__got.filter(m => m.type === 'state').length`); n != 1 {
				t.Errorf("the page received %d states, want 1 (the first lesson's)", n)
			}
			for _, p := range probs.take() {
				t.Errorf("page problem: %s", p)
			}
		})
	}
}

// TestBrowserAStalePageSaysSoInItsLanguage: on a first visit the page is
// drawn once the first lesson comes; when the server's welcome is of
// another protocol version instead (a server updated under an open tab's
// cache), the page stops there and says to reload — in the reader's
// language, 中文 here, though nothing had been drawn before. The welcome's
// version is changed in the browser, as it arrives.
func TestBrowserAStalePageSaysSoInItsLanguage(t *testing.T) {
	chromium(t)
	url := startServer(t, server.Options{})
	b := startBrowser(t)
	ctx := tab(t, b, true)
	const otherVersion = `
		localStorage.setItem('lockstep.lang', 'zh');
		const d = Object.getOwnPropertyDescriptor(MessageEvent.prototype, 'data');
		Object.defineProperty(MessageEvent.prototype, 'data', { get() {
			const v = d.get.call(this);
			return typeof v === 'string' ? v.replace('"type":"welcome","v":', '"type":"welcome","v":9') : v;
		} });`
	if _, err := chromedp.Call(ctx, cdpage.AddScriptToEvaluateOnNewDocument, cdpage.AddScriptToEvaluateOnNewDocumentParams{Source: otherVersion}); err != nil {
		t.Fatal(err)
	}
	do(t, ctx, "open the page", chromedp.Navigate(url+"/"))
	waitFor(t, ctx, "the reload notice", `!document.getElementById('stale').hidden`)
	if got := eval[string](t, ctx, `document.querySelector('#stale span').textContent`); !strings.Contains(got, "重新载入") {
		t.Errorf("the reload notice reads %q, want it in 中文", got)
	}
}
