package sim

import (
	"errors"
	"strconv"
)

// AnswerType is the type of a reply, as the engine read it from the
// server's answer.
type AnswerType string

// The types of a reply.
const (
	AnswerOK      AnswerType = "ok"      // OK (a SQL statement that ran: OK, n row(s) affected)
	AnswerStatus  AnswerType = "status"  // another simple string: QUEUED, PONG
	AnswerNil     AnswerType = "nil"     // (nil)
	AnswerEmpty   AnswerType = "empty"   // (empty array)
	AnswerInt     AnswerType = "int"     // (integer) n
	AnswerError   AnswerType = "error"   // (error) ...: the server refused the command
	AnswerRefused AnswerType = "refused" // the node is down: the connection was refused
	AnswerString  AnswerType = "string"  // a bulk string: "value"
	AnswerList    AnswerType = "list"    // an array of n items
)

// Answer is a reply's type and its gist, for readers that show a reply in
// a few characters (the page's badges) without reading its text. Gist is,
// by type: int, the number; error, the error's code (WRONGTYPE, FENCED;
// empty when the error has none); string, the value as the reply writes it
// between its quotes; status, the string; list, how many items. A reply
// of several answers (a pipeline, MULTI … EXEC) is summed up by its last;
// an array holding one answer that is not a string (EXEC's reply to one
// queued command) by that answer.
type Answer struct {
	Type AnswerType `json:"type"`
	Gist string     `json:"gist,omitempty"`
}

// errorAnswer is the answer of an error reply whose text (after "(error) ")
// is msg: its code is msg's first word when that word is in capitals, as
// Redis writes its errors (ERR, WRONGTYPE, NOSCRIPT).
func errorAnswer(msg string) Answer {
	i := 0
	for i < len(msg) && (msg[i] >= 'A' && msg[i] <= 'Z' || i > 0 && (msg[i] == '_' || msg[i] == '-')) {
		i++
	}
	if i < 3 || i < len(msg) && isWordByte(msg[i]) {
		return Answer{Type: AnswerError}
	}
	return Answer{Type: AnswerError, Gist: msg[:i]}
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// errAnswer is the answer of a request that failed with err before any
// reply came: a refusal from a node that is down, or another error.
func errAnswer(err error) Answer {
	var refused refusedError
	if errors.As(err, &refused) {
		return Answer{Type: AnswerRefused}
	}
	return errorAnswer(err.Error())
}

// listAnswer is the answer of an array of n items; one is the answer of
// its only item when n is 1.
func listAnswer(n int, one Answer) Answer {
	switch {
	case n == 0:
		return Answer{Type: AnswerEmpty}
	case n == 1 && one.Type != AnswerString:
		return one
	}
	return Answer{Type: AnswerList, Gist: strconv.Itoa(n)}
}
