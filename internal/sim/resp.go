package sim

import (
	"bytes"
	"net"
	"strconv"
	"strings"
)

// tap is the record of the bytes a server sent back on a client's
// connections since the last reset. Only one command runs at a time, so
// after a command it holds exactly that command's reply as the server wrote
// it.
type tap struct{ buf bytes.Buffer }

// tapConn is a connection that copies what it reads into a tap.
type tapConn struct {
	net.Conn
	tap *tap
}

func (c tapConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.tap.buf.Write(p[:n])
	return n, err
}

// replies renders the RESP2 replies in b as redis-cli shows them, joined by
// "; " when there are several (a pipeline), and their answer: the last
// reply's.
func replies(b []byte) (string, Answer) {
	if s, a, rest, ok := parseReply(b); ok && len(rest) == 0 {
		return s, a // one reply: most commands
	}
	var parts []string
	var last Answer
	for len(b) > 0 {
		s, a, rest, ok := parseReply(b)
		if !ok {
			parts = append(parts, "(partial reply)")
			last = Answer{}
			break
		}
		parts = append(parts, s)
		last, b = a, rest
	}
	return strings.Join(parts, "; "), last
}

// parseReply parses one RESP2 value: its text and its answer (a
// substring of the text where it has a gist, so it costs no copy).
func parseReply(b []byte) (string, Answer, []byte, bool) {
	line, rest, ok := readLine(b)
	if !ok || len(line) == 0 {
		return "", Answer{}, nil, false
	}
	// body is converted to a string only where the result keeps it: a
	// conversion that a concatenation or a call consumes costs no copy.
	body := line[1:]
	switch line[0] {
	case '+':
		if string(body) == "OK" {
			return "OK", Answer{Type: AnswerOK}, rest, true // most writes' reply, shared
		}
		s := string(body)
		return s, Answer{Type: AnswerStatus, Gist: s}, rest, true
	case '-':
		s := "(error) " + string(body)
		return s, errorAnswer(s[len("(error) "):]), rest, true
	case ':':
		s := "(integer) " + string(body)
		return s, Answer{Type: AnswerInt, Gist: s[len("(integer) "):]}, rest, true
	case '$':
		n, err := strconv.Atoi(string(body))
		if err != nil {
			return "", Answer{}, nil, false
		}
		if n < 0 {
			return "(nil)", Answer{Type: AnswerNil}, rest, true
		}
		if len(rest) < n+2 {
			return "", Answer{}, nil, false
		}
		var buf [64]byte // the quoting is done here, only its result copied out
		s := string(strconv.AppendQuote(buf[:0], string(rest[:n])))
		return s, Answer{Type: AnswerString, Gist: s[1 : len(s)-1]}, rest[n+2:], true
	case '*':
		return parseArray(body, rest)
	}
	return "", Answer{}, nil, false
}

// parseArray parses the items of a RESP2 array whose header's body is
// body.
func parseArray(body, rest []byte) (string, Answer, []byte, bool) {
	n, err := strconv.Atoi(string(body))
	if err != nil {
		return "", Answer{}, nil, false
	}
	if n < 0 {
		return "(nil)", Answer{Type: AnswerNil}, rest, true
	}
	if n == 0 {
		return "(empty array)", listAnswer(0, Answer{}), rest, true
	}
	elems := make([]string, 0, n)
	var one Answer
	for i := 0; i < n; i++ {
		s, a, r, ok := parseReply(rest)
		if !ok {
			return "", Answer{}, nil, false
		}
		elems, one, rest = append(elems, s), a, r
	}
	return "[" + strings.Join(elems, ", ") + "]", listAnswer(n, one), rest, true
}

func readLine(b []byte) ([]byte, []byte, bool) {
	i := bytes.Index(b, []byte("\r\n"))
	if i < 0 {
		return nil, nil, false
	}
	return b[:i], b[i+2:], true
}
