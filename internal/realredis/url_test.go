package realredis

import (
	"errors"
	"strings"
	"testing"
)

// A password never appears in a message: every refusal of a --redis URL
// names the URL with its user information as xxxxx, whether the URL is
// outside loopback, badly formed, or does not parse at all, and the URL a
// server is known by afterwards has no password.
func TestThePasswordIsNeverPrinted(t *testing.T) {
	cases := []struct {
		url, secret string
		remote      bool // refused as outside loopback
	}{
		{"redis://lockstep:s3cret@db.example.com:6379", "s3cret", true},
		{"redis://s3cret@10.0.0.7:6379", "s3cret", true}, // the old form: the password alone
		{"redis://:s3cret@db.example.com:6379/2", "s3cret", true},
		{"rediss://lockstep:s3cret@localhost:6379", "s3cret", false},
		{"redis://lockstep:s3cret@localhost:99999", "s3cret", false},
		{"redis://lockstep:s3cret@localhost:6379/x", "s3cret", false},
		{"redis://lockstep:s3cret@[::1:6379", "s3cret", false},       // does not parse
		{"redis://lockstep:s3/cr?et@localhost:6379", "cr?et", false}, // a password with / and ?
		{"redis://lockstep:s3cret@", "s3cret", false},
	}
	for _, c := range cases {
		_, err := ParseURLs("redis://127.0.0.1:6379,"+c.url, false)
		if err == nil {
			t.Errorf("%s: expected a refusal", c.url)
			continue
		}
		t.Logf("%s: %v", c.url, err)
		if strings.Contains(err.Error(), c.secret) || strings.Contains(err.Error(), "s3") {
			t.Errorf("%s: the refusal prints the password: %v", c.url, err)
		}
		if !strings.Contains(err.Error(), "xxxxx@") {
			t.Errorf("%s: expected the refusal to name the URL with xxxxx for its user information: %v", c.url, err)
		}
		if got := errors.Is(err, ErrRemote); got != c.remote {
			t.Errorf("%s: refused as outside loopback = %v, want %v: %v", c.url, got, c.remote, err)
		}
	}
	// Without a password, a URL that does not parse says why.
	if _, err := ParseURLs("redis://[::1:6379", false); err == nil || !strings.Contains(err.Error(), "missing ']'") {
		t.Errorf("a URL without a password that does not parse: expected the reason, got %v", err)
	}
	ts, err := ParseURLs("redis://lockstep:s3cret@localhost:6379", false)
	if err != nil {
		t.Fatal(err)
	}
	if ts[0].Password != "s3cret" || strings.Contains(ts[0].URL, "s3cret") {
		t.Errorf("a server's URL: %q (password %q); want the password kept apart", ts[0].URL, ts[0].Password)
	}
	// The school review: a dial error named the user (redis://lockstep@...)
	// where the docs say xxxxx; every message names a URL by Target.URL.
	if ts[0].Username != "lockstep" || ts[0].URL != "redis://xxxxx@localhost:6379" {
		t.Errorf("a server's URL with a user: %q (user %q); want redis://xxxxx@localhost:6379, the user kept apart", ts[0].URL, ts[0].Username)
	}
	_, err = Open(Target{URL: ts[0].URL, Addr: "127.0.0.1:1", Username: "lockstep", Password: "s3cret"}, "lockstep:test:")
	if err == nil || strings.Contains(err.Error(), "lockstep@") || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("a dial error: %v; want the URL with xxxxx for its user information", err)
	}
}
