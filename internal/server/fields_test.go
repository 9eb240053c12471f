package server

import (
	"testing"
	"time"
)

// Field names are the protocol's, exactly. encoding/json alone would run
// {"Op":"step"} as a step and drop a key it does not know (a misspelt
// "forr" would pause for the default); each such message gets an error
// reply naming the key and its place, and nothing of it is applied: the
// session steps on afterwards from where it was.
func TestFieldNamesAreMatchedExactly(t *testing.T) {
	c := openSession(t, Limits{})
	c.send(map[string]any{"op": "load", "scenario": "no-lock-oversell"})
	c.next("state")
	for _, tc := range []struct {
		msg         map[string]any
		code, field string
		want        string // field-case: the name to write
	}{
		{map[string]any{"Op": "step"}, "field-case", "Op", "op"},
		{map[string]any{"op": "step", "N": 2}, "field-case", "N", "n"},
		{map[string]any{"op": "step", "nn": 2}, "unknown-field", "nn", ""},
		{map[string]any{"op": "inject", "fault": map[string]any{"Do": "pause", "client": "A", "for": "1s"}}, "field-case", "fault.Do", "fault.do"},
		{map[string]any{"op": "inject", "fault": map[string]any{"do": "pause", "client": "A", "forr": "1s"}}, "unknown-field", "fault.forr", ""},
		{map[string]any{"op": "inject", "fault": map[string]any{"do": "pause", "client": "A", "At": "1s"}}, "field-case", "fault.At", "fault.at"},
		{map[string]any{"op": "load", "scenario": "no-lock-oversell", "actions": []any{map[string]any{"step": 0, "do": "step"}, map[string]any{"Step": 1, "do": "step"}}}, "field-case", "actions[1].Step", "actions[1].step"},
		// clients is a YAML shorthand (runs of hand steps), not JSON's.
		{map[string]any{"op": "load", "scenario": "no-lock-oversell", "actions": []any{map[string]any{"step": 0, "do": "step", "clients": "A B"}}}, "unknown-field", "actions[0].clients", ""},
		{map[string]any{"op": "class-ask", "ask": map[string]any{"Kind": "next"}}, "field-case", "ask.Kind", "ask.kind"},
		// Fields of the embedded request parts are the request's own.
		{map[string]any{"op": "class-join", "Code": "ABCD"}, "field-case", "Code", "code"},
		{map[string]any{"op": "play", "Beats": true}, "field-case", "Beats", "beats"},
	} {
		c.send(tc.msg)
		e := c.next("error")
		if e.Re != c.id || e.Code != tc.code || e.Args["field"] != tc.field {
			t.Errorf("%v: expected error %s on %q answering %d, got %s %v answering %d (%s)", tc.msg, tc.code, tc.field, c.id, e.Code, e.Args, e.Re, e.Error)
			continue
		}
		if tc.want != "" && e.Args["want"] != tc.want {
			t.Errorf("%v: expected the hint %q, got %v", tc.msg, tc.want, e.Args["want"])
		}
	}
	// The exact names run, and so does a raw value the op reads itself.
	c.send(map[string]any{"op": "step"})
	if s := c.next("state"); s.Snap.Step != 1 {
		t.Errorf("after the refused messages: expected the first step to be step 1, got %d", s.Snap.Step)
	}
	c.send(map[string]any{"op": "inject", "fault": map[string]any{"do": "pause", "client": "A", "for": "1s"}})
	c.next("state")
	if n := len(c.actions); n == 0 || c.actions[n-1].Do != "pause" || c.actions[n-1].For.D() != time.Second {
		t.Errorf("an exact fault: expected a recorded pause of 1s last, got %+v", c.actions)
	}
}

// The check walks every key of a message; a deep or wide one that is no
// request at all is still answered, never a crash.
func TestExactFieldsOnOddShapes(t *testing.T) {
	for _, msg := range []string{
		`{"op":"step","actions":{"Step":1}}`, // a type mismatch: json.Unmarshal's to say
		`{"op":"step","fault":[1,2,3]}`,
		`{"op":"class-view","view":{"Anything":{"Goes":1}}}`, // view is read by class-view
		`[1,2]`,
		`"op"`,
		`{"op":"load","actions":[` + deepArray(5000) + `]}`,
	} {
		if err := exactFields([]byte(msg)); err != nil {
			t.Errorf("%s: expected no field error (the decoder or the op judges it), got %v", short(msg), err)
		}
	}
}

func deepArray(n int) string {
	b := make([]byte, 0, 2*n)
	for i := 0; i < n; i++ {
		b = append(b, '[')
	}
	for i := 0; i < n; i++ {
		b = append(b, ']')
	}
	return string(b)
}
