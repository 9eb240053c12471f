package fact

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Seq is an event's sequence number as a sentence cites it ("the write at
// #12"). A sentence that formats a Seq (with %d) and is made a Text by
// Cited carries the citation as data, in Text.Cites: which event it is and
// where its number stands, in each language. A view that numbers events
// otherwise (a comparison numbers its rows) writes its own numbers there
// (Text.Cite) without reading the sentence.
type Seq int

// The bytes that mark a Seq's digits between its formatting and Cited,
// which takes them out (control characters, which the other words of a
// cited sentence, names and numbers, do not hold).
const (
	seqOpen  = '\x02'
	seqClose = '\x03'
)

// Format writes the number, marked for Cited.
func (s Seq) Format(f fmt.State, _ rune) {
	fmt.Fprintf(f, "%c%d%c", seqOpen, int(s), seqClose)
}

// Cite is one event a Text cites: its sequence number and the bytes
// [From, To) of its citation ("#12", or the bare number when no # comes
// before it) in En, or in Zh.
type Cite struct {
	Seq      int
	Zh       bool
	From, To int
}

// Cited is the sentence en, zh formatted with Seqs, each citation taken
// out of the text into Cites.
func Cited(en, zh string) Text {
	var t Text
	var cs []Cite
	t.En, cs = unmark(en, false)
	t.Cites = append(t.Cites, cs...)
	t.Zh, cs = unmark(zh, true)
	t.Cites = append(t.Cites, cs...)
	return t
}

// unmark takes the marked Seqs out of s.
func unmark(s string, zh bool) (string, []Cite) {
	if !strings.ContainsRune(s, seqOpen) {
		return s, nil
	}
	var b strings.Builder
	var out []Cite
	for {
		i := strings.IndexRune(s, seqOpen)
		j := strings.IndexRune(s, seqClose)
		if i < 0 || j < i {
			b.WriteString(s)
			return b.String(), out
		}
		b.WriteString(s[:i])
		digits := s[i+1 : j]
		n, err := strconv.Atoi(digits)
		from := b.Len()
		if strings.HasSuffix(b.String(), "#") {
			from--
		}
		b.WriteString(digits)
		if err == nil {
			out = append(out, Cite{Seq: n, Zh: zh, From: from, To: b.Len()})
		}
		s = s[j+1:]
	}
}

// Cite is the text with each event it cites written by write (its row in
// a view, "row 21" in English); a citation write has no words for (ok
// false) keeps its number. The result cites nothing more.
func (t Text) Cite(write func(seq int) (en, zh string, ok bool)) Text {
	cs := slices.Clone(t.Cites)
	// from the end, so that the spans before stay where they are
	slices.SortFunc(cs, func(a, b Cite) int { return b.From - a.From })
	out := Text{En: t.En, Zh: t.Zh}
	for _, c := range cs {
		en, zh, ok := write(c.Seq)
		if !ok {
			continue
		}
		s, w := &out.En, en
		if c.Zh {
			s, w = &out.Zh, zh
		}
		if c.From < 0 || c.To > len(*s) || c.From > c.To {
			continue
		}
		*s = (*s)[:c.From] + w + (*s)[c.To:]
	}
	return out
}
