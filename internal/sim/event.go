package sim

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/lockstep/lockstep/internal/fact"
)

// Kind names what an event records.
type Kind string

// The kinds of event a world records.
const (
	KindInit    Kind = "init"    // initial data written to a node before the run
	KindStart   Kind = "start"   // a client process (or one of its threads) starts
	KindSend    Kind = "send"    // a client puts a request on the wire
	KindExec    Kind = "exec"    // a node executes a request (reply and key state after it)
	KindReply   Kind = "reply"   // the client receives the reply
	KindPush    Kind = "push"    // a server sends a client what it did not ask for by a request (an etcd watch's event)
	KindLost    Kind = "lost"    // a request or reply was lost on the wire
	KindTimeout Kind = "timeout" // the client gave up waiting for a reply
	KindExpire  Kind = "expire"  // a key's TTL ran out on a node
	KindMark    Kind = "mark"    // a client reports a step of its algorithm (acquired, enter, ...)
	KindFault   Kind = "fault"   // a fault was applied (crash, pause, partition, clock jump, ...)
	KindDone    Kind = "done"    // a client thread finished (note holds its error, if any)
	KindSay     Kind = "say"     // narration attached to a moment of the run
	KindVerdict Kind = "verdict" // a checker verdict
	KindError   Kind = "error"   // the run cannot go on: a node's real server stopped answering (its fact says why); the run ends there
)

// Kinds lists every kind of event a world records, in the order above,
// and the replicate events of replica.go.
var Kinds = []Kind{KindInit, KindStart, KindSend, KindExec, KindReply, KindPush, KindLost, KindTimeout,
	KindExpire, KindMark, KindFault, KindDone, KindSay, KindVerdict, KindError, KindReplicate}

// CarriesCmd reports whether events of the kind can carry a command
// (Event.Cmd): a scenario's match on cmd: fires only on these.
func (k Kind) CarriesCmd() bool {
	switch k {
	case KindSend, KindExec, KindLost, KindTimeout, KindReplicate, KindExpire:
		return true // an expire carries one when a cleanup job deleted the key
	}
	return false
}

// CarriesKey reports whether events of the kind can name a key (Event.Keys,
// or a mark's Event.Lock): a scenario's match on key: fires only on these.
func (k Kind) CarriesKey() bool {
	switch k {
	case KindInit, KindExec, KindExpire, KindReplicate, KindMark, KindFault:
		return true // a node-restart fault carries the data the node came back with
	}
	return false
}

// The marks of a lock's life, which the checker reads: a lock algorithm
// reports each with the lock it is about (Proc.MarkLock).
const (
	MarkAcquired       = "acquired"        // the thread holds the lock (once per nesting level)
	MarkEnter          = "enter"           // it enters the critical section
	MarkLeave          = "leave"           // it leaves the critical section
	MarkReleased       = "released"        // it gave one level of the lock back
	MarkReleaseRefused = "release-refused" // its release found the lock no longer its own
	MarkReleaseFailed  = "release-failed"  // its release failed (an error)
	MarkGaveUp         = "gave-up"         // it stopped trying to acquire
	MarkReenter        = "reenter"         // it asks again for a lock it holds
	MarkKept           = "kept"            // its request ends holding the lock, for a later callback
	MarkToken          = "token"           // the fencing token of its lease: "fencing token N"
)

// The marks of the deduct task, the work inside the critical section: a
// fault placed on read falls between the task's read of the stock and its
// write (on enter, it falls before the read).
const (
	MarkRead   = "read"   // it has read the stock and not yet written it back
	MarkDeduct = "deduct" // it wrote the stock back, one less
)

// KeyState is the state of one key on one node right after an event.
type KeyState struct {
	Key    string `json:"key"`
	Type   string `json:"type,omitempty"`  // "string", "hash", ... or "" when the key is gone
	Value  string `json:"value,omitempty"` // a string's value, or a hash as field=value pairs
	Owner  string `json:"owner,omitempty"` // the client whose token the value holds, if any
	TTL    int64  `json:"ttl"`             // remaining time to live in ms; -1 none, -2 gone
	Expire int64  `json:"expire,omitempty"`
}

// Exists reports whether the key exists.
func (k KeyState) Exists() bool { return k.TTL != -2 }

// String gives the key's canonical text form: key="value"(owner) ttl=3s.
// It is always one line, and each part reads back exactly: a key or owner
// that is not a plain name is Go-quoted, and so is a hash's field=value
// list when it holds a control character, a quote, a backslash or a brace.
func (k KeyState) String() string {
	key := field(k.Key)
	if !k.Exists() {
		return key + "=(gone)"
	}
	var b strings.Builder
	b.WriteString(key)
	b.WriteByte('=')
	if k.Type == "string" {
		b.WriteString(strconv.Quote(k.Value))
	} else if hasBreaks(k.Value) || strings.ContainsAny(k.Value, "{}\"\\") {
		b.WriteString("{" + strconv.Quote(k.Value) + "}")
	} else {
		b.WriteString("{" + k.Value + "}")
	}
	if k.Owner != "" {
		b.WriteString("(" + field(k.Owner) + ")")
	}
	if k.TTL >= 0 {
		b.WriteString(" ttl=" + FormatTime(time.Duration(k.TTL)*time.Millisecond))
	}
	return b.String()
}

// Text is a sentence in English and Chinese.
type Text = fact.Text

// Event is one thing that happened in a world. Seq numbers events from 1;
// Step is the engine step that produced it (0 for setup). T is virtual time
// since the world's start.
type Event struct {
	Seq    int           `json:"seq"`
	Step   int           `json:"step"`
	T      time.Duration `json:"t"`
	Kind   Kind          `json:"kind"`
	Client string        `json:"client,omitempty"`
	Thread string        `json:"thread,omitempty"`
	Node   string        `json:"node,omitempty"`
	Req    int           `json:"req,omitempty"`   // seq of the send event a request's events belong to
	Sent   time.Duration `json:"sent,omitempty"`  // for exec, lost and timeout: when the request was sent
	Until  time.Duration `json:"until,omitempty"` // for exec on a real server: the latest the server can have run it (T is the earliest); 0: exactly at T
	Cmd    []string      `json:"cmd,omitempty"`
	Script string        `json:"script,omitempty"` // for EVAL/EVALSHA of a known script: its name (compare_and_delete.lua)
	Reply  string        `json:"reply,omitempty"`
	Answer Answer        `json:"answer,omitzero"` // exec and reply: the reply's type and gist (answer.go)
	Keys   []KeyState    `json:"keys,omitempty"`
	Name   string        `json:"name,omitempty"` // the mark, fault or verdict name
	Lock   string        `json:"lock,omitempty"` // for a mark: the lock (its key) the step is about
	Fact   *fact.Fact    `json:"fact,omitempty"` // what the event says in words, as data (package fact renders it)
	Say    *Text         `json:"say,omitempty"`
	Refs   []int         `json:"refs,omitempty"` // seqs of the events a verdict or narration points at
	Src    *Source       `json:"src,omitempty"`  // send and exec: the lock code's line that issued the command (source.go)
}

// Applied reports whether a fault event's fault took effect: a fault the
// engine refused (a node already down, say) is logged with a NotApplied
// fact, and changes nothing.
func (e *Event) Applied() bool {
	return e.Kind != KindFault || e.Fact == nil || e.Fact.Key != fact.NotApplied
}

// Effect is what a fault event did to the picture of the run (its kind's
// declared Effect; a pause's end goes on): EffectNone for any other event
// and for a fault the engine refused.
func (e *Event) Effect() Effect {
	if e.Kind != KindFault || !e.Applied() {
		return EffectNone
	}
	if e.Name == ResumeEvent {
		return EffectGoOn
	}
	a, _ := FaultKind(e.Name).Spec()
	return a.Effect
}

// Words is what the event says beyond its fields, in English and Chinese:
// its fact as the catalogue renders it.
func (e *Event) Words() Text { return e.Fact.Render() }

// Failed reports whether a done event's thread ended with an error (its
// fact states the error).
func (e *Event) Failed() bool { return e.Kind == KindDone && e.Fact != nil }

// FencingToken is the fencing token a token mark reports; ok is false for
// any other event.
func (e *Event) FencingToken() (token int64, ok bool) {
	if e.Kind != KindMark || e.Name != MarkToken || e.Fact == nil || e.Fact.Key != fact.Token {
		return 0, false
	}
	return e.Fact.Token, true
}

// Who is the actor of the event: client (with thread when not "main") or node.
func (e *Event) Who() string {
	if e.Client == "" {
		return e.Node
	}
	if e.Thread != "" && e.Thread != "main" {
		return e.Client + "/" + e.Thread
	}
	return e.Client
}

// String is the event's one canonical text line, used by the CLI, golden
// tests and captions:
//
//	#12 1.002s exec redis <- A: SET lock 7f3a NX PX 3000 -> OK | lock="7f3a"(A) ttl=3s
//
// An exec event on a real server, which ran the command at a moment known
// only between T and Until, gives both: #12 1.002s..1.004s exec ...
//
// The line never breaks, and each field reads back as it was: a name (a
// client, thread, node, mark, lock, key or owner) that is not plain is
// Go-quoted, so it cannot add a field of its own; control characters,
// line separators and backslashes in command arguments, replies and notes
// are escaped (see Escape and FormatCmd), so no key or note can add a line
// to a log; and the separators that follow a reply or a note are escaped
// inside them. The JSON form of the event holds the exact bytes.
func (e *Event) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "#%d %s", e.Seq, e.Line(e.Note().En))
	if len(e.Refs) > 0 {
		b.WriteString(" [")
		for i, r := range e.Refs {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString("#" + strconv.Itoa(r))
		}
		b.WriteByte(']')
	}
	return b.String()
}

// Note is what the event says in words: a verdict's (or a say's)
// sentence, else its fact's (Words). The events it cites are in its
// Cites.
func (e *Event) Note() Text {
	if e.Say != nil {
		return *e.Say
	}
	return e.Words()
}

// Line is the event's canonical line (String) without its sequence number
// and the events it points at, with note for its note: the event's own
// (Note().En), or the same with its citations written otherwise
// (Text.Cite).
func (e *Event) Line(note string) string {
	var b strings.Builder
	who, node := actor(e.Who()), actor(e.Node)
	when := FormatTime(e.T)
	if e.Until > e.T {
		when += ".." + FormatTime(e.Until)
	}
	fmt.Fprintf(&b, "%s %s ", when, field(string(e.Kind)))
	switch e.Kind {
	case KindSend:
		fmt.Fprintf(&b, "%s -> %s: %s", who, node, e.CmdText())
	case KindExec:
		fmt.Fprintf(&b, "%s <- %s: %s -> %s", node, who, e.CmdText(), escapeReply(e.Reply))
	case KindReply, KindPush:
		fmt.Fprintf(&b, "%s <- %s: %s", who, node, escapeReply(e.Reply))
	case KindLost, KindTimeout:
		fmt.Fprintf(&b, "%s %s: %s", who, node, e.CmdText())
	case KindExpire, KindInit:
		b.WriteString(node)
	case KindVerdict:
		b.WriteString(field(e.Name))
	default:
		if e.Client != "" && e.Node != "" {
			who += " " + node
		}
		b.WriteString(who)
		if e.Name != "" {
			b.WriteString(" " + field(e.Name))
		}
		if e.Lock != "" {
			b.WriteString(" " + field(e.Lock))
		}
	}
	for i, k := range e.Keys {
		if i == 0 {
			b.WriteString(" | ")
		} else {
			b.WriteString(", ")
		}
		b.WriteString(k.String())
	}
	if note != "" {
		b.WriteString(" -- " + escapeNote(note))
	}
	return b.String()
}

// CmdText is the event's command as its canonical line shows it: FormatCmd,
// except that an EVAL or EVALSHA of a script the world knows by name shows
// the name where Redis got the script's body or SHA1 (EVALSHA
// compare_and_delete.lua 1 lock 7f3a). Cmd keeps what Redis ran.
func (e *Event) CmdText() string {
	if e.Script == "" || len(e.Cmd) < 2 || !isEval(e.Cmd[0]) {
		return FormatCmd(e.Cmd)
	}
	named := append([]string{e.Cmd[0], e.Script}, e.Cmd[2:]...)
	return FormatCmd(named)
}

// isEval reports whether a command name runs a Lua script by body or SHA1.
func isEval(name string) bool {
	return strings.EqualFold(name, "evalsha") || strings.EqualFold(name, "eval")
}

// FormatTime writes a virtual time in seconds with millisecond precision,
// or microseconds where they matter: 0s, 1.5s, 0.0005s (fact.Seconds).
func FormatTime(d time.Duration) string { return fact.Seconds(d) }

// FormatCmd writes a command as redis-cli would show it, quoting arguments
// that are empty or hold spaces, quotes or control characters (so that the
// text stays on one line), and shortening long Lua script bodies.
func FormatCmd(args []string) string {
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		if i == 1 && len(a) > 40 && len(args) > 0 && strings.EqualFold(args[0], "eval") {
			a = "<script>"
		}
		if a == "" || strings.ContainsAny(a, " \t\n\"'") || hasBreaks(a) {
			a = strconv.Quote(a)
		}
		b.WriteString(a)
	}
	return b.String()
}

// readOnly are the commands that never change a key: a key they show gone
// or changed was changed by time (an expiry), not by them.
var readOnly = map[string]bool{"GET": true, "MGET": true, "EXISTS": true, "TTL": true, "PTTL": true, "TYPE": true,
	"HGET": true, "HEXISTS": true, "HGETALL": true, "HLEN": true, "HKEYS": true, "HVALS": true, "WATCH": true,
	"UNWATCH": true, "WAIT": true, "SMEMBERS": true, "SISMEMBER": true, "SCARD": true, "SRANDMEMBER": true,
	"LRANGE": true, "LLEN": true, "STRLEN": true, "TIME": true, "PING": true, "SELECT": true, "SCAN": true}

// Writes reports whether a client command can change keys (anything but
// the read-only commands).
func Writes(cmd []string) bool { return len(cmd) > 0 && !readOnly[strings.ToUpper(cmd[0])] }
