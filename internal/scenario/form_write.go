package scenario

import (
	"strings"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/sim"
	"github.com/lockstep/lockstep/internal/userlock"
)

// formWriter writes a form's scenario file a line at a time, keeping
// which field of the form and which of its lines each line of the file
// comes from, so that a problem Parse finds is said at the form's field.
type formWriter struct {
	lines []string
	from  []formOrigin
}

// formOrigin is where a line of the file comes from: a field and its
// line (1-based; 0: the field as a whole), and the columns the file
// indents it by.
type formOrigin struct {
	field  string
	line   int
	indent int
}

func (w *formWriter) line(s string) { w.add(s, formOrigin{}) }

func (w *formWriter) add(s string, o formOrigin) {
	w.lines = append(w.lines, s)
	w.from = append(w.from, o)
}

// String is the file.
func (w *formWriter) String() string { return strings.Join(w.lines, "\n") + "\n" }

// step writes a pasted acquire or release: a Lua script (its KEYS[1]
// the key, its ARGV $token and args) or commands, one a line, each
// "WORDS [=> REPLY]".
func (w *formWriter) step(field, text, ok string, args []string) {
	text = strings.ReplaceAll(strings.TrimRight(text, " \t\r\n"), "\r\n", "\n")
	w.add("        "+field+":", formOrigin{field: field})
	if !isCommands(text) {
		w.add("          lua: |", formOrigin{field: field})
		for i, l := range strings.Split(text, "\n") {
			w.add("            "+l, formOrigin{field: field, line: i + 1, indent: 12})
		}
		w.add("          keys: [$key]", formOrigin{field: field})
		w.add("          args: ["+strings.Join(args, ", ")+"]", formOrigin{field: field})
		if ok = strings.TrimSpace(ok); ok != "" {
			w.add("          ok: "+quote(ok), formOrigin{field: field + "_ok"})
		}
		return
	}
	w.add("          commands:", formOrigin{field: field})
	for i, l := range strings.Split(text, "\n") {
		words, reply, has := strings.Cut(l, "=>")
		f := strings.Fields(words)
		if len(f) == 0 {
			continue
		}
		run := make([]string, len(f))
		for j, x := range f {
			run[j] = quote(x)
		}
		c := "            - {run: [" + strings.Join(run, ", ") + "]"
		if has {
			c += ", ok: " + quote(strings.TrimSpace(reply))
		}
		w.add(c+"}", formOrigin{field: field, line: i + 1})
	}
}

// isCommands tells pasted commands from a Lua script: the first word of
// its first line that is not blank is a command the engine models.
func isCommands(text string) bool {
	for _, l := range strings.Split(text, "\n") {
		if f := strings.Fields(l); len(f) > 0 {
			return userlock.Known(f[0])
		}
	}
	return false
}

// checkForm parses the written file; its first problem is a *FormError
// at the field (and the pasted line and column) it comes from.
func checkForm(w *formWriter) error {
	_, errs := Check("form.yaml", []byte(w.String()))
	if len(errs) == 0 {
		return nil
	}
	e := errs[0]
	o := formOrigin{field: "lock"}
	if e.Line >= 1 && e.Line <= len(w.from) && w.from[e.Line-1].field != "" {
		o = w.from[e.Line-1]
	}
	fe := &FormError{Field: o.field, Why: sayText(e)}
	switch {
	case o.line > 0 && o.indent > 0: // a script's line, as pasted
		fe.Why = fact.Say("scenario.form.line-column", o.line, max(e.Col-o.indent, 1), sayText(e))
	case o.line > 0: // a command's line, written again as a list
		fe.Why = fact.Say("scenario.form.line", o.line, sayText(e))
	}
	return fe
}

// sayText is a file's problem as words in both languages.
func sayText(e *Error) sim.Text {
	zh := e.Zh
	if zh == "" {
		zh = e.Msg
	}
	return sim.Text{En: e.Msg, Zh: zh}
}
