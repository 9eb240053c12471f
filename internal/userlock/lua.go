package userlock

import (
	"errors"
	"strings"

	"github.com/yuin/gopher-lua/parse"
)

// LuaError is a syntax error of a script, at a 1-based line and column of
// the script itself.
type LuaError struct {
	Line, Col int
	Msg       string // the parser's words: "syntax error near 'KEYS'"
}

func (e *LuaError) Error() string { return e.Msg }

// CheckLua parses a script as the node's interpreter will (Lua 5.1, the
// gopher-lua parser miniredis runs) and returns its first syntax error, or
// nil. A problem at the end of the script is placed after its last
// character.
func CheckLua(src string) *LuaError {
	_, err := parse.Parse(strings.NewReader(src), "script")
	if err == nil {
		return nil
	}
	var pe *parse.Error
	if !errors.As(err, &pe) {
		return &LuaError{Line: 1, Col: 1, Msg: strings.TrimSpace(err.Error())}
	}
	e := &LuaError{Line: pe.Pos.Line, Col: pe.Pos.Column, Msg: pe.Message}
	switch {
	case pe.Pos.Line <= 0: // at the end of the script
		lines := strings.Split(strings.TrimRight(src, "\n"), "\n")
		e.Line, e.Col = len(lines), len(lines[len(lines)-1])+1
		e.Msg += " at the end of the script"
		return e
	case pe.Token != "":
		e.Msg += " near '" + pe.Token + "'"
		// the parser gives the column of the token's last character
		if c := pe.Pos.Column - len([]rune(pe.Token)) + 1; c >= 1 && !strings.Contains(pe.Token, "\n") {
			e.Col = c
		}
	}
	e.Col = max(e.Col, 1)
	return e
}
