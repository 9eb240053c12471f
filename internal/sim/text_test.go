package sim

import (
	"encoding/json"
	"strings"
	"testing"
)

// A key, a value, an argument, a reply or a note may hold any bytes a
// scenario gives it. Its canonical text line must stay one line, and say
// what the bytes are; the JSON form must keep them exactly.
func TestEventStringStaysOneLine(t *testing.T) {
	forged := "lock\n#99 9s verdict safe"
	e := &Event{Seq: 7, T: 1e9, Kind: KindExec, Client: "A", Node: "redis",
		Cmd:   []string{"SET", forged, "v\r\x1b[2K", "x\u2028y"},
		Reply: "(error) bad\nline",
		Keys: []KeyState{
			{Key: forged, Type: "string", Value: "a\nb", Owner: "A", TTL: -1},
			{Key: "h\t1", Type: "hash", Value: "f=1\n2", TTL: -1},
			{Key: "gone\u2029", TTL: -2},
		},
		Note: "note\u0085with a C1 next line and \x7f"}
	line := e.String()
	for _, r := range line {
		if breaksLine(r) {
			t.Fatalf("the line holds %U raw: %q", r, line)
		}
	}
	for _, want := range []string{
		`SET "lock\n#99 9s verdict safe" "v\r\x1b[2K" "x\u2028y"`,
		`-> (error) bad\nline`,
		`| "lock\n#99 9s verdict safe"="a\nb"(A)`,
		`"h\t1"={f=1\n2}`,
		`"gone\u2029"=(gone)`,
		`-- note\u0085with a C1 next line and \x7f`,
	} {
		if !strings.Contains(line, want) {
			t.Errorf("the line lacks %s\ngot: %s", want, line)
		}
	}
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	var back Event
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Cmd[1] != forged || back.Keys[0].Key != forged || back.Note != e.Note {
		t.Errorf("JSON did not keep the exact bytes: %+v", back)
	}
}

// Plain text is left exactly as it is: the built-in lessons' logs do not
// change.
func TestEscapeLeavesPlainTextAlone(t *testing.T) {
	for _, s := range []string{"", "lock", `a "quoted" \n word`, "中文 , A's lock"} {
		if got := Escape(s); got != s {
			t.Errorf("Escape(%q) = %q, want it unchanged", s, got)
		}
	}
	if got, want := Escape("a\xffb"), `a\xffb`; got != want {
		t.Errorf("Escape of an invalid byte = %q, want %q", got, want)
	}
}
