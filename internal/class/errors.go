package class

import (
	"fmt"

	"github.com/lockstep/lockstep/internal/sim"
)

// Error is a request the class's rules refuse: a code of the page's
// message catalogue (internal/fact/words, page.error.…, read by web/static/messages.js), the arguments its
// message names, and the English text (Error), for logs and other clients.
type Error struct {
	Code string
	Args map[string]any
	msg  string
}

func (e *Error) Error() string { return e.msg }

// refuse makes an Error whose English text is format with a.
func refuse(code string, args map[string]any, format string, a ...any) error {
	return &Error{Code: code, Args: args, msg: fmt.Sprintf(format, a...)}
}

// badArg is the error of a request whose argument arg is wrong, as the
// server's other requests say it: the code bad-argument names the op and
// the argument, and detail says how in both languages.
func badArg(op, arg string, detail sim.Text) error {
	return refuse("bad-argument", map[string]any{"op": op, "arg": arg, "detail": detail}, "%s: %s", op, detail.En)
}
