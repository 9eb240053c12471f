package check

import "github.com/lockstep/lockstep/internal/sim"

// Claim is one statement a verdict's explanation makes about the run, in a
// form a test can check against the log and a model of it: every event an
// explanation cites is the subject of a claim, and explain_test.go checks
// every claim of every verdict, on the catalog and on scenarios written
// outside it, against the reference checker's model. A claim that does
// not hold is an explanation that contradicts the log.
type Claim struct {
	Kind ClaimKind
	At   int // the event the claim is about
	// Until is a second event: the end of a span, or the event right
	// before which the claim holds; 0 for the end of the run.
	Until int
	Who   string // a thread as the log writes it (A, A/req2); with Inc, of that incarnation
	Inc   int    // the incarnation of Who's client (its crashes before it)
	Node  string
	Key   string
	Lock  string
	N     int64 // a count, a token or a stock, by kind
}

// ClaimKind names what a claim states.
type ClaimKind string

// The kinds of claim, each with what it states.
const (
	// ClaimEnter: At is Who's enter mark for Lock.
	ClaimEnter ClaimKind = "enter"
	// ClaimInside: Who, inside Lock since its enter mark At, was still
	// inside right before Until.
	ClaimInside ClaimKind = "inside"
	// ClaimRemoved: At is an exec by Who on Node after which Key, present
	// right before it, was gone.
	ClaimRemoved ClaimKind = "removed"
	// ClaimHeld: Who held Key on Node right before Until (0: at the end),
	// and had since At.
	ClaimHeld ClaimKind = "held"
	// ClaimBelieved: Who believed it held Lock right before Until (0: at
	// the end); with N = 0, that it did not.
	ClaimBelieved ClaimKind = "believed"
	// ClaimNoExpiry: at the end Key exists on Node and has no TTL.
	ClaimNoExpiry ClaimKind = "no-expiry"
	// ClaimCrashed: At is the crash of Who's client that ended incarnation
	// Inc.
	ClaimCrashed ClaimKind = "crashed"
	// ClaimEnded: At is Who's done event; N = 1 when it carries an error.
	ClaimEnded ClaimKind = "ended"
	// ClaimUnanswered: At is a lost (N = 0) or timeout (N = 1) event of
	// the request whose exec gave Who the Key on Node it holds since Until.
	ClaimUnanswered ClaimKind = "unanswered"
	// ClaimAsksSelf: Who, holding Key on Node since Until, wrote it N times
	// after that, and none of the writes changed it; At is its latest
	// reenter mark for Lock after Until, or else the first of those writes.
	ClaimAsksSelf ClaimKind = "asks-self"
	// ClaimRecovers: a recoverer of Lock (Who; "" for a service's job)
	// will not free Key on Node: N = 0 it is not live at the end (At: its
	// crash or its main thread's done), N = 1 its algorithm does not free
	// that value.
	ClaimRecovers ClaimKind = "not-recovered"
	// ClaimRefused: Who's attempts on Key from At to Until: N of them
	// found it held by threads of other incarnations, At the first and
	// Until the last, and from At to the end Who's incarnation never came
	// to hold the key nor marked acquiring or giving up any lock.
	ClaimRefused ClaimKind = "refused"
	// ClaimNoEntry: no thread marked acquiring a lock or entering a
	// critical section in the whole log.
	ClaimNoEntry ClaimKind = "no-entry"
	// ClaimTried: Who's tries to take a lock key (execs that made it a
	// holder of one, or found one held by others): N of them, At the
	// first and Until the last, at least StarveAfter apart.
	ClaimTried ClaimKind = "tried"
	// ClaimFree: at the end nobody holds Key on Node.
	ClaimFree ClaimKind = "free"
	// ClaimAccepted: At is an exec of a WRITE by Who on Node answered OK.
	ClaimAccepted ClaimKind = "accepted"
	// ClaimLease: client Who's incarnation Inc came to hold Lock (on a
	// quorum of N serving nodes) with event At, and fell below the quorum
	// with event Until (0: At only).
	ClaimLease ClaimKind = "lease"
	// ClaimHolding: client Who's incarnation Inc did not hold Lock right
	// before Until.
	ClaimHolding ClaimKind = "not-holding"
	// ClaimToken: At is a token mark of Who's client for Lock issuing N.
	ClaimToken ClaimKind = "token"
	// ClaimDerived: the stock write At by Who was derived from its read
	// Until: Who's latest GET of the stock before At.
	ClaimDerived ClaimKind = "derived"
	// ClaimOverwrote: when the write At executed, the latest version of
	// the stock on its node was the one written (or first shown) at Until.
	ClaimOverwrote ClaimKind = "overwrote"
	// ClaimReleased: At is Who's released mark for Lock, after Until;
	// with N 1, its release-failed mark (a release it tried that failed).
	ClaimReleased ClaimKind = "released"
	// ClaimPromoted: At is an applied failover that promoted replica Node.
	ClaimPromoted ClaimKind = "promoted"
	// ClaimFailover: At is the applied failover of Node.
	ClaimFailover ClaimKind = "failover"
	// ClaimSales: N stock writes were derived from reads of a positive
	// stock.
	ClaimSales ClaimKind = "sales"
	// ClaimInitial: the stock's init value is N.
	ClaimInitial ClaimKind = "initial"
	// ClaimNegative: the write At set the stock below zero (to N).
	ClaimNegative ClaimKind = "negative"
)

// Explained is a verdict with the claims its explanation makes.
type Explained struct {
	Name   string
	Refs   []int
	Claims []Claim
}

// Explained lists every verdict the checker gave, in the order it gave
// them, each with the claims of its explanation.
func (c *Checker) Explained() []Explained { return c.explained }

// claimed is a verdict event and its claims, as a rule reports it; with
// kept set, it is no verdict but a break the run's system stopped (Kept).
type claimed struct {
	ev     sim.Event
	claims []Claim
	kept   bool
}

// Kept is a break the system itself stopped in this run: an invariant a
// verdict would have named, had the system not refused the step that
// breaks it (a fenced storage refusing the write of a client that no
// longer holds its lock). It is no verdict: the run's verdicts say what
// was broken, a kept line what held where it could have broken. Name is
// the verdict it avoided; Seq the event where it held.
type Kept struct {
	Name string   `json:"name"`
	Seq  int      `json:"seq"`
	Refs []int    `json:"refs"`
	Say  sim.Text `json:"say"`
}

// Kept lists the breaks the system stopped so far, in the order they
// happened.
func (c *Checker) Kept() []Kept { return c.kept }
