package scenario

import "github.com/lockstep/lockstep/internal/fact"

// prescan counts a file's YAML values from its bytes, before the YAML
// library parses it, and refuses a file with more than MaxNodes at the
// value that passes the limit. The library builds every node of the file
// before limits can count them: a 128 KiB flow list of 1s is 65,000 nodes,
// about 20 MB allocated and 0.2 s of a core to be told "more than 20000"
// afterwards. The scan allocates nothing and reads each byte once.
//
// It is a tokenizer of YAML's surface, not a parser: it knows flow
// collections, quoted scalars, comments, block scalars (skipped by their
// indentation), aliases and plain scalars, and counts a value where one
// begins. It counts low rather than high, so that a file it refuses does
// have more values than the limit (TestPrescanNeverCountsHigh holds it to
// every YAML file of the repository): a block mapping's own node is not
// counted, a sequence's node only when an entry on the same line opens
// another (- - x), a mapping as an entry when its first key follows the
// dash (- id: x); a plain scalar continued on the next line is one value.
// Anchors and tags are properties, not values; the parse refuses them by
// name.
func prescan(r *report, data []byte) bool {
	s := prescanner{data: data, line: 1, col: 1, pending: -1}
	if s.run() {
		return true
	}
	r.add(s.atLine, s.atCol, fact.Say("scenario.too-many-values", MaxNodes, MaxNodes))
	return false
}

type prescanner struct {
	data      []byte
	i         int // the next byte
	line, col int // data[i]'s place, 1-based; col counts characters, as the parser's marks do
	flow      int // depth of flow collections ([ and {) around data[i]
	count     int

	atLine, atCol int // where the count passed MaxNodes

	lineIndent int  // block: the current line's indentation
	lineStart  bool // block: no token yet on this line
	dash       int  // block: the column (0-based) of a dash with no value after it yet on this line, or -1
	owner      int  // block: the column (0-based) of the node a block scalar on this line belongs to
	value      bool // block: the last token was a plain scalar value, which the next line may continue
	keyOpen    bool // block: a key on this line has no value after it yet
	keyCol     int  // block: that key's column (0-based)
	pending    int  // block: the column of a key or dash whose value is on a later line (or null), or -1
	pendKey    bool // block: pending is a key's
	nested     bool // block: this line holds the pending value: a dash or key first makes a collection
}

// value counts one value starting at the current place; false when that
// passes the limit.
func (s *prescanner) add() bool {
	s.count++
	if s.count > MaxNodes {
		s.atLine, s.atCol = s.line, s.col
		return false
	}
	return true
}

func (s *prescanner) peek(k int) byte {
	if s.i+k < len(s.data) {
		return s.data[s.i+k]
	}
	return 0
}

// next moves one byte on, keeping line and column.
func (s *prescanner) next() {
	b := s.data[s.i]
	s.i++
	switch {
	case b == '\n':
		s.line++
		s.col = 1
	case b&0xC0 != 0x80: // not a UTF-8 continuation byte
		s.col++
	}
}

func blank(b byte) bool   { return b == ' ' || b == '\t' || b == '\r' || b == '\n' || b == 0 }
func flowInd(b byte) bool { return b == ',' || b == '[' || b == ']' || b == '{' || b == '}' }

// skipLine moves to the start of the next line.
func (s *prescanner) skipLine() {
	for s.i < len(s.data) && s.data[s.i] != '\n' {
		s.next()
	}
	if s.i < len(s.data) {
		s.next()
	}
}

func (s *prescanner) run() bool {
	if !s.beginLine() {
		return false
	}
	for s.i < len(s.data) {
		if !s.token(s.data[s.i]) {
			return false
		}
	}
	if s.flow == 0 {
		s.endLine()
		if s.pending >= 0 { // the last key or dash of the file has a null value
			return s.add()
		}
	}
	return true
}

// token reads what starts with b at the scanner's place; false when the
// file is refused.
func (s *prescanner) token(b byte) bool {
	switch {
	case b == '\n':
		if s.flow == 0 {
			s.endLine()
		}
		s.next()
		if s.flow == 0 && !s.beginLine() {
			return false
		}
	case b == ' ' || b == '\t' || b == '\r':
		s.next()
	case b == '#':
		for s.i < len(s.data) && s.data[s.i] != '\n' {
			s.next()
		}
	case s.flow == 0 && (b == '-' || b == '?' || b == ':') && blank(s.peek(1)):
		if b == '-' {
			// - - x: the entry is a sequence; a dash first on the line
			// that holds a pending value: the value is a sequence
			if (s.dash >= 0 || s.nested) && !s.add() {
				return false
			}
			s.dash, s.owner = s.col-1, s.col-1
			s.keyOpen = false
		}
		s.lineStart, s.value, s.nested = false, false, false
		s.next()
	case s.flow > 0 && (b == '?' || b == ':') && (blank(s.peek(1)) || flowInd(s.peek(1))):
		s.next()
	case b == '[' || b == '{':
		if !s.add() {
			return false
		}
		s.flow++
		s.started()
		s.next()
	case b == ']' || b == '}':
		if s.flow > 0 {
			s.flow--
		}
		s.next()
	case b == ',':
		s.next()
	case b == '&' || b == '!': // an anchor or a tag: a property of the value after it
		s.word()
	case b == '*':
		if !s.add() {
			return false
		}
		s.started()
		s.word()
	case s.flow == 0 && (b == '|' || b == '>'):
		if !s.add() {
			return false
		}
		s.started()
		if !s.blockScalar() {
			return false
		}
	case b == '"' || b == '\'':
		if !s.add() {
			return false
		}
		s.quoted(b)
		if !s.keyAfter() {
			return false
		}
	default:
		if !s.plain() {
			return false
		}
	}
	return true
}

// started notes that a value began on this line: the dash or key before it
// has its value.
func (s *prescanner) started() {
	s.dash, s.lineStart, s.value, s.keyOpen, s.nested = -1, false, false, false, false
}

// endLine notes a dash or a key with nothing after it on its line: its
// value is on a later line, or null.
func (s *prescanner) endLine() {
	switch {
	case s.dash >= 0:
		s.pending, s.pendKey = s.dash, false
	case s.keyOpen:
		s.pending, s.pendKey = s.keyCol, true
	}
	s.dash, s.keyOpen = -1, false
}

// beginLine reads a block line's indentation; a document marker or a
// directive line holds no value. The first line with a token after a
// pending key or dash says what its value is: on this line when it is
// indented deeper (or a dash under a key), null otherwise.
func (s *prescanner) beginLine() bool {
	for s.i < len(s.data) {
		if s.col == 1 && (s.startsWith("---") || s.startsWith("...")) && blank(s.peek(3)) || s.col == 1 && s.peek(0) == '%' {
			s.skipLine()
			s.value = false
			continue
		}
		break
	}
	n := 0
	for s.i < len(s.data) && s.data[s.i] == ' ' {
		s.next()
		n++
	}
	s.lineIndent, s.lineStart, s.dash, s.owner, s.keyOpen, s.nested = n, true, -1, n, false, false
	if c := s.peek(0); s.pending < 0 || c == '\n' || c == '\r' || c == '#' || c == 0 {
		return true // no pending value, or a blank or comment line
	}
	if n > s.pending || n == s.pending && s.pendKey && s.peek(0) == '-' && blank(s.peek(1)) {
		s.nested = true
	} else if !s.add() { // the pending value was null
		return false
	}
	s.pending = -1
	return true
}

func (s *prescanner) startsWith(p string) bool {
	return len(s.data)-s.i >= len(p) && string(s.data[s.i:s.i+len(p)]) == p
}

// word skips an anchor, a tag or an alias name.
func (s *prescanner) word() {
	for s.i < len(s.data) && !blank(s.data[s.i]) && !(s.flow > 0 && flowInd(s.data[s.i])) {
		s.next()
	}
}

// quoted skips a quoted scalar, which may span lines.
func (s *prescanner) quoted(q byte) {
	s.next()
	for s.i < len(s.data) {
		b := s.data[s.i]
		switch {
		case q == '"' && b == '\\' && s.i+1 < len(s.data):
			s.next()
			s.next()
		case b == q && q == '\'' && s.peek(1) == '\'':
			s.next()
			s.next()
		case b == q:
			s.next()
			return
		default:
			s.next()
		}
	}
}

// keyAfter ends a quoted scalar: when a colon follows it is a key.
func (s *prescanner) keyAfter() bool {
	j := s.i
	for j < len(s.data) && (s.data[j] == ' ' || s.data[j] == '\t') {
		j++
	}
	return s.scalarEnd(j < len(s.data) && s.data[j] == ':', -1)
}

// scalarEnd notes a scalar just read (counted already): a key (in a block,
// after a dash the entry is a mapping, and first on a line holding a
// pending value the value is a mapping: one more value each) or a value.
func (s *prescanner) scalarEnd(isKey bool, col int) bool {
	if !isKey || s.flow > 0 {
		s.started()
		return true
	}
	if (s.dash >= 0 || s.nested) && !s.add() {
		return false
	}
	if col < 0 {
		col = s.owner
	}
	s.owner, s.keyCol, s.keyOpen = col, col, true
	s.dash, s.lineStart, s.value, s.nested = -1, false, false, false
	return true
}

// plain reads a plain scalar: to ": " or " #" or the end of the line, and
// in a flow collection to a flow indicator too.
func (s *prescanner) plain() bool {
	first, col := s.lineStart, s.col-1
	for s.i < len(s.data) {
		b := s.data[s.i]
		if b == '\n' || b == ':' && (blank(s.peek(1)) || s.flow > 0 && flowInd(s.peek(1))) ||
			b == '#' && s.i > 0 && (s.data[s.i-1] == ' ' || s.data[s.i-1] == '\t') ||
			s.flow > 0 && flowInd(b) {
			break
		}
		s.next()
	}
	isKey := s.peek(0) == ':'
	if s.flow == 0 && !isKey && first && s.value && s.dash < 0 && !s.nested {
		// a plain value continued from the line before: the same value
		s.lineStart = false
		return true
	}
	if !s.add() {
		return false
	}
	if !s.scalarEnd(isKey, col) {
		return false
	}
	if s.flow == 0 && !isKey {
		s.value = true
	}
	return true
}

// blockScalar skips a literal (|) or folded (>) scalar: the rest of its
// line, then every line blank or indented deeper than the node it belongs
// to (the key before it, the dash, or the line).
func (s *prescanner) blockScalar() bool {
	owner := s.owner
	s.skipLine()
	for s.i < len(s.data) {
		j, n := s.i, 0
		for j < len(s.data) && s.data[j] == ' ' {
			j++
			n++
		}
		if j < len(s.data) && s.data[j] != '\n' && s.data[j] != '\r' && n <= owner {
			break
		}
		s.skipLine()
	}
	s.value = false
	return s.beginLine()
}
