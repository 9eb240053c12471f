package server

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// get asks the test server for path with method, naming host as the Host.
func get(t *testing.T, base, method, path, host string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, string(body)
}

// HEAD answers like GET without a body, on every route.
func TestHeadWorks(t *testing.T) {
	_, base := newTestServer(t, Limits{})
	for _, path := range []string{"/", "/static/app.js", "/api/scenarios", "/healthz"} {
		if resp, body := get(t, base, http.MethodHead, path, ""); resp.StatusCode != http.StatusOK || body != "" {
			t.Errorf("HEAD %s: expected 200 and no body, got %d with %d bytes", path, resp.StatusCode, len(body))
		}
	}
}

// /static/ serves files, never a listing of them.
func TestStaticListsNoDirectory(t *testing.T) {
	_, base := newTestServer(t, Limits{})
	for _, path := range []string{"/static/", "/static/sub/", "/static/sub"} {
		if resp, body := get(t, base, http.MethodGet, path, ""); resp.StatusCode != http.StatusNotFound || strings.Contains(body, "app.js") {
			t.Errorf("GET %s: expected 404 and no listing, got %d: %q", path, resp.StatusCode, body)
		}
	}
	if resp, _ := get(t, base, http.MethodGet, "/static/app.js", ""); resp.StatusCode != http.StatusOK {
		t.Errorf("GET /static/app.js: expected 200, got %d", resp.StatusCode)
	}
}

// Every response, errors included, carries the security headers.
func TestSecurityHeadersOnEveryResponse(t *testing.T) {
	_, base := newTestServer(t, Limits{})
	want := map[string]string{
		"Content-Security-Policy": "frame-ancestors 'none'",
		"X-Content-Type-Options":  "nosniff",
		"X-Frame-Options":         "DENY",
		"Referrer-Policy":         "no-referrer",
	}
	for _, path := range []string{"/", "/static/app.js", "/static/", "/api/scenarios", "/healthz", "/no-such-page", "/ws"} {
		resp, _ := get(t, base, http.MethodGet, path, "")
		for h, v := range want {
			if !strings.Contains(resp.Header.Get(h), v) {
				t.Errorf("GET %s (%d): expected %s to hold %q, got %q", path, resp.StatusCode, h, v, resp.Header.Get(h))
			}
		}
	}
}

// A page whose name an attacker points at 127.0.0.1 (DNS rebinding) sends
// its own name as the Host: refused. Loopback by address or by localhost,
// and hosts named with --allow-origin, are served.
func TestHostIsChecked(t *testing.T) {
	_, base := newTestServer(t, Limits{}, "http://classroom.example:8080")
	u, _ := url.Parse(base)
	port := u.Port()
	for _, host := range []string{"evil.example:" + port, "evil.example", "localhost.evil.example:" + port, "127.0.0.1.nip.io:" + port} {
		for _, path := range []string{"/", "/ws", "/api/scenarios"} {
			if resp, _ := get(t, base, http.MethodGet, path, host); resp.StatusCode != http.StatusMisdirectedRequest {
				t.Errorf("GET %s with Host %s: expected 421, got %d", path, host, resp.StatusCode)
			}
		}
	}
	for _, host := range []string{"127.0.0.1:" + port, "localhost:" + port, "[::1]:" + port, "LOCALHOST:" + port, "classroom.example:8080"} {
		if resp, _ := get(t, base, http.MethodGet, "/", host); resp.StatusCode != http.StatusOK {
			t.Errorf("GET / with Host %s: expected 200, got %d", host, resp.StatusCode)
		}
	}
}
