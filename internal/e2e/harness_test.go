package e2e

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/server"
	"github.com/lockstep/lockstep/web"
)

// chromium finds the browser, or skips (fails under CI) without it.
func chromium(t *testing.T) string {
	t.Helper()
	for _, p := range []string{os.Getenv("LOCKSTEP_CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if p == "" {
			continue
		}
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium is not installed, and CI=true requires the browser tests: apt-get install -y chromium")
	}
	t.Skip("chromium is not installed (apt-get install -y chromium); skipping the browser tests")
	return ""
}

// catalog is the built-in scenario file.
func catalog(t *testing.T) *scenario.File {
	t.Helper()
	f, err := scenario.ParseBuiltin("scenarios.yaml", lockstep.Scenarios)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// labs are the lab files (labs/*.yaml) as one file of scenarios.
func labs(t *testing.T) *scenario.File {
	t.Helper()
	out := &scenario.File{}
	names, files := lockstep.Labs()
	for i, n := range names {
		f, err := scenario.ParseBuiltin(n, files[i])
		if err != nil {
			t.Fatal(err)
		}
		out.Scenarios = append(out.Scenarios, f.Scenarios...)
	}
	return out
}

// startServer runs the real app on 127.0.0.1:0 and returns its base URL.
func startServer(t *testing.T, opts server.Options) string {
	t.Helper()
	return startServerWrapped(t, opts, nil)
}

// startServerWrapped is startServer with the app's handler wrapped (nil:
// as it is), for a test that holds or watches some of its requests.
func startServerWrapped(t *testing.T, opts server.Options, wrap func(http.Handler) http.Handler) string {
	t.Helper()
	static, templates := web.Embedded()
	if opts.Catalog == nil {
		opts.Catalog = catalog(t)
	}
	if opts.Labs == nil {
		opts.Labs = labs(t)
	}
	opts.Static, opts.Templates = static, templates
	app, err := server.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	h := app.Handler()
	if wrap != nil {
		h = wrap(h)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() {
		app.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	})
	return "http://" + ln.Addr().String()
}

// startBrowser starts one headless Chromium for a whole test.
func startBrowser(t *testing.T) context.Context {
	t.Helper()
	path := chromium(t)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("disable-backgrounding-occluded-windows", true),
		chromedp.WindowSize(1400, 900),
		chromedp.UserDataDir(t.TempDir()),
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return ctx
}

// tab opens a new tab; fresh gives it its own browser context (no shared
// storage), as a different browser would.
func tab(t *testing.T, browser context.Context, fresh bool) context.Context {
	t.Helper()
	return tabWithin(t, browser, fresh, 60*time.Second)
}

// tabWithin is tab with a time limit of its own, for a tab that waits on
// long server work (a card computed under the race detector).
func tabWithin(t *testing.T, browser context.Context, fresh bool, limit time.Duration) context.Context {
	t.Helper()
	var opts []chromedp.ContextOption
	if fresh {
		opts = append(opts, chromedp.WithNewBrowserContext())
	}
	ctx, cancel := chromedp.NewContext(browser, opts...)
	ctx, cancelT := context.WithTimeout(ctx, limit)
	t.Cleanup(func() { cancelT(); cancel() })
	return ctx
}

// artifacts is where screenshots are kept.
func artifacts(t *testing.T) string {
	t.Helper()
	if d := os.Getenv("LOCKSTEP_ARTIFACTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

// shot saves a screenshot of the page under name.
func shot(t *testing.T, ctx context.Context, dir, name string) {
	t.Helper()
	buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Errorf("screenshot %s: %v", name, err)
		return
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), buf, 0o644); err != nil {
		t.Error(err)
	}
}

// do runs actions or fails the test.
func do(t *testing.T, ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// eval evaluates a JS expression.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// waitFor polls a JS condition until it is true.
func waitFor(t *testing.T, ctx context.Context, what, cond string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](cond, chromedp.WithPollingTimeout(20*time.Second), chromedp.WithPollingInterval(25*time.Millisecond))); err != nil {
		t.Fatalf("waiting for %s (%s): %v", what, cond, err)
	}
}

// open loads the page and waits until a scenario's state has arrived.
func open(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	do(t, ctx, "open "+url, chromedp.Navigate(url))
	waitFor(t, ctx, "the first state", `!!(window.lockstep && window.lockstep.state.snap)`)
}

// choose sets a select's or a field's value as a person does: the value,
// then the input and change events a pick or typing fires (chromedp's
// SetValue alone fires none, so a page that keeps its own copy of a
// choice would not learn of it).
func choose(t *testing.T, ctx context.Context, testid, value string) {
	t.Helper()
	do(t, ctx, fmt.Sprintf("choose %s in %s", value, testid), chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(e => {
		e.value = %q;
		e.dispatchEvent(new Event('input', { bubbles: true }));
		e.dispatchEvent(new Event('change', { bubbles: true }));
	})(document.querySelector('[data-testid=%s]'))`, value, testid)))
}

// load picks a built-in scenario in the select and waits for its step 0.
func load(t *testing.T, ctx context.Context, id string) {
	t.Helper()
	choose(t, ctx, "scenario-select", id)
	waitFor(t, ctx, id+" loaded", fmt.Sprintf(`(s => s && s.scenario === %q && s.step === 0)(lockstep.state.snap)`, id))
}

// runFile runs YAML written in the page's editor and waits for its
// scenario id to load.
func runFile(t *testing.T, ctx context.Context, src, id string) {
	t.Helper()
	do(t, ctx, "run the file", chromedp.Evaluate[chromedp.Void](`document.getElementById('editor-panel').open = true`),
		chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
			document.querySelector('[data-testid=editor]').value = %q;
			document.querySelector('[data-testid=editor-run]').click();
		})()`, src)))
	waitFor(t, ctx, id+" loaded", fmt.Sprintf(`lockstep.state.snap.scenario === %q`, id))
}

// click clicks the element with a data-testid.
func click(t *testing.T, ctx context.Context, testid string) {
	t.Helper()
	do(t, ctx, "click "+testid, chromedp.Click(chromedp.CSS(`[data-testid="`+testid+`"]`)))
}

// text reads the text of the element with a data-testid.
func text(t *testing.T, ctx context.Context, testid string) string {
	t.Helper()
	return strings.TrimSpace(eval[string](t, ctx, `document.querySelector('[data-testid="`+testid+`"]').textContent`))
}

// step presses the Step button and waits for the cursor to move.
func step(t *testing.T, ctx context.Context) {
	t.Helper()
	before := eval[int](t, ctx, `lockstep.state.snap.step`)
	click(t, ctx, "step")
	waitFor(t, ctx, "the step", fmt.Sprintf(`lockstep.state.snap.step > %d || lockstep.state.snap.ended`, before))
}

// page opens url in a fresh tab of browser (its own storage, as another
// browser would have) and, when the test ends, fails it for every problem
// the page reported: console errors, exceptions, failed loads.
func page(t *testing.T, browser context.Context, url string) context.Context {
	t.Helper()
	return pageWithin(t, browser, url, 60*time.Second)
}

// pageWithin is page in a tab with its own time limit (tabWithin).
func pageWithin(t *testing.T, browser context.Context, url string, limit time.Duration) context.Context {
	t.Helper()
	ctx := tabWithin(t, browser, true, limit)
	probs := watch(t, ctx)
	t.Cleanup(func() {
		for _, p := range probs.take() {
			t.Errorf("page problem: %s", p)
		}
	})
	open(t, ctx, url)
	return ctx
}
