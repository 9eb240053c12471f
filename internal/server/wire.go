package server

import (
	"github.com/lockstep/lockstep/internal/check"
	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/sim"
)

// wireEvent is an event as the page gets it: the protocol's own type
// (docs/protocol.md, "Events"), made from the engine's sim.Event at the
// edge by toWire, so that the engine can change its struct without
// changing the page's. TestWireEventIsDocumented holds the two to each
// other.
type wireEvent struct {
	Seq    int         `json:"seq"`
	Step   int         `json:"step"`
	T      int64       `json:"t"` // virtual time since the start, ns
	Kind   string      `json:"kind"`
	Client string      `json:"client,omitempty"`
	Thread string      `json:"thread,omitempty"`
	Node   string      `json:"node,omitempty"`
	Req    int         `json:"req,omitempty"`
	Sent   int64       `json:"sent,omitempty"`
	Until  int64       `json:"until,omitempty"`
	Cmd    []string    `json:"cmd,omitempty"`
	Script string      `json:"script,omitempty"`
	Reply  string      `json:"reply,omitempty"`
	Answer *wireAnswer `json:"answer,omitempty"`
	Keys   []wireKey   `json:"keys,omitempty"`
	Name   string      `json:"name,omitempty"`
	Lock   string      `json:"lock,omitempty"`
	Effect string      `json:"effect,omitempty"`
	Master string      `json:"master,omitempty"`
	Say    *sim.Text   `json:"say,omitempty"`
	Refs   []int       `json:"refs,omitempty"`
	Src    *wireSource `json:"src,omitempty"`
	// Text is the event's one line (sim.Event.String); Note, what it says
	// in words in both languages (its fact, rendered); Sections, who came
	// into or left a critical section with it.
	Text     string               `json:"text"`
	Note     *sim.Text            `json:"note,omitempty"`
	Sections *check.SectionChange `json:"cs,omitempty"`
}

// wireAnswer is a reply's type and gist (sim.Answer).
type wireAnswer struct {
	Type string `json:"type"`
	Gist string `json:"gist,omitempty"`
}

// wireKey is one key of one node right after an event (sim.KeyState).
type wireKey struct {
	Key    string `json:"key"`
	Type   string `json:"type,omitempty"`
	Value  string `json:"value,omitempty"`
	Owner  string `json:"owner,omitempty"`
	TTL    int64  `json:"ttl"`
	Expire int64  `json:"expire,omitempty"`
}

// wireSite is one frame of the lock code (sim.Site).
type wireSite struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Func string `json:"func,omitempty"`
}

// wireSource is the lock code's line that issued a command (sim.Source).
type wireSource struct {
	wireSite
	Via   []wireSite `json:"via,omitempty"`
	Calls []string   `json:"calls,omitempty"`
}

// toWire makes the protocol's event of the engine's: its fields, its one
// line, its words, and what it does to the picture (its Effect, and for a
// replica's init the master it follows), so that the page never reads
// the engine's facts.
func toWire(e *sim.Event) wireEvent {
	w := wireEvent{
		Seq: e.Seq, Step: e.Step, T: int64(e.T), Kind: string(e.Kind), Client: e.Client, Thread: e.Thread,
		Node: e.Node, Req: e.Req, Sent: int64(e.Sent), Until: int64(e.Until), Cmd: e.Cmd, Script: e.Script,
		Reply: e.Reply, Name: e.Name, Lock: e.Lock, Effect: string(e.Effect()), Say: e.Say, Refs: e.Refs,
		Text: e.String(),
	}
	if e.Answer.Type != "" {
		w.Answer = &wireAnswer{Type: string(e.Answer.Type), Gist: e.Answer.Gist}
	}
	for _, k := range e.Keys {
		w.Keys = append(w.Keys, wireKey{Key: k.Key, Type: k.Type, Value: k.Value, Owner: k.Owner, TTL: k.TTL, Expire: k.Expire})
	}
	if e.Src != nil {
		w.Src = &wireSource{wireSite: wireSite(e.Src.Site), Calls: e.Src.Calls}
		for _, v := range e.Src.Via {
			w.Src.Via = append(w.Src.Via, wireSite(v))
		}
	}
	if e.Kind == sim.KindInit && e.Fact != nil && e.Fact.Key == fact.ReplicaOf {
		w.Master = e.Fact.Node
	}
	if e.Fact != nil {
		note := e.Words()
		w.Note = &note
	}
	return w
}
