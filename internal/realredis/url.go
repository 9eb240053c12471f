package realredis

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
)

// Target is one real server, from a redis:// URL.
type Target struct {
	URL      string // as given, with its user information as xxxxx: the form messages name
	Addr     string // host:port
	Username string
	Password string
	DB       int
}

// ErrRemote refuses a server outside loopback without AllowRemote.
var ErrRemote = errors.New("realredis: address outside loopback (use --allow-remote)")

// ParseURLs parses a comma-separated list of redis://[user:pass@]host:port[/db]
// URLs, one per node. Hosts must be loopback addresses or "localhost"
// unless allowRemote.
func ParseURLs(list string, allowRemote bool) ([]Target, error) {
	var out []Target
	for _, raw := range strings.Split(list, ",") {
		raw = strings.TrimSpace(raw)
		if raw == "" {
			continue
		}
		t, err := parseURL(raw, allowRemote)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("realredis: no server URL in %q", list)
	}
	return out, nil
}

func parseURL(raw string, allowRemote bool) (Target, error) {
	shown := redact(raw) // errors name the URL without its password
	u, err := url.Parse(raw)
	if err != nil {
		// url.Parse's error quotes the URL, or a part of it that may be
		// part of a password: it is said only of a URL without one.
		why := "not a URL"
		var ue *url.Error
		if errors.As(err, &ue) && shown == raw {
			why = ue.Err.Error()
		}
		return Target{}, fmt.Errorf("realredis: bad URL %q: %s (want redis://[USER:PASSWORD@]HOST:PORT[/DB])", shown, why)
	}
	if u.Scheme != "redis" {
		return Target{}, fmt.Errorf("realredis: bad URL %q: scheme must be redis:// (TLS is not supported)", shown)
	}
	host, port := u.Hostname(), u.Port()
	if host == "" || port == "" {
		return Target{}, fmt.Errorf("realredis: bad URL %q: want redis://HOST:PORT", shown)
	}
	if p, err := strconv.Atoi(port); err != nil || p <= 0 || p > 65535 {
		return Target{}, fmt.Errorf("realredis: bad URL %q: bad port", shown)
	}
	if !allowRemote && !loopback(host) {
		return Target{}, fmt.Errorf("%w: %s", ErrRemote, shown)
	}
	t := Target{Addr: net.JoinHostPort(host, port)}
	if u.User != nil {
		t.Username = u.User.Username()
		t.Password, _ = u.User.Password()
		if t.Password == "" && t.Username != "" {
			// redis://:pass@ or redis://pass@ (the old form): the password alone
			t.Password, t.Username = t.Username, ""
		}
	}
	if db := strings.Trim(u.Path, "/"); db != "" {
		n, err := strconv.Atoi(db)
		if err != nil || n < 0 {
			return Target{}, fmt.Errorf("realredis: bad URL %q: database must be a number", shown)
		}
		t.DB = n
	}
	// The URL messages name: its user information, the user's name as much
	// as the password, is xxxxx (docs/real-redis.md).
	hadUser := u.User != nil
	u.User = nil
	t.URL = u.String()
	if hadUser {
		t.URL = "redis://xxxxx@" + strings.TrimPrefix(t.URL, "redis://")
	}
	return t, nil
}

// redact writes a URL as given with its user information (a password, or
// in the old form redis://PASSWORD@host the password alone) replaced by
// xxxxx, whether or not the URL parses: it is the only form of a URL that
// goes into a message.
func redact(raw string) string {
	rest, scheme := raw, ""
	if i := strings.Index(raw, "://"); i >= 0 {
		scheme, rest = raw[:i+3], raw[i+3:]
	}
	at := strings.LastIndex(rest, "@") // a password may hold any character
	if at < 0 {
		return raw
	}
	return scheme + "xxxxx" + rest[at:]
}

// loopback reports whether host names this machine.
func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
