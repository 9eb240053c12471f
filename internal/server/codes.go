package server

import (
	"errors"
	"fmt"

	"github.com/lockstep/lockstep/internal/class"
	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// codedError is an error the page can say in its own language: a code from
// its message catalogue (internal/fact/words, page.error.…, read by web/static/messages.js) and the arguments the
// message names. Error() is the English text, for logs and other clients.
type codedError struct {
	code string
	args map[string]any
	msg  string
}

func (e *codedError) Error() string { return e.msg }

// coded makes a codedError whose English text is format with args.
func coded(code string, args map[string]any, format string, a ...any) error {
	return &codedError{code: code, args: args, msg: fmt.Sprintf(format, a...)}
}

// badArg is the error of a request whose argument arg is wrong: its code,
// bad-argument, names the op and the argument, and detail says how, in
// English and Chinese; the English error is "op: detail".
func badArg(op, arg string, detail sim.Text) error {
	return coded("bad-argument", map[string]any{"op": op, "arg": arg, "detail": detail}, "%s: %s", op, detail.En)
}

// errorMessage turns an error into an error message: its English text, a
// code the page says in its own language, and the code's arguments (an
// argument in words is {en, zh}). Every error has a code: a scenario
// file's problems are "yaml", an action a scenario refuses "bad-action",
// a fault the engine refuses "bad-fault", and an error nothing else
// names "error", with its words as the engine's facts say them.
func errorMessage(re int, err error) *Message {
	m := &Message{Type: "error", Re: re, Error: err.Error()}
	var ce *codedError
	var cle *class.Error
	var le lineErrors
	var ae *scenario.ActionError
	switch {
	case errors.As(err, &ce):
		m.Code, m.Args = ce.code, ce.args
	case errors.As(err, &cle):
		m.Code, m.Args = cle.Code, cle.Args
	case errors.As(err, &le):
		m.Errors = le
		m.Code, m.Args = "yaml", map[string]any{"detail": le.words()}
	case errors.As(err, &ae):
		m.Code, m.Args = "bad-action", map[string]any{"detail": ae.Words()}
	case errors.Is(err, sim.ErrBadFault):
		m.Code, m.Args = "bad-fault", map[string]any{"detail": refusal(err)}
	case errors.Is(err, sim.ErrUnknownClient), errors.Is(err, sim.ErrUnknownNode):
		m.Code, m.Args = "unknown-name", map[string]any{"detail": fact.Error(err).Render()}
	default:
		m.Code, m.Args = "error", map[string]any{"detail": fact.Error(err).Render()}
	}
	return m
}

// refusal is why the engine refused a fault, in both languages, without
// the engine's "sim: bad fault: ".
func refusal(err error) sim.Text {
	why := fact.Error(err)
	if why.Key == fact.BadFault && why.Reason != nil {
		why = why.Reason
	}
	return why.Render()
}
