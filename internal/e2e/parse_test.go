package e2e

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"
	"time"

	cdpage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/lockstep/lockstep/internal/server"
)

// TestBrowserDrawsTheControlsWhole sends the page in two parts, the second
// 400 ms after the first, split right after the run controls' start tag,
// as a busy server or network may, and checks that no frame is drawn with
// the controls half parsed. The page holds its first frame until the
// controls are parsed (`<link rel=expect blocking=render>`); it named the
// controls' start tag, so a frame could show the controls with the
// scrubber but not the cursor and the seed after it, and on a phone the
// scrubber (last on its line, order 9) then moved down a line when they
// came: 24 px, a layout shift of 0.0009 under a 10× CPU throttle (issue
// 34). Expected now: the first frame comes once the controls' last field
// (#seed) is parsed; before, frames were drawn in the 400 ms between the
// two parts.
func TestBrowserDrawsTheControlsWhole(t *testing.T) {
	chromium(t)
	upstream, err := url.Parse(startServer(t, server.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(upstream)
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			proxy.ServeHTTP(w, r)
			return
		}
		resp, err := http.Get(upstream.String() + "/")
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		page := string(b)
		at := strings.Index(page, `<nav id="run-controls"`)
		if at < 0 {
			http.Error(w, "the page has no run controls", http.StatusInternalServerError)
			return
		}
		at += strings.IndexByte(page[at:], '>') + 1
		for k, v := range resp.Header {
			if k != "Content-Length" && k != "Etag" && k != "Content-Encoding" {
				w.Header()[k] = v
			}
		}
		_, _ = io.WriteString(w, page[:at])
		w.(http.Flusher).Flush()
		time.Sleep(400 * time.Millisecond)
		_, _ = io.WriteString(w, page[at:])
	}))
	t.Cleanup(slow.Close)
	b := startBrowser(t)
	ctx := tab(t, b, true)
	do(t, ctx, "viewport", chromedp.EmulateViewport(414, 896))
	if _, err := chromedp.Call(ctx, cdpage.AddScriptToEvaluateOnNewDocument, cdpage.AddScriptToEvaluateOnNewDocumentParams{Source: `
		window.__halfControls = 0; window.__frames = 0;
		const frame = () => {
			window.__frames++;
			if (document.getElementById('run-controls') && !document.getElementById('seed')) window.__halfControls++;
			requestAnimationFrame(frame);
		};
		requestAnimationFrame(frame);`}); err != nil {
		t.Fatal(err)
	}
	open(t, ctx, slow.URL)
	half, frames := eval[int](t, ctx, `window.__halfControls`), eval[int](t, ctx, `window.__frames`)
	if frames == 0 {
		t.Fatal("no frame drawn: the test's frame counter did not run")
	}
	if half > 0 {
		t.Errorf("%d of %d frames drew the run controls half parsed (the scrubber without the cursor and the seed after it)", half, frames)
	}
}
