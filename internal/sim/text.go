package sim

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// breaksLine reports whether r must not appear raw in a canonical text
// line: a C0 or C1 control character (newline, carriage return, tab, ...),
// DEL, or a Unicode line or paragraph separator, which some terminals and
// browsers also break lines at.
func breaksLine(r rune) bool {
	return unicode.IsControl(r) || r == '\u2028' || r == '\u2029'
}

// hasBreaks reports whether s holds a rune that breaksLine, or bytes that
// are not UTF-8.
func hasBreaks(s string) bool {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 || breaksLine(r) {
			return true
		}
		i += n
	}
	return false
}

// Escape writes s with every control character, line separator and
// invalid byte escaped as Go writes it in a string literal (\n, \r, \t,
// \x1b, \u2028), and a backslash doubled (\\), everything else as it is.
// Text written with Escape always stays on one line, and Unescape gives
// the exact bytes back. The JSON form of an event keeps the exact bytes;
// only the canonical text form escapes.
func Escape(s string) string {
	if !hasBreaks(s) && !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			b.WriteString(`\x` + strconv.FormatUint(uint64(s[i])|0x100, 16)[1:])
		case r == '\\':
			b.WriteString(`\\`)
		case breaksLine(r):
			q := strconv.QuoteRune(r) // '\n', '\x1b', '\u2028'
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// Unescape reads back what Escape wrote.
func Unescape(s string) (string, error) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	for len(s) > 0 {
		if s[0] != '\\' {
			_, n := utf8.DecodeRuneInString(s)
			b.WriteString(s[:n])
			s = s[n:]
			continue
		}
		r, multibyte, tail, err := strconv.UnquoteChar(s, 0)
		if err != nil {
			return "", err
		}
		if multibyte { // \u and \U escapes, and characters written as they are
			b.WriteRune(r)
		} else {
			b.WriteByte(byte(r))
		}
		s = tail
	}
	return b.String(), nil
}

// actor is field for a client or a node, which a colon may follow on
// the line (A -> redis: SET ...): a name with a colon is quoted too.
func actor(s string) string {
	if strings.Contains(s, ":") {
		return strconv.Quote(s)
	}
	return field(s)
}

// field gives a name (a client, a node, a lock, a mark, a key) as one
// space-free field of a text line: as it is when it is plain (or empty:
// the field is absent), Go-quoted when it holds a space, a quote, a backslash, a character
// that breaksLine, or one of =,() that the line's key states use. A name
// can therefore never add a field, a key or a line of its own.
func field(s string) string {
	if !hasBreaks(s) && !strings.ContainsAny(s, " \"\\=,()") {
		return s
	}
	return strconv.Quote(s)
}

// escapeReply is Escape for a reply, which key states (" | ") or a note
// (" -- ") may follow on its line: a bar or a double dash after a space
// inside the reply is escaped too (\x7c, \x2d), so that no separator can
// be read inside the reply, nor across its end.
func escapeReply(s string) string {
	s = Escape(s)
	if strings.Contains(s, " |") || strings.Contains(s, " --") {
		s = strings.ReplaceAll(strings.ReplaceAll(s, " |", ` \x7c`), " --", ` \x2d-`)
	}
	return s
}

// escapeNote is Escape for a note, the last text of a line but for the
// list of events it points at (" [#3 #4]"): a note that itself ends with a
// bracket has that bracket's opening escaped (\x5b), so that it cannot be
// read as such a list.
func escapeNote(s string) string {
	s = Escape(s)
	if strings.HasSuffix(s, "]") {
		if i := strings.LastIndexByte(s, '['); i >= 0 {
			s = s[:i] + `\x5b` + s[i+1:]
		}
	}
	return s
}
