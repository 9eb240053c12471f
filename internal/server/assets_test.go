package server

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/web"
)

// appServer runs the server on the real page (web/).
func appServer(t *testing.T) string {
	t.Helper()
	f, err := scenario.ParseBuiltin("scenarios.yaml", lockstep.Scenarios)
	if err != nil {
		t.Fatal(err)
	}
	static, templates := web.Embedded()
	app, err := New(Options{Catalog: f, Static: static, Templates: templates})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(app.Handler())
	t.Cleanup(func() { app.Close(); ts.Close() })
	return ts.URL
}

// fetch gets a path with the given request headers, without Go's own
// transparent gzip, and returns the response and its raw body.
func fetch(t *testing.T, base, path string, hdr ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	c := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	r, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not gzip: %v", err)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// The page names its static files under one version; each is served
// gzipped to a browser that takes gzip (the same bytes once unzipped as
// the file itself), plainly to one that does not, and kept for a year;
// the page is revalidated (304 while unchanged); another version is gone.
func TestStaticFilesAreVersionedCompressedAndCached(t *testing.T) {
	base := appServer(t)
	resp, page := fetch(t, base, "/", "Accept-Encoding", "gzip, deflate, br")
	if resp.Header.Get("Content-Encoding") != "gzip" || resp.Header.Get("Cache-Control") != "no-cache" || resp.Header.Get("ETag") == "" {
		t.Fatalf("the page: want gzip, no-cache and an ETag, got %q, %q, %q", resp.Header.Get("Content-Encoding"), resp.Header.Get("Cache-Control"), resp.Header.Get("ETag"))
	}
	html := string(gunzip(t, page))
	if again, _ := fetch(t, base, "/", "If-None-Match", resp.Header.Get("ETag")); again.StatusCode != http.StatusNotModified {
		t.Errorf("the page again with its ETag: want 304, got %d", again.StatusCode)
	}
	m := regexp.MustCompile(`<script type="module" src="/static/(v-[0-9a-f]{12})/page\.js">`).FindStringSubmatch(html)
	if m == nil {
		t.Fatalf("the page does not load a versioned page.js, its modules joined:\n%s", html[:min(len(html), 800)])
	}
	version := m[1]
	static, _ := web.Embedded()
	mods, _ := fs.Glob(static, "*.js")
	// One script for the page: no module of its own is asked for, and the
	// joined one holds app.js and every module it imports, each once.
	if n := strings.Count(html, "<script type=\"module\""); n != 1 || strings.Contains(html, "modulepreload") {
		t.Errorf("the page loads %d module scripts (preloads: %v): want the joined one only", n, strings.Contains(html, "modulepreload"))
	}
	// early.js is written into the page, as it is, and the page's
	// Content-Security-Policy lets that script run and no other inline one.
	early, _ := fs.ReadFile(static, "early.js")
	if !strings.Contains(html, ">"+string(early)+"</script>") || strings.Contains(html, "early.js\"") {
		t.Error("the page does not hold early.js as it is, inline (or still asks for it)")
	}
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self' '"+scriptHash(early)+"';") || strings.Contains(csp, "unsafe-inline") {
		t.Errorf("the page's CSP does not name early.js's hash alone: %q", csp)
	}
	// One style sheet, the page's six in their order.
	if n := strings.Count(html, `rel="stylesheet"`); n != 1 || !strings.Contains(html, `<link rel="stylesheet" href="/static/`+version+`/page.css">`) {
		t.Errorf("the page links %d style sheets: want page.css alone", n)
	}
	_, css := fetch(t, base, "/static/"+version+"/page.css")
	var want []byte
	for _, name := range pageStyles {
		body, err := fs.ReadFile(static, name)
		if err != nil {
			t.Fatal(err)
		}
		want = append(append(want, "/* "+name+" */\n"...), body...)
	}
	if !bytes.Equal(css, want) {
		t.Errorf("page.css is not the page's style sheets one after another (%d bytes, want %d)", len(css), len(want))
	}
	resp, joined := fetch(t, base, "/static/"+version+"/page.js", "Accept-Encoding", "gzip")
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Encoding") != "gzip" || !strings.Contains(resp.Header.Get("Cache-Control"), "max-age=31536000") {
		t.Fatalf("page.js: want 200, gzip and a year's cache, got %d %q %q", resp.StatusCode, resp.Header.Get("Content-Encoding"), resp.Header.Get("Cache-Control"))
	}
	inPage := map[string]int{}
	for _, g := range regexp.MustCompile(`(?m)^// \./([a-z0-9]+\.js)$`).FindAllStringSubmatch(string(gunzip(t, joined)), -1) {
		inPage[g[1]]++
	}
	if inPage["app.js"] != 1 || inPage["early.js"] != 0 || inPage["remote.js"] != 0 || len(inPage) < 30 {
		t.Errorf("page.js joins %d modules (app.js %d, early.js %d, remote.js %d): want app.js and its imports, each once",
			len(inPage), inPage["app.js"], inPage["early.js"], inPage["remote.js"])
	}
	for name, n := range inPage {
		body, err := fs.ReadFile(static, name)
		if err != nil || n != 1 {
			t.Errorf("page.js joins %s %d times (a static file: %v)", name, n, err == nil)
			continue
		}
		for _, line := range strings.Split(string(body), "\n") {
			if i := strings.Index(line, " from './"); i >= 0 && (strings.HasPrefix(line, "import") || strings.HasPrefix(line, "export")) {
				dep, _, _ := strings.Cut(line[i+len(" from './"):], "'")
				if inPage[dep] != 1 {
					t.Errorf("%s imports %s, which page.js does not hold", name, dep)
				}
			}
		}
	}
	var plain, zipped int
	for _, name := range append(mods, "app.css", "presenter.css") {
		want, err := fs.ReadFile(static, name)
		if err != nil {
			t.Fatal(err)
		}
		resp, body := fetch(t, base, "/static/"+version+"/"+name, "Accept-Encoding", "gzip")
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Encoding") != "gzip" || !strings.Contains(resp.Header.Get("Cache-Control"), "max-age=31536000") || !strings.Contains(resp.Header.Get("Vary"), "Accept-Encoding") {
			t.Errorf("%s: want 200, gzip, a year's cache and Vary, got %d %q %q %q", name, resp.StatusCode, resp.Header.Get("Content-Encoding"), resp.Header.Get("Cache-Control"), resp.Header.Get("Vary"))
			continue
		}
		if got := gunzip(t, body); !bytes.Equal(got, want) {
			t.Errorf("%s unzipped differs from the file", name)
		}
		if _, raw := fetch(t, base, "/static/"+version+"/"+name); !bytes.Equal(raw, want) {
			t.Errorf("%s without gzip differs from the file", name)
		}
		plain, zipped = plain+len(want), zipped+len(body)
	}
	if zipped*2 > plain {
		t.Errorf("gzip saves too little: %d bytes of text sent as %d", plain, zipped)
	}
	t.Logf("static text: %d bytes, %d gzipped", plain, zipped)
	if resp, _ := fetch(t, base, "/static/v-000000000000/app.js"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("another version's file: want 404, got %d", resp.StatusCode)
	}
	if resp, _ := fetch(t, base, "/static/app.js"); resp.StatusCode != http.StatusOK || resp.Header.Get("Cache-Control") != "no-cache" {
		t.Errorf("the bare name: want 200 and no-cache, got %d %q", resp.StatusCode, resp.Header.Get("Cache-Control"))
	}
	if resp, body := fetch(t, base, "/source/setnx.go", "Accept-Encoding", "gzip"); resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Encoding") != "gzip" || !strings.Contains(string(gunzip(t, body)), "package lock") {
		t.Errorf("the lock code: want it gzipped, got %d %q", resp.StatusCode, resp.Header.Get("Content-Encoding"))
	}
}

// The version is the files': the same files give the same version, a
// changed byte another.
func TestVersionFollowsTheFiles(t *testing.T) {
	v := func(files fstest.MapFS) string {
		a, err := loadAssets(files)
		if err != nil {
			t.Fatal(err)
		}
		return a.version
	}
	one := fstest.MapFS{"app.js": {Data: []byte("export const a = 1;")}, "app.css": {Data: []byte("p{}")}}
	same := fstest.MapFS{"app.css": {Data: []byte("p{}")}, "app.js": {Data: []byte("export const a = 1;")}}
	other := fstest.MapFS{"app.js": {Data: []byte("export const a = 2;")}, "app.css": {Data: []byte("p{}")}}
	renamed := fstest.MapFS{"main.js": {Data: []byte("export const a = 1;")}, "app.css": {Data: []byte("p{}")}}
	if v(one) != v(same) {
		t.Error("the same files gave two versions")
	}
	if v(one) == v(other) || v(one) == v(renamed) {
		t.Error("a changed or renamed file kept the version")
	}
}

// Accept-Encoding is read as browsers write it.
func TestAcceptsGzip(t *testing.T) {
	for h, want := range map[string]bool{
		"gzip, deflate, br, zstd": true, "br;q=1.0, gzip;q=0.8": true, "*": true, "GZIP": true,
		"": false, "identity": false, "br": false, "gzip;q=0": false, "gzip; q=0.000": false, "deflate, gzip;q=0": false,
	} {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.Header.Set("Accept-Encoding", h)
		if got := acceptsGzip(r); got != want {
			t.Errorf("Accept-Encoding %q: got %v, want %v", h, got, want)
		}
	}
}

// What the page says before its scripts run comes from the catalogue: the
// language switch names the other language, and a browser without
// JavaScript reads every language's sentence.
func TestThePageSaysItsFirstWordsFromTheCatalogue(t *testing.T) {
	_, page := fetch(t, appServer(t), "/")
	other, _ := fact.Said(fact.Languages[1], "page.langName")
	var no []string
	for _, lang := range fact.Languages {
		s, _ := fact.Said(lang, "page.noScript")
		no = append(no, s)
	}
	for _, want := range []string{`data-testid="lang" lang="zh">` + other + `</button>`, "<noscript>" + strings.Join(no, " ") + "</noscript>"} {
		if other == "" || no[0] == "" || !strings.Contains(string(page), want) {
			t.Errorf("the page does not say %q", want)
		}
	}
}
