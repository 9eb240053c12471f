package server

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/lockstep/lockstep/internal/bundle"
)

// The page's static files are served under a version, the hash of them
// all: /static/v-3f9c0e1a2b4d/app.js. A version's files never change, so a
// browser keeps them for a year without asking again; the page itself
// (index.html), which names the version, is asked for again on every load
// and answered 304 while it has not changed. One version for the whole set
// rather than one hash per file: the ES modules import each other by
// relative path (./store.js), which then stays inside the version, with no
// build step to rewrite them. Text files are gzipped once, when the server
// starts, and sent compressed to a browser that accepts gzip (every one
// does). Brotli would save a seventh more (88 KB of gzip, 76 KB of brotli
// for the page's files; docs/performance.md), but Go has no brotli encoder
// of its own and none is among the program's dependencies.

// An asset is one file as served: its body, gzipped body (nil when gzip
// does not make it smaller), type and ETag.
type asset struct {
	body, gz []byte
	ctype    string
	etag     string
}

// assets is a set of files (the page's static files, the lock code) ready
// to serve.
type assets struct {
	version string // "v-" and 12 hex digits of the SHA-256 of every name and body
	files   map[string]*asset
}

// pageScript is the page's script as served: app.js and every module it
// imports, joined into one (internal/bundle). The files stay served as
// they are (in Dev the page loads app.js itself, from disk).
const pageScript = "page.js"

// pageStyles are the page's style sheets, in the order they apply; served
// as one, pageStyle, their text one after another (in Dev, each itself).
var pageStyles = []string{"app.css", "teach.css", "compare.css", "report.css", "class.css", "presenter.css"}

const pageStyle = "page.css"

// loadAssets reads every file of fsys and compresses the text ones.
func loadAssets(fsys fs.FS) (*assets, error) {
	a := &assets{files: map[string]*asset{}}
	var names []string
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		names = append(names, name)
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	all := sha256.New()
	for _, name := range names {
		body, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(body)
		all.Write([]byte(name + "\x00"))
		all.Write(sum[:])
		f := &asset{body: body, ctype: contentType(name), etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
		if compressible(f.ctype) {
			f.gz = gzipped(body)
		}
		a.files[name] = f
	}
	if a.files["app.js"] != nil {
		if a.files[pageScript] != nil || a.files[pageStyle] != nil {
			return nil, fmt.Errorf("static files: %s and %s are the names of the page's joined files: rename the file", pageScript, pageStyle)
		}
		body, err := bundle.Join(fsys, "app.js")
		if err != nil {
			return nil, fmt.Errorf("static files: the page's modules cannot be joined: %w", err)
		}
		a.add(pageScript, body)
	}
	if a.files[pageStyles[0]] != nil {
		var css []byte
		for _, name := range pageStyles {
			if f := a.files[name]; f != nil { // a test's few files may lack some
				css = append(append(css, "/* "+name+" */\n"...), f.body...)
			}
		}
		a.add(pageStyle, css)
	}
	a.version = "v-" + hex.EncodeToString(all.Sum(nil))[:12]
	return a, nil
}

// add serves body as a file made here (the page's joined script and style
// sheet), compressed as the others.
func (a *assets) add(name string, body []byte) {
	sum := sha256.Sum256(body)
	a.files[name] = &asset{body: body, gz: gzipped(body), ctype: contentType(name), etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
}

// contentType is a file's type by its extension (text in UTF-8).
func contentType(name string) string {
	switch path.Ext(name) {
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".html":
		return "text/html; charset=utf-8"
	case ".go", ".lua", ".txt", ".md":
		return "text/plain; charset=utf-8"
	}
	if t := mime.TypeByExtension(path.Ext(name)); t != "" {
		return t
	}
	return "application/octet-stream"
}

func compressible(ctype string) bool {
	return strings.HasPrefix(ctype, "text/") || strings.Contains(ctype, "json") || strings.Contains(ctype, "svg") || strings.Contains(ctype, "javascript")
}

// gzipped is body gzipped at the best compression, or nil when that does
// not make it smaller.
func gzipped(body []byte) []byte {
	var b bytes.Buffer
	w, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	_, _ = w.Write(body)
	_ = w.Close()
	if b.Len() >= len(body) {
		return nil
	}
	return b.Bytes()
}

// acceptsGzip reports whether a request's Accept-Encoding takes gzip (and
// does not refuse it with q=0).
func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(name), "gzip") && strings.TrimSpace(name) != "*" {
			continue
		}
		q := strings.ReplaceAll(params, " ", "")
		return !(q == "q=0" || q == "q=0.0" || q == "q=0.00" || q == "q=0.000")
	}
	return false
}

// serve answers with a file: cache (the Cache-Control to send), its ETag
// (304 when the browser holds it), and its gzipped body when the browser
// takes gzip.
func (f *asset) serve(w http.ResponseWriter, r *http.Request, cache string) {
	h := w.Header()
	h.Set("Content-Type", f.ctype)
	h.Set("Cache-Control", cache)
	h.Set("ETag", f.etag)
	if f.gz != nil {
		h.Set("Vary", "Accept-Encoding")
	}
	if match := r.Header.Get("If-None-Match"); match != "" && etagMatches(match, f.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body := f.body
	if f.gz != nil && acceptsGzip(r) {
		h.Set("Content-Encoding", "gzip")
		body = f.gz
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	_, _ = w.Write(body)
}

func etagMatches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(t), "W/"))
		if t == etag || t == "*" {
			return true
		}
	}
	return false
}

// immutable is the Cache-Control of a versioned file.
const immutable = "public, max-age=31536000, immutable"
