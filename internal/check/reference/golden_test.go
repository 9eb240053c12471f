package reference_test

import (
	"fmt"
	"github.com/lockstep/lockstep/internal/fact"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/check/reference"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// Every lesson's golden log (internal/lesson/testdata/golden), read back
// from its text form: the reference gives the verdicts the log records.
// The golden files are the production checker's output when they were
// written; a trailing block of verdicts is the one reported at the horizon.
func TestDifferentialGolden(t *testing.T) {
	f, err := scenario.ParseBuiltin("scenarios.yaml", lockstep.Scenarios)
	if err != nil {
		t.Fatal(err)
	}
	paths, _ := filepath.Glob(filepath.Join("..", "..", "lesson", "testdata", "golden", "*.txt"))
	if len(paths) == 0 {
		t.Fatal("no golden logs found")
	}
	var ds []diff
	for _, path := range paths {
		id := strings.TrimSuffix(filepath.Base(path), ".txt")
		i := slices.IndexFunc(f.Scenarios, func(s scenario.Scenario) bool { return s.ID == id })
		if i < 0 {
			t.Errorf("%s: no lesson %q in the catalog", path, id)
			continue
		}
		sc := &f.Scenarios[i]
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		log, err := parseLog(string(data))
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		ended := len(log)
		for ended > 0 && (log[ended-1].Kind == sim.KindVerdict || log[ended-1].Kind == sim.KindSay) {
			ended--
		}
		prod := logged(log, ended)
		ref := reference.Check(log, lesson.CheckOptions(sc))
		if !same(prod, ref) {
			ds = append(ds, diff{what: "golden " + filepath.Base(path), seed: sc.Seed, log: log, prod: prod, ref: ref})
		}
	}
	report(t, ds, len(paths))
}

// The text reader gives back the events that made a run's log: every
// line of a lesson's run, read, prints as the same line.
func TestParseLogRoundTrip(t *testing.T) {
	f, err := scenario.ParseBuiltin("scenarios.yaml", lockstep.Scenarios)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"getset-naive-del", "failover-lost-lock", "redlock-clock-jump", "thread-id-two-instances",
		"fencing-token-rejects-stale", "mysql-not-reentrant", "watch-three-buyers", "failover-wait-replica"} {
		i := slices.IndexFunc(f.Scenarios, func(s scenario.Scenario) bool { return s.ID == id })
		if i < 0 {
			t.Fatalf("no lesson %s", id)
		}
		log, _, err := run(&f.Scenarios[i], f.Scenarios[i].Seed)
		if err != nil {
			t.Fatal(err)
		}
		var text strings.Builder
		for _, e := range log {
			text.WriteString(e.String() + "\n")
		}
		got, err := parseLog(text.String())
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		for j := range log {
			want := log[j]
			if s := got[j].String(); s != want.String() {
				t.Errorf("%s: line %d reads back as\n%s\nwant\n%s", id, j+1, s, want.String())
				break
			}
			thread := want.Thread
			if thread == "" && want.Client != "" {
				thread = "main"
			}
			// Not in the text, and not needed: a lost event's name (request or
			// reply) and the commands a replica applied.
			if want.Kind == sim.KindLost {
				want.Name = ""
			}
			if want.Kind == sim.KindReplicate {
				want.Cmd = nil
			}
			if got[j].CmdText() != want.CmdText() || got[j].Client != want.Client || got[j].Thread != thread ||
				got[j].Node != want.Node || got[j].Name != want.Name || got[j].Lock != want.Lock ||
				want.Req != 0 && got[j].Req != want.Req || !slices.EqualFunc(got[j].Keys, want.Keys, func(a, b sim.KeyState) bool {
				return a.Key == b.Key && a.Value == b.Value && a.Owner == b.Owner && a.TTL == b.TTL && a.Exists() == b.Exists()
			}) {
				t.Errorf("%s: event %d reads back as %+v, want %+v", id, j+1, got[j], want)
				break
			}
		}
	}
}

// parseLog reads a log in its canonical text form (sim.Event.String, one
// event a line) back into events, with what the reference needs: kinds,
// actors, nodes, commands, replies, key states, names, locks and notes.
// The text has no request numbers: an exec, reply, lost or timeout belongs
// to the latest send of the same client thread to the same node (a thread
// may have requests to several nodes in flight at once: Redlock's votes).
func parseLog(text string) ([]sim.Event, error) {
	nodes := map[string]bool{}
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	for _, line := range lines { // a first pass learns the node names
		_, _ = parseLine(line, nodes)
	}
	var out []sim.Event
	lastSend := map[string]int{}
	for n, line := range lines {
		if strings.HasPrefix(line, "verdict: ") || strings.HasPrefix(line, "kept: ") || line == "" {
			continue
		}
		e, err := parseLine(line, nodes)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w: %s", n+1, err, line)
		}
		who := e.Client + "/" + e.Thread + "@" + e.Node
		switch e.Kind {
		case sim.KindSend:
			lastSend[who] = e.Seq
		case sim.KindExec, sim.KindReply, sim.KindLost, sim.KindTimeout:
			if e.Client != "" {
				e.Req = lastSend[who]
			}
		}
		out = append(out, e)
	}
	return out, nil
}

func parseLine(line string, nodes map[string]bool) (sim.Event, error) {
	var e sim.Event
	head := strings.SplitN(line, " ", 4)
	if len(head) < 3 || !strings.HasPrefix(head[0], "#") {
		return e, fmt.Errorf("not an event")
	}
	seq, err := strconv.Atoi(head[0][1:])
	if err != nil {
		return e, err
	}
	d, err := time.ParseDuration(head[1])
	if err != nil {
		return e, err
	}
	e.Seq, e.T, e.Kind = seq, d, sim.Kind(head[2])
	rest := ""
	if len(head) == 4 {
		rest = head[3]
	}
	// refs, then note, at the end
	if i := strings.LastIndex(rest, " ["); i >= 0 && strings.HasSuffix(rest, "]") && strings.HasPrefix(rest[i+2:], "#") {
		for _, r := range strings.Fields(rest[i+2 : len(rest)-1]) {
			n, err := strconv.Atoi(strings.TrimPrefix(r, "#"))
			if err != nil {
				return e, err
			}
			e.Refs = append(e.Refs, n)
		}
		rest = rest[:i]
	}
	switch e.Kind {
	case sim.KindSend:
		who, cmd, _ := strings.Cut(rest, ": ")
		w, node, _ := strings.Cut(who, " -> ")
		setWho(&e, w)
		e.Node = node
		nodes[node] = true
		e.Cmd = splitCmd(cmd)
	case sim.KindExec:
		node, r, _ := strings.Cut(rest, " <- ")
		e.Node = node
		nodes[node] = true
		w, r, _ := strings.Cut(r, ": ")
		setWho(&e, w)
		cmd, r, _ := strings.Cut(r, " -> ")
		e.Cmd = splitCmd(cmd)
		r, note, _ := strings.Cut(r, " -- ")
		e.Fact = noteFact(&e, note)
		reply, keys, _ := strings.Cut(r, " | ")
		e.Reply, e.Answer = reply, reference.AnswerOf(reply)
		if e.Keys, err = parseKeys(keys); err != nil {
			return e, err
		}
	case sim.KindReply:
		w, r, _ := strings.Cut(rest, " <- ")
		setWho(&e, w)
		e.Node, e.Reply, _ = strings.Cut(r, ": ")
		e.Answer = reference.AnswerOf(e.Reply)
	case sim.KindLost, sim.KindTimeout:
		r, note, _ := strings.Cut(rest, " -- ")
		e.Fact = noteFact(&e, note)
		head, cmd, _ := strings.Cut(r, ": ")
		w, node, _ := strings.Cut(head, " ")
		setWho(&e, w)
		e.Node = node
		e.Cmd = splitCmd(cmd)
	case sim.KindVerdict:
		name, note, _ := strings.Cut(rest, " -- ")
		e.Name, e.Say = name, &sim.Text{En: note}
	case sim.KindSay:
		_, note, _ := strings.Cut(rest, " -- ")
		e.Say = &sim.Text{En: note}
	default:
		r, note, _ := strings.Cut(rest, " -- ")
		r, keys, _ := strings.Cut(r, " | ")
		if e.Keys, err = parseKeys(keys); err != nil {
			return e, err
		}
		words := strings.Fields(r)
		if len(words) == 0 {
			break
		}
		if e.Kind == sim.KindInit || e.Kind == sim.KindExpire || e.Kind == sim.KindReplicate ||
			e.Kind == sim.KindFault && nodes[words[0]] || e.Kind == sim.KindFault && len(words) == 2 && isNodeFault(words[1]) {
			e.Node = words[0]
			nodes[words[0]] = true
		} else {
			setWho(&e, words[0])
			if len(words) > 1 && nodes[words[1]] {
				e.Node = words[1]
				words = words[1:]
			}
		}
		if len(words) > 1 {
			e.Name = words[1]
		}
		if len(words) > 2 {
			e.Lock = words[2]
		}
		e.Fact = noteFact(&e, note)
	}
	return e, nil
}

// noteFact is the fact a line's note stands for, as far as the checkers
// read it: a fencing token, a fault not applied, a thread's error; any
// other note is kept as its words (fact.Failed renders them as they are).
func noteFact(e *sim.Event, note string) *fact.Fact {
	note, _ = sim.Unescape(note)
	var tok int64
	switch {
	case note == "":
		return nil
	case e.Kind == sim.KindMark && e.Name == sim.MarkToken:
		if _, err := fmt.Sscanf(note, "fencing token %d", &tok); err == nil {
			return &fact.Fact{Key: fact.Token, Token: tok}
		}
	case e.Kind == sim.KindFault && strings.HasPrefix(note, "not applied: "):
		return &fact.Fact{Key: fact.NotApplied, Reason: &fact.Fact{Key: fact.Failed, Text: strings.TrimPrefix(note, "not applied: ")}}
	}
	return &fact.Fact{Key: fact.Failed, Text: note}
}

func isNodeFault(name string) bool {
	return slices.Contains([]string{"partition", "heal", "node-crash", "node-restart", "clock-jump", "failover", "clock-offset"}, name)
}

func setWho(e *sim.Event, who string) {
	c, th, ok := strings.Cut(who, "/")
	e.Client, e.Thread = c, "main"
	if ok {
		e.Thread = th
	}
}

// splitCmd reads a command as FormatCmd wrote it.
func splitCmd(s string) []string {
	var out []string
	for s != "" {
		s = strings.TrimLeft(s, " ")
		if strings.HasPrefix(s, `"`) {
			q, err := strconv.QuotedPrefix(s)
			if err == nil {
				v, _ := strconv.Unquote(q)
				out = append(out, v)
				s = s[len(q):]
				continue
			}
		}
		w, r, _ := strings.Cut(s, " ")
		if w != "" {
			out = append(out, w)
		}
		s = r
	}
	return out
}

// parseKeys reads key states as KeyState.String wrote them, joined by ", ".
func parseKeys(s string) ([]sim.KeyState, error) {
	var out []sim.KeyState
	for s != "" {
		name, r, ok := strings.Cut(s, "=")
		if !ok {
			return nil, fmt.Errorf("bad key state %q", s)
		}
		k := sim.KeyState{Key: name, TTL: -1}
		switch {
		case strings.HasPrefix(r, "(gone)"):
			k.TTL = -2
			r = r[len("(gone)"):]
		case strings.HasPrefix(r, `"`):
			q, err := strconv.QuotedPrefix(r)
			if err != nil {
				return nil, err
			}
			k.Type = "string"
			k.Value, _ = strconv.Unquote(q)
			r = r[len(q):]
		case strings.HasPrefix(r, "{"):
			end := strings.Index(r, "}")
			if end < 0 {
				return nil, fmt.Errorf("bad hash %q", r)
			}
			k.Type, k.Value = "hash", r[1:end]
			if strings.HasPrefix(name, "locks[") {
				k.Type = "row"
			}
			r = r[end+1:]
		default:
			return nil, fmt.Errorf("bad value %q", r)
		}
		if k.Exists() && strings.HasPrefix(r, "(") {
			end := strings.Index(r, ")")
			k.Owner, r = r[1:end], r[end+1:]
		}
		if strings.HasPrefix(r, " ttl=") {
			v, rest := r[len(" ttl="):], ""
			if i := strings.Index(v, ", "); i >= 0 {
				v, rest = v[:i], v[i:]
			}
			d, err := time.ParseDuration(v)
			if err != nil {
				return nil, err
			}
			k.TTL = d.Milliseconds()
			r = rest
		}
		out = append(out, k)
		s = strings.TrimPrefix(r, ", ")
		if s == r && s != "" {
			return nil, fmt.Errorf("bad key list at %q", s)
		}
	}
	return out, nil
}
