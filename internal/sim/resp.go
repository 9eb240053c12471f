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
// "; " when there are several (a pipeline).
func replies(b []byte) string {
	if s, rest, ok := parseReply(b); ok && len(rest) == 0 {
		return s // one reply: most commands
	}
	var parts []string
	for len(b) > 0 {
		s, rest, ok := parseReply(b)
		if !ok {
			parts = append(parts, "(partial reply)")
			break
		}
		parts = append(parts, s)
		b = rest
	}
	return strings.Join(parts, "; ")
}

// parseReply parses one RESP2 value.
func parseReply(b []byte) (string, []byte, bool) {
	line, rest, ok := readLine(b)
	if !ok || len(line) == 0 {
		return "", nil, false
	}
	// body is converted to a string only where the result keeps it: a
	// conversion that a concatenation or a call consumes costs no copy.
	body := line[1:]
	switch line[0] {
	case '+':
		if string(body) == "OK" {
			return "OK", rest, true // most writes' reply, shared
		}
		return string(body), rest, true
	case '-':
		return "(error) " + string(body), rest, true
	case ':':
		return "(integer) " + string(body), rest, true
	case '$':
		n, err := strconv.Atoi(string(body))
		if err != nil {
			return "", nil, false
		}
		if n < 0 {
			return "(nil)", rest, true
		}
		if len(rest) < n+2 {
			return "", nil, false
		}
		var buf [64]byte // the quoting is done here, only its result copied out
		return string(strconv.AppendQuote(buf[:0], string(rest[:n]))), rest[n+2:], true
	case '*':
		n, err := strconv.Atoi(string(body))
		if err != nil {
			return "", nil, false
		}
		if n < 0 {
			return "(nil)", rest, true
		}
		if n == 0 {
			return "(empty array)", rest, true
		}
		elems := make([]string, 0, n)
		for i := 0; i < n; i++ {
			var s string
			s, rest, ok = parseReply(rest)
			if !ok {
				return "", nil, false
			}
			elems = append(elems, s)
		}
		return "[" + strings.Join(elems, ", ") + "]", rest, true
	}
	return "", nil, false
}

func readLine(b []byte) ([]byte, []byte, bool) {
	i := bytes.Index(b, []byte("\r\n"))
	if i < 0 {
		return nil, nil, false
	}
	return b[:i], b[i+2:], true
}
