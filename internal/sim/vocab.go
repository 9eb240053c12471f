package sim

import (
	"time"

	"github.com/lockstep/lockstep/internal/fact"
)

// The vocabulary of a run: the fault kinds and schedule actions (Actions)
// and the verdict names (Verdicts), each declared once. The engine, the
// scenario checker and its JSON schema, the schedule search, the server's
// welcome message and the page's fault menu all read them from here; only
// what a kind does is written elsewhere (its case in World.Apply, its
// phrase in the narration, its rule in the checker).

// Target is what a fault or a schedule action hits.
type Target string

// The targets.
const (
	// TargetClient: a client (client: required). A dropped request or
	// reply may also name a node: then only a message to or from it is lost.
	TargetClient Target = "client"
	// TargetNode: a node (node: required).
	TargetNode Target = "node"
	// TargetLink: the link between a node and a client (node: required;
	// without client: the links to every client).
	TargetLink Target = "link"
)

// Amount is the size a fault takes, and the field that holds it.
type Amount string

// The amounts.
const (
	AmountNone     Amount = "none"     // no size
	AmountDuration Amount = "duration" // for: how long; more than 0 when given
	AmountJump     Amount = "jump"     // by: how far, forward or back; not 0 when given
	AmountOffset   Amount = "offset"   // by: how far ahead; 0 is a value (the clock runs right)
)

// Field is the name of the scenario field that holds the amount: "for",
// "by", or "" for none.
func (a Amount) Field() string {
	switch a {
	case AmountDuration:
		return "for"
	case AmountJump, AmountOffset:
		return "by"
	}
	return ""
}

// Search says whether a schedule search places a kind, and how.
type Search string

// The ways a search places a kind.
const (
	SearchNever Search = ""      // a search never places it
	SearchPlain Search = "plain" // placed without an amount
	// SearchSized: placed with sizes up to its budget entry's max; the max
	// is needed when the amount is Required, else it may be left out (the
	// fault then lasts: a node stays down, a link cut).
	SearchSized Search = "sized"
)

// NodeState is which nodes a node or link kind applies to.
type NodeState string

// The node states a kind applies to.
const (
	NodeUp     NodeState = "up"     // a node that is up
	NodeDown   NodeState = "down"   // a node that is down
	NodeMaster NodeState = "master" // a master with a replica, up
)

// Effect is what a fault does to the picture of a run: which stretch of a
// lane it opens or closes. The page draws effects, never fault kinds, and
// the view of the nodes reads them too: a new kind with an effect that
// exists needs no drawing code (docs/protocol.md, "Events").
type Effect string

// The effects.
const (
	EffectNone Effect = ""
	// EffectStop: the client stands still (its lane hatched) until it
	// goes on or dies.
	EffectStop Effect = "client-stops"
	// EffectGoOn: the client moves again: its hatched stretch ends.
	EffectGoOn Effect = "client-goes-on"
	// EffectDie: the client's process is gone (a cross on its lane); a
	// hatched stretch ends.
	EffectDie Effect = "client-dies"
	// EffectCut: the node is cut off from the client, or from all (a
	// dashed line beside the node) until mended.
	EffectCut Effect = "link-cut"
	// EffectMend: the node's cut ends.
	EffectMend Effect = "link-mended"
	// EffectDown: the node is down (a cross, then a grey stretch on its
	// lane); its keys are out of reach.
	EffectDown Effect = "node-down"
	// EffectUp: the node is back: its grey stretch ends, and its keys are
	// what the event's keys say (the leases it held before are gone).
	EffectUp Effect = "node-up"
)

// Effects are the effects a fault event can have, in the order the
// protocol's documentation lists them.
var Effects = []Effect{EffectStop, EffectGoOn, EffectDie, EffectCut, EffectMend, EffectDown, EffectUp}

// ResumeEvent is the name of the fault event that ends a pause when its
// time is up (no scenario asks for it: a pause's For schedules it).
const ResumeEvent = "resume"

// Action declares one fault kind or schedule action: one row of Actions.
type Action struct {
	Do       string // the name in scenario files, the protocol and the event log
	Zh       string // its name in Chinese, as the page's fault menu and timeline say it (the catalogue's sim.action-…)
	Fault    bool   // a fault (a FaultKind), not a move such as step
	Target   Target
	Amount   Amount
	Required bool   // the amount must be given
	Hint     string // what the amount is, for the problem when it is missing: "how long, e.g. 1s"
	Search   Search
	// Menu says the page's fault menu offers it, with Default as its
	// amount (0: none), on a node in state Applies (node and link kinds);
	// MenuEmbedded, only on embedded Redis (not on real servers).
	Menu         bool
	MenuEmbedded bool
	Default      time.Duration
	Applies      NodeState
	// Effect is what the fault, applied, does to the picture of the run.
	Effect Effect
}

// StepAction is the Do of a schedule entry that moves a client by hand.
const StepAction = "step"

// Actions is the one table of fault kinds and schedule actions, in the
// order menus and messages list them.
var Actions = []Action{
	{Do: StepAction, Zh: fact.Say("sim.action-step").Zh, Target: TargetClient, Amount: AmountNone},
	{Do: string(FaultCrash), Zh: fact.Say("sim.action-crash").Zh, Fault: true, Target: TargetClient, Amount: AmountDuration, Search: SearchPlain, Menu: true, Effect: EffectDie},
	{Do: string(FaultRestart), Zh: fact.Say("sim.action-restart").Zh, Fault: true, Target: TargetClient, Amount: AmountNone},
	{Do: string(FaultPause), Zh: fact.Say("sim.action-pause").Zh, Fault: true, Target: TargetClient, Amount: AmountDuration, Required: true, Hint: "how long, e.g. 1s",
		Search: SearchSized, Menu: true, Default: time.Second, Effect: EffectStop},
	{Do: string(FaultDropRequest), Zh: fact.Say("sim.action-drop-request").Zh, Fault: true, Target: TargetClient, Amount: AmountNone, Search: SearchPlain, Menu: true},
	{Do: string(FaultDropReply), Zh: fact.Say("sim.action-drop-reply").Zh, Fault: true, Target: TargetClient, Amount: AmountNone, Search: SearchPlain, Menu: true},
	{Do: string(FaultPartition), Zh: fact.Say("sim.action-partition").Zh, Fault: true, Target: TargetLink, Amount: AmountDuration, Search: SearchSized,
		Menu: true, Default: 2 * time.Second, Applies: NodeUp, Effect: EffectCut},
	{Do: string(FaultHeal), Zh: fact.Say("sim.action-heal").Zh, Fault: true, Target: TargetLink, Amount: AmountNone, Effect: EffectMend},
	{Do: string(FaultNodeCrash), Zh: fact.Say("sim.action-node-crash").Zh, Fault: true, Target: TargetNode, Amount: AmountDuration, Search: SearchSized, Menu: true, Applies: NodeUp,
		Effect: EffectDown},
	{Do: string(FaultNodeRestart), Zh: fact.Say("sim.action-node-restart").Zh, Fault: true, Target: TargetNode, Amount: AmountNone, Menu: true, Applies: NodeDown, Effect: EffectUp},
	{Do: string(FaultClockJump), Zh: fact.Say("sim.action-clock-jump").Zh, Fault: true, Target: TargetNode, Amount: AmountJump, Required: true, Hint: "how far, e.g. 5s or -5s",
		Search: SearchSized, Menu: true, Default: 5 * time.Second, Applies: NodeUp},
	{Do: string(FaultSkew), Zh: fact.Say("sim.action-skew").Zh, Fault: true, Target: TargetClient, Amount: AmountOffset, Required: true, Hint: "how far ahead the clock runs, e.g. 2s"},
	{Do: string(FaultFailover), Zh: fact.Say("sim.action-failover").Zh, Fault: true, Target: TargetNode, Amount: AmountNone, Search: SearchPlain, Menu: true, MenuEmbedded: true,
		Applies: NodeMaster, Effect: EffectDown},
}

// ActionOf gives the row of Actions for do, and whether there is one.
func ActionOf(do string) (Action, bool) {
	for _, a := range Actions {
		if a.Do == do {
			return a, true
		}
	}
	return Action{}, false
}

// ZhName is an action's name in Chinese (its Do where it has none).
func ZhName(do string) string {
	if a, ok := ActionOf(do); ok && a.Zh != "" {
		return a.Zh
	}
	return do
}

// Spec gives the row of Actions for fault kind k, and whether there is one.
func (k FaultKind) Spec() (Action, bool) {
	a, ok := ActionOf(string(k))
	return a, ok && a.Fault
}

// NeedsAmount is the problem of a row whose required amount is missing:
// "pause needs for: how long, e.g. 1s", in English. Neither the engine
// (World.Apply) nor the scenario checker calls it: both render a
// fact.NeedsAmount made of the row, which the catalogue words in both
// languages; the tests hold that wording to this text.
func (a Action) NeedsAmount() string {
	return a.Do + " needs " + a.Amount.Field() + ": " + a.Hint
}

// NeedsClient says whether a row requires a client.
func (a Action) NeedsClient() bool { return a.Target == TargetClient }

// NeedsNode says whether a row requires a node.
func (a Action) NeedsNode() bool { return a.Target == TargetNode || a.Target == TargetLink }

// FaultKinds lists the fault kinds of Actions in order.
var FaultKinds = func() []FaultKind {
	var out []FaultKind
	for _, a := range Actions {
		if a.Fault {
			out = append(out, FaultKind(a.Do))
		}
	}
	return out
}()

// ScheduleActions lists the actions of Actions that are not faults (the
// moves a viewer records, such as step), in order.
var ScheduleActions = func() []string {
	var out []string
	for _, a := range Actions {
		if !a.Fault {
			out = append(out, a.Do)
		}
	}
	return out
}()

// SearchKinds lists the fault kinds a schedule search can place, in order.
var SearchKinds = func() []string {
	var out []string
	for _, a := range Actions {
		if a.Search != SearchNever {
			out = append(out, a.Do)
		}
	}
	return out
}()

// Verdict names: what the checker concludes about a run (docs/verdicts.md
// defines each). A verdict event (KindVerdict) carries one as its Name.
const (
	VerdictMutualExclusion = "mutual-exclusion" // two clients inside their critical sections at once
	VerdictOversell        = "oversell"         // more deductions written back than there was stock
	VerdictLostUpdate      = "lost-update"      // a write based on a value another client had changed
	VerdictForeignUnlock   = "foreign-unlock"   // a client removed a lock another client held
	VerdictDeadlock        = "deadlock"         // a key that never expires, held by no one who can release it
	VerdictStarvation      = "starvation"       // a live thread found the lock held by others for 10s or more, to the end
	VerdictStaleWrite      = "stale-write"      // the protected resource accepted a write from a client whose lease had ended
	VerdictNoProgress      = "no-progress"      // nobody ever acquired a lock or entered, though a thread kept trying for 10s or more
	VerdictSafe            = "safe"             // no violation; it stands alone
)

// Verdicts lists every verdict name, "safe" last.
var Verdicts = []string{VerdictMutualExclusion, VerdictOversell, VerdictLostUpdate, VerdictForeignUnlock,
	VerdictDeadlock, VerdictStarvation, VerdictStaleWrite, VerdictNoProgress, VerdictSafe}

// SetbackMarks are the marks that say something went wrong for the client
// that writes them: a release refused or failed, a renewal or extension
// lost, a vote short of quorum or too late, a write refused, a purchase
// missed, the stock sold out, a lock not replicated, giving up. The page
// draws them in the colour of trouble (the welcome message carries the
// list). A test finds every entry written by some run of the corpus.
var SetbackMarks = []string{MarkReleaseRefused, MarkReleaseFailed, MarkGaveUp, "extend-failed", "renew-failed",
	"renew-lost", "no-quorum", "too-late", "write-rejected", "missed", "sold-out", "not-replicated"}
