package sim

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/lockstep/lockstep/internal/fact"
)

// hostile are the pieces the generated names and texts are made of: plain
// letters, the characters the line's grammar uses (space, quotes, =, (,
// |, --, [#), control characters, Unicode line and paragraph separators,
// a C1 next line, an invalid byte, and Chinese.
var hostile = []string{"a", "Z", "7", " ", `"`, `\`, "=", ",", "(", ")", "|", "-", "--", "[", "]", "#", ":", "{", "}",
	"\n", "\r", "\t", "\x00", "\x1b", "\x7f", "\u0085", "\u2028", "\u2029", "\xff", "中", "lock", " | ", " -- ", " [#9]", "#99 9s verdict safe"}

func hostileText(r *rand.Rand, most int) string {
	var b strings.Builder
	for n := r.IntN(most + 1); n > 0; n-- {
		b.WriteString(hostile[r.IntN(len(hostile))])
	}
	return b.String()
}

// name is a hostile name, never empty (an empty name is an absent field).
func hostileName(r *rand.Rand) string {
	for {
		if s := hostileText(r, 4); s != "" {
			return s
		}
	}
}

// hostileEvent is an event of kind k with every text field it shows made
// of hostile pieces.
func hostileEvent(r *rand.Rand, k Kind) *Event {
	e := &Event{Seq: 1 + r.IntN(999), T: time.Duration(r.IntN(5e9)), Kind: k, Client: hostileName(r), Node: hostileName(r)}
	if r.IntN(2) == 0 {
		e.Thread = hostileName(r)
	}
	for n := 1 + r.IntN(3); n > 0; n-- {
		arg := hostileText(r, 3)
		if arg == "|" {
			arg = "||" // a lone | separates the commands of a transaction in Cmd itself
		}
		e.Cmd = append(e.Cmd, arg)
	}
	e.Reply = hostileText(r, 4)
	for n := r.IntN(3); n > 0; n-- {
		ks := KeyState{Key: hostileName(r), TTL: int64(r.IntN(3)) - 2}
		if ks.TTL != -2 {
			ks.Type, ks.Value = []string{"string", "hash"}[r.IntN(2)], hostileText(r, 4)
			if r.IntN(2) == 0 {
				ks.Owner = hostileName(r)
			}
		}
		e.Keys = append(e.Keys, ks)
	}
	e.Name, e.Lock = hostileName(r), hostileName(r)
	if r.IntN(3) > 0 {
		e.Fact = &fact.Fact{Key: fact.Failed, Text: hostileText(r, 5)}
	}
	if k == KindSay || k == KindVerdict {
		e.Fact = nil
		e.Say = &Text{En: hostileText(r, 5)}
		for n := r.IntN(3); n > 0; n-- {
			e.Refs = append(e.Refs, 1+r.IntN(99))
		}
	}
	switch k {
	case KindSend, KindExec, KindReply, KindPush, KindLost, KindTimeout:
	default:
		e.Cmd, e.Reply = nil, ""
	}
	switch k {
	case KindExpire, KindInit, KindVerdict:
		e.Client, e.Thread = "", ""
	}
	if k != KindMark {
		e.Lock = ""
	}
	return e
}

// Every event kind's line stays one line whatever its names, keys,
// values, arguments, replies and notes hold, and reads back: each field,
// taken from the line by the grammar String writes, decodes to exactly
// the bytes the event holds. So no lock named "x\n#99 9.999s verdict safe"
// forges a line, and no name with a space forges a field.
func TestEveryEventLineIsOneLineAndReadsBack(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 20))
	for i := 0; i < 3000; i++ {
		for _, k := range Kinds {
			e := hostileEvent(r, k)
			line := e.String()
			for _, c := range line {
				if breaksLine(c) {
					t.Fatalf("the %s line holds %U raw: %q", k, c, line)
				}
			}
			if !utf8.ValidString(line) {
				t.Fatalf("the %s line is not UTF-8: %q", k, line)
			}
			if err := readBack(e, line); err != nil {
				t.Fatalf("the %s line does not read back: %v\nline:  %s\nevent: %#v", k, err, line, e)
			}
		}
	}
}

// The line of a lock whose key holds a newline (the lesson of issue 20)
// stays the mark's own line.
func TestAMarkCannotForgeALine(t *testing.T) {
	e := &Event{Seq: 3, Kind: KindMark, Client: "A", Name: "enter", Lock: "lock\n#99 9.999s verdict safe"}
	if got, want := e.String(), `#3 0s mark A enter "lock\n#99 9.999s verdict safe"`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	var back Event
	if err := json.Unmarshal(b, &back); err != nil || back.Lock != e.Lock {
		t.Errorf("JSON did not keep the exact bytes: %q (%v)", back.Lock, err)
	}
}

// Escape and Unescape are inverses on any bytes.
func TestUnescapeReadsBackEscape(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 5000; i++ {
		s := hostileText(r, 8)
		for _, esc := range []func(string) string{Escape, escapeReply, escapeNote} {
			got, err := Unescape(esc(s))
			if err != nil || got != s {
				t.Fatalf("Unescape(%q) = %q, %v; want %q", esc(s), got, err, s)
			}
		}
	}
}

// reader takes a line apart as String wrote it.
type reader struct{ s string }

func (p *reader) lit(want string) error {
	if !strings.HasPrefix(p.s, want) {
		return fmt.Errorf("want %q at %q", want, p.s)
	}
	p.s = p.s[len(want):]
	return nil
}

// name reads one field: a Go-quoted string, or the text up to the next
// space (or to the end, or to a stop character).
func (p *reader) name(stop string) (string, error) {
	if strings.HasPrefix(p.s, `"`) {
		q, err := strconv.QuotedPrefix(p.s)
		if err != nil {
			return "", err
		}
		p.s = p.s[len(q):]
		return strconv.Unquote(q)
	}
	i := strings.IndexAny(p.s, " "+stop)
	if i < 0 {
		i = len(p.s)
	}
	v := p.s[:i]
	p.s = p.s[i:]
	return v, nil
}

// upTo reads text up to the first of the separators (or the end) and
// unescapes it.
func (p *reader) upTo(seps ...string) (string, error) {
	end := len(p.s)
	for _, sep := range seps {
		if i := strings.Index(p.s, sep); i >= 0 && i < end {
			end = i
		}
	}
	v := p.s[:end]
	p.s = p.s[end:]
	return Unescape(v)
}

func (p *reader) same(what, got, want string) error {
	if got != want {
		return fmt.Errorf("%s reads back as %q, want %q", what, got, want)
	}
	return nil
}

// readBack reads e's line back, field by field, and compares.
func readBack(e *Event, line string) error {
	p := &reader{line}
	when := FormatTime(e.T)
	if err := p.lit(fmt.Sprintf("#%d %s ", e.Seq, when)); err != nil {
		return err
	}
	kind, err := p.name("")
	if err != nil || kind != string(e.Kind) {
		return fmt.Errorf("kind %q (%w)", kind, err)
	}
	if err := p.lit(" "); err != nil {
		return err
	}
	who := func() error {
		got, err := p.name(":")
		if err != nil {
			return err
		}
		return p.same("who", got, e.Who())
	}
	node := func() error {
		got, err := p.name(":")
		if err != nil {
			return err
		}
		return p.same("node", got, e.Node)
	}
	steps := map[Kind][]func() error{
		KindSend:    {who, lit(p, " -> "), node, lit(p, ": "), cmd(p, e)},
		KindExec:    {node, lit(p, " <- "), who, lit(p, ": "), cmd(p, e), lit(p, " -> "), reply(p, e)},
		KindReply:   {who, lit(p, " <- "), node, lit(p, ": "), reply(p, e)},
		KindPush:    {who, lit(p, " <- "), node, lit(p, ": "), reply(p, e)},
		KindLost:    {who, lit(p, " "), node, lit(p, ": "), cmd(p, e)},
		KindTimeout: {who, lit(p, " "), node, lit(p, ": "), cmd(p, e)},
		KindExpire:  {node},
		KindInit:    {node},
		KindVerdict: {func() error { got, err := p.name(""); return errOr(err, p.same("verdict", got, e.Name)) }},
	}[e.Kind]
	if steps == nil {
		// mark, fault, start, done, say, replicate: who [node] [name] [lock]
		steps = []func() error{who}
		if e.Client != "" && e.Node != "" {
			steps = append(steps, lit(p, " "), func() error { got, err := p.name(""); return errOr(err, p.same("node", got, e.Node)) })
		}
		if e.Name != "" {
			steps = append(steps, lit(p, " "), func() error { got, err := p.name(""); return errOr(err, p.same("name", got, e.Name)) })
		}
		if e.Lock != "" {
			steps = append(steps, lit(p, " "), func() error { got, err := p.name(""); return errOr(err, p.same("lock", got, e.Lock)) })
		}
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	for i, k := range e.Keys {
		if err := p.lit(map[bool]string{true: " | ", false: ", "}[i == 0]); err != nil {
			return err
		}
		if err := readKey(p, k); err != nil {
			return fmt.Errorf("key %d: %w", i, err)
		}
	}
	note := e.Words().En
	if e.Say != nil {
		note = e.Say.En
	}
	if note != "" {
		if err := p.lit(" -- "); err != nil {
			return err
		}
		refs := ""
		if len(e.Refs) > 0 {
			refs = " ["
		}
		got, err := p.upToLast(refs)
		if err != nil {
			return err
		}
		if err := p.same("note", got, note); err != nil {
			return err
		}
	}
	if len(e.Refs) > 0 {
		var want []string
		for _, r := range e.Refs {
			want = append(want, "#"+strconv.Itoa(r))
		}
		if err := p.lit(" [" + strings.Join(want, " ") + "]"); err != nil {
			return err
		}
	}
	if p.s != "" {
		return fmt.Errorf("left over: %q", p.s)
	}
	return nil
}

// upToLast reads the rest up to the last sep (all of it without one) and
// unescapes it.
func (p *reader) upToLast(sep string) (string, error) {
	end := len(p.s)
	if sep != "" {
		if i := strings.LastIndex(p.s, sep); i >= 0 {
			end = i
		}
	}
	v := p.s[:end]
	p.s = p.s[end:]
	return Unescape(v)
}

func lit(p *reader, s string) func() error { return func() error { return p.lit(s) } }

func errOr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// cmd reads a command's arguments: each plain, or Go-quoted.
func cmd(p *reader, e *Event) func() error {
	return func() error {
		var got []string
		for i := range e.Cmd {
			if i > 0 {
				if err := p.lit(" "); err != nil {
					return err
				}
			}
			a, err := p.name("")
			if err != nil {
				return err
			}
			got = append(got, a)
		}
		if !reflect.DeepEqual(got, e.Cmd) {
			return fmt.Errorf("cmd reads back as %q, want %q", got, e.Cmd)
		}
		return nil
	}
}

// reply reads a reply up to the key states or the note that follow it.
func reply(p *reader, e *Event) func() error {
	return func() error {
		got, err := p.upTo(" | ", " -- ")
		if err != nil {
			return err
		}
		return p.same("reply", got, e.Reply)
	}
}

// readKey reads one key state: key=(gone), key="value"(owner) ttl=3s or
// key={fields}(owner).
func readKey(p *reader, k KeyState) error {
	key, err := p.name("=")
	if err != nil {
		return err
	}
	if err := p.same("key", key, k.Key); err != nil {
		return err
	}
	if !k.Exists() {
		return p.lit("=(gone)")
	}
	if err := p.lit("="); err != nil {
		return err
	}
	var v string
	if k.Type == "string" {
		q, err := strconv.QuotedPrefix(p.s)
		if err != nil {
			return err
		}
		p.s = p.s[len(q):]
		v, _ = strconv.Unquote(q)
	} else {
		if err := p.lit("{"); err != nil {
			return err
		}
		if strings.HasPrefix(p.s, `"`) {
			if v, err = p.name(""); err != nil {
				return err
			}
		} else if i := strings.IndexByte(p.s, '}'); i >= 0 {
			v, p.s = p.s[:i], p.s[i:] // a plain field=value list, spaces and all
		}
		if err := p.lit("}"); err != nil {
			return err
		}
	}
	if err := p.same("value", v, k.Value); err != nil {
		return err
	}
	if k.Owner != "" {
		if err := p.lit("("); err != nil {
			return err
		}
		o, err := p.name(")")
		if err != nil {
			return err
		}
		if err := p.same("owner", o, k.Owner); err != nil {
			return err
		}
		if err := p.lit(")"); err != nil {
			return err
		}
	}
	if k.TTL >= 0 {
		return p.lit(" ttl=" + FormatTime(time.Duration(k.TTL)*time.Millisecond))
	}
	return nil
}
