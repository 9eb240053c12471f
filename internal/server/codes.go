package server

import (
	"errors"
	"fmt"
)

// codedError is an error the page can say in its own language: a code from
// its message catalogue (web/static/i18n.js, ERRORS) and the arguments the
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

// errorMessage turns an error into an error message: its text, and its
// code and arguments when it has them.
func errorMessage(re int, err error) *Message {
	m := &Message{Type: "error", Re: re, Error: err.Error()}
	var ce *codedError
	var le lineErrors
	switch {
	case errors.As(err, &ce):
		m.Code, m.Args = ce.code, ce.args
	case errors.As(err, &le):
		m.Errors = le
		m.Code, m.Args = "yaml", map[string]any{"detail": err.Error()}
	}
	return m
}
