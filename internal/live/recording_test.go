package live

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/lockstep/lockstep/internal/check"
	"github.com/lockstep/lockstep/internal/sim"
)

// deflated is text as a link carries a recording.
func deflated(t *testing.T, text string) string {
	t.Helper()
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestCompression)
	if _, err := w.Write([]byte(text)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return base64.RawURLEncoding.EncodeToString(b.Bytes())
}

// Decode refuses what is not a recording within its limits, saying why:
// one that inflates past 1 MiB (a few KiB in a link), of another version,
// with no events; and Replay refuses events of no kind a run logs and
// stamps that go back.
func TestARecordingOutsideItsLimitsIsRefused(t *testing.T) {
	for _, tc := range []struct{ what, tok, says string }{
		{"a bomb", deflated(t, `{"v":1,"lesson":"`+strings.Repeat("x", 2<<20)+`"}`), "inflates past 1024 KiB"},
		{"another version", deflated(t, `{"v":2,"lesson":"l","events":[{"seq":1,"kind":"start"}]}`), "version 2"},
		{"no events", deflated(t, `{"v":1,"lesson":"l","events":[]}`), "0 events"},
		{"not base64url", "a+b/", "not base64url"},
	} {
		if len(tc.tok) > MaxLink {
			t.Fatalf("%s: %d bytes, over the link's limit before its test", tc.what, len(tc.tok))
		}
		if _, err := Decode(tc.tok); err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: want an error saying %q, got %v", tc.what, tc.says, err)
		}
	}
	checker := func() *check.Checker { return check.New(check.Options{Locks: []string{"job"}}) }
	for _, tc := range []struct {
		what string
		evs  []sim.Event
		says string
	}{
		{"an unknown kind", []sim.Event{{Seq: 1, Kind: "teleport"}}, "no kind a run logs"},
		{"stamps that go back", []sim.Event{{Seq: 1, Kind: sim.KindStart, Client: "A", T: 5}, {Seq: 2, Kind: sim.KindStart, Client: "B", T: 4}}, "stamped before"},
		{"a verdict its events do not give", []sim.Event{{Seq: 1, Kind: sim.KindStart, Client: "A"}, {Seq: 2, Kind: sim.KindVerdict, Name: "deadlock"}}, "verdicts are not those"},
	} {
		if _, err := Replay(&Recording{V: 1, Events: tc.evs}, checker()); err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: want an error saying %q, got %v", tc.what, tc.says, err)
		}
	}
}
