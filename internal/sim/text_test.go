package sim

import (
	"testing"
)

// Plain text is left exactly as it is: the built-in lessons' logs do not
// change.
func TestEscapeLeavesPlainTextAlone(t *testing.T) {
	for _, s := range []string{"", "lock", `a "quoted" word`, "中文 , A's lock"} {
		if got := Escape(s); got != s {
			t.Errorf("Escape(%q) = %q, want it unchanged", s, got)
		}
	}
	if got, want := Escape("a\xffb"), `a\xffb`; got != want {
		t.Errorf("Escape of an invalid byte = %q, want %q", got, want)
	}
}
