package server

import (
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// cspFor is the page's Content-Security-Policy for a request to host:
// everything from this server only, scripts from its files and the one
// written into the page (script is its hash, "sha256-…", or empty),
// WebSockets to its own host only (ws: and wss:, for browsers whose 'self'
// leaves them out), and no framing by any page (clickjacking). A host that
// is not a plain host[:port] (it passed allowedHost, yet carries other
// text) names no WebSocket host.
func cspFor(host, script string) string {
	connect := "'self'"
	if plainHost(host) {
		connect += " ws://" + host + " wss://" + host
	}
	scripts := "'self'"
	if script != "" {
		scripts += " '" + script + "'"
	}
	return "default-src 'self'; script-src " + scripts + "; img-src 'self' data: blob:; style-src 'self'; connect-src " + connect + "; " +
		"frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
}

// scriptHash is a script's hash as a Content-Security-Policy names it.
func scriptHash(body []byte) string {
	sum := sha256.Sum256(body)
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}

// plainHost reports whether host is letters, digits, dots, dashes and
// colons, in brackets for IPv6, with a numeric port if any.
func plainHost(host string) bool {
	if host == "" || len(host) > 260 {
		return false
	}
	if h, port, err := net.SplitHostPort(host); err == nil {
		if _, err := strconv.ParseUint(port, 10, 16); err != nil {
			return false
		}
		host = h
	}
	return strings.Trim(host, "[]") != "" && !strings.ContainsFunc(strings.Trim(host, "[]"), func(r rune) bool {
		return !(r == '.' || r == '-' || r == ':' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	})
}

// guard sets the security headers on every response and refuses a request
// whose Host the server does not answer to (see allowedHost).
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", cspFor(r.Host, s.inline))
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		if !s.allowedHost(r.Host) {
			http.Error(w, "Lockstep does not answer to host "+short(r.Host)+
				": open it by its address (http://127.0.0.1:PORT or http://localhost:PORT), or start it with --allow-origin http://HOST:PORT",
				http.StatusMisdirectedRequest)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// allowedHost reports whether the server answers to a request's Host. A
// page on a name that an attacker's DNS points at 127.0.0.1 (DNS
// rebinding) must not reach the app, so a Host must be an IP address
// (which no DNS answer can rebind), localhost, the host of the listening
// address, or the host of an --allow-origin origin ("*" allows any).
func (s *Server) allowedHost(host string) bool {
	name := host
	if h, _, err := net.SplitHostPort(host); err == nil {
		name = h
	}
	name = strings.TrimSuffix(strings.Trim(name, "[]"), ".")
	if name == "" {
		return false
	}
	if net.ParseIP(name) != nil || strings.EqualFold(name, "localhost") {
		return true
	}
	if h, _, err := net.SplitHostPort(s.opts.Addr); err == nil && strings.EqualFold(h, name) {
		return true
	}
	for _, a := range s.opts.AllowOrigins {
		if a == "*" {
			return true
		}
		if u, err := url.Parse(a); err == nil && u.Host != "" && strings.EqualFold(u.Hostname(), name) {
			return true
		}
		if strings.EqualFold(a, name) || strings.EqualFold(a, host) {
			return true
		}
	}
	return false
}

// filesOnly serves the files of an fs.FS and not its directories: a
// directory opens as not found, so /static/ lists nothing.
type filesOnly struct{ fsys fs.FS }

// Open opens name if it is a file.
func (f filesOnly) Open(name string) (fs.File, error) {
	file, err := f.fsys.Open(name)
	if err != nil {
		return nil, err
	}
	st, err := file.Stat()
	if err != nil || st.IsDir() {
		_ = file.Close()
		return nil, &fs.PathError{Op: "open", Path: name, Err: errors.Join(fs.ErrNotExist, errors.New("a directory"))}
	}
	return file, nil
}
