package server

import (
	"net/http"
	"strings"
	"testing"
)

// Finding 9 of the school review, the browser's side: the Origin check
// compared hosts only (https:// on the server's own host passed), the
// CSP allowed a WebSocket to any host (connect-src ws:), and report-open
// echoed a NUL from the request into its error.
func TestOriginSchemeCSPHostAndNoEcho(t *testing.T) {
	_, url := newTestServer(t, Limits{}, "http://localhost:9999")
	https := "https://" + strings.TrimPrefix(url, "http://")
	if _, resp, err := dial(t, url, https); err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("origin %s on a plain-HTTP server: expected 403, got %v %v", https, resp, err)
	}
	if _, resp, err := dial(t, url, "https://localhost:9999"); err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("an allowed origin's host under another scheme: expected 403, got %v %v", resp, err)
	}
	if _, _, err := dial(t, url, url); err != nil {
		t.Errorf("same origin: expected to connect, got %v", err)
	}

	resp, _ := get(t, url, http.MethodGet, "/", "")
	csp := resp.Header.Get("Content-Security-Policy")
	host := strings.TrimPrefix(url, "http://")
	if strings.Contains(csp, " ws: ") || strings.Contains(csp, " wss: ") || strings.Contains(csp, " ws:;") ||
		!strings.Contains(csp, "ws://"+host) {
		t.Errorf("connect-src should name the page's own host for WebSockets (ws://%s), not any host: %q", host, csp)
	}
	// A Host that passes the host check but carries CSP syntax in its
	// port is not written into the header.
	req, _ := http.NewRequest(http.MethodGet, url+"/", nil)
	req.Host = "127.0.0.1:80; script-src *"
	if r, err := http.DefaultClient.Do(req); err == nil {
		r.Body.Close()
		if got := r.Header.Get("Content-Security-Policy"); strings.Contains(got, "script-src *") {
			t.Errorf("the Host's text reached the CSP: %q", got)
		}
	}

	c, _, _ := dial(t, url, "")
	c.hello("")
	c.send(map[string]any{"op": "report-open", "lock": "a\x00b\u2028c", "column": "crash\x07"})
	m := c.next("error")
	if m.Code != "report-cell" || strings.ContainsAny(m.Error, "\x00\x07\u2028") ||
		strings.ContainsAny(m.Args["lock"].(string)+m.Args["column"].(string), "\x00\x07\u2028") {
		t.Errorf("report-open echoed the request's control characters: %q %v", m.Error, m.Args)
	}
}
