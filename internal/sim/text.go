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
// \x1b, \u2028), and everything else as it is. Text written with Escape
// always stays on one line. The JSON form of an event keeps the exact
// bytes; only the canonical text form escapes.
func Escape(s string) string {
	if !hasBreaks(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			b.WriteString(`\x` + strconv.FormatUint(uint64(s[i])|0x100, 16)[1:])
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

// quoteBreaks gives s as it is, or Go-quoted when it holds a character
// that breaksLine: a key "a\nb" shows as "a\nb" in quotes, so that it
// cannot be taken for a key written a\nb.
func quoteBreaks(s string) string {
	if hasBreaks(s) {
		return strconv.Quote(s)
	}
	return s
}
