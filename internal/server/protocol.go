package server

import (
	"encoding/json"
	"time"

	"github.com/lockstep/lockstep/internal/check"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// ProtocolVersion is the version of the WebSocket protocol in
// docs/protocol.md. It changes whenever a message changes incompatibly.
const ProtocolVersion = 4

// Request is one message from the browser. Op names what to do; the other
// fields are the op's arguments. ID is echoed in the answer as Re.
type Request struct {
	ID       int             `json:"id,omitempty"`
	Op       string          `json:"op"`
	Session  string          `json:"session,omitempty"`  // hello: the session to resume
	Scenario string          `json:"scenario,omitempty"` // load: a built-in scenario id
	YAML     string          `json:"yaml,omitempty"`     // load, check: a scenario file's text
	Seed     *int64          `json:"seed,omitempty"`     // load, reset, seed
	Actions  []wireAction    `json:"actions,omitempty"`  // load: recorded actions to replay
	Step     *int            `json:"step,omitempty"`     // load, seek: the cursor to go to
	N        int             `json:"n,omitempty"`        // step: how many steps (default 1)
	Client   string          `json:"client,omitempty"`   // step-client
	Fault    *scenario.Fault `json:"fault,omitempty"`    // inject
	Speed    float64         `json:"speed,omitempty"`    // play: steps per second
	Strategy string          `json:"strategy,omitempty"` // explore: random, pct or exhaustive
	Budget   string          `json:"budget,omitempty"`   // explore: a fault budget such as "pause:5s,crash"
	With     string          `json:"with,omitempty"`     // compare: an algorithm or a scenario id (compare.go)
	Lock     string          `json:"lock,omitempty"`     // report-open, setup-open: the cell's lock
	Column   string          `json:"column,omitempty"`   // report-open, setup-open: the cell's column
	Faults   []string        `json:"faults,omitempty"`   // setup: the fault columns to search (none: every one)
	Form     *scenario.Form  `json:"form,omitempty"`     // setup-form: Check my lock's short form (setup_form.go)
	// Recording, with a live lesson's id: the run a share link carries
	// (live.Recording, encoded), shown as recorded (liverec.go).
	Recording string `json:"recording,omitempty"`

	teachRequest // load: challenge; play: beats (teach.go)
	classRequest // the class requests (class.go)
}

// wireAction is a recorded action as the share link carries it.
type wireAction = scenario.Action

// faultRow is one fault kind as the welcome message declares it: a row of
// sim.Actions. The page builds its fault menu from the rows with Menu set.
type faultRow struct {
	Do        string `json:"do"`
	Target    string `json:"target"`          // client, node or link
	Amount    string `json:"amount"`          // none, duration, jump or offset
	Field     string `json:"field,omitempty"` // the fault's field that holds the amount: for or by
	Required  bool   `json:"required,omitempty"`
	Menu      bool   `json:"menu,omitempty"`       // the page's fault menu offers it
	DefaultMS int64  `json:"default_ms,omitempty"` // the amount the menu gives it, in milliseconds
	Applies   string `json:"applies,omitempty"`    // node and link kinds: the nodes it applies to (up, down, master)
}

// Message is one message to the browser.
type Message struct {
	Type string `json:"type"` // welcome, state, error, yaml, checked, bye
	Re   int    `json:"re,omitempty"`
	// More: state, a part of a long run's state (pushParts): more parts
	// follow, the last with the snapshot; the page takes them as one.
	More    bool           `json:"more,omitempty"`
	V       int            `json:"v,omitempty"`
	Session string         `json:"session,omitempty"`
	Loaded  bool           `json:"loaded,omitempty"` // welcome: the session already holds a run (its state follows)
	Error   string         `json:"error,omitempty"`
	Code    string         `json:"code,omitempty"` // error: what went wrong, for the page's message catalogue
	Args    map[string]any `json:"args,omitempty"` // error: the code's arguments
	Errors  []lineError    `json:"errors,omitempty"`
	// Warnings: checked, for a good file: what it says that its run would
	// do otherwise than written (scenario.Warnings).
	Warnings []lineError    `json:"warnings,omitempty"`
	From     *int           `json:"from,omitempty"` // state: the browser keeps its first From events, then appends Events
	Events   []wireEvent    `json:"events,omitempty"`
	Snap     *Snapshot      `json:"snap,omitempty"`
	Catalog  []catalogEntry `json:"catalog,omitempty"`
	Faults   []faultRow     `json:"faults,omitempty"` // welcome: the fault kinds (sim.Actions)
	// Setbacks are the mark names the page draws as trouble (sim.SetbackMarks): welcome.
	Setbacks []string        `json:"setbacks,omitempty"`
	Limits   *Limits         `json:"limits,omitempty"`
	Real     string          `json:"real,omitempty"` // welcome: the real Redis servers runs are placed on ("": embedded Redis)
	Name     string          `json:"name,omitempty"`
	Text     string          `json:"text,omitempty"`
	Explore  *exploreSummary `json:"extra,omitempty"`   // explore-started, explore-progress, explore-done
	Compare  *compareAnswer  `json:"compare,omitempty"` // compare
	Report   *wireCard       `json:"report,omitempty"`  // report, report-done: the card (report.go)
	Setup    *wireSetup      `json:"setup,omitempty"`   // setup, setup-done: the card for a setup (setup.go)
	Form     *wireForm       `json:"form,omitempty"`    // setup-form: the form's choices and file (setup_form.go)
	Cell     *wireCell       `json:"cell,omitempty"`    // report-cell, setup-cell: the cell just decided
	Done     int             `json:"done,omitempty"`    // report-cell, setup-cell: cells decided so far
	Total    int             `json:"total,omitempty"`   // report-cell, setup-cell: cells in all
	Class    *classView      `json:"class,omitempty"`   // class: the room as this session sees it (class.go)
	Run      *remoteRun      `json:"run,omitempty"`     // class, to a remote: the teacher's run's line (classremote.go)
	Pairing  *remotePairing  `json:"pairing,omitempty"` // remote-link: a remote's one-time link
	Queue    []queuedView    `json:"queue,omitempty"`   // queue, and class to a remote: the questions queued (classqueue.go)
}

// lineError is one error of a scenario file, at a line and column when known.
type lineError struct {
	Line int    `json:"line,omitempty"`
	Col  int    `json:"col,omitempty"`
	Msg  string `json:"msg"`
	Zh   string `json:"zh,omitempty"` // the problem in Chinese
}

// catalogEntry describes one scenario the browser may load.
type catalogEntry struct {
	ID      string   `json:"id"`
	Title   sim.Text `json:"title"`
	Lesson  sim.Text `json:"lesson"`
	Expect  []string `json:"expect"`
	Clients []string `json:"clients"`
	Lab     bool     `json:"lab,omitempty"` // a lab (labs/*.yaml), not a lesson
	// Live names the service a lesson runs on in real time ("etcd"),
	// outside the engine; empty for the engine's scenarios.
	Live string `json:"live,omitempty"`
	// Needs, for a live lesson whose server cannot run on this machine,
	// says so in a few words (short) and what to install (say).
	Needs *liveNeeds `json:"needs,omitempty"`
}

// liveNeeds is what a live lesson's server lacks here.
type liveNeeds struct {
	Short sim.Text `json:"short"`
	Say   sim.Text `json:"say"`
}

// Snapshot is the state of a session at its cursor.
type Snapshot struct {
	Scenario string            `json:"scenario"` // id
	Title    sim.Text          `json:"title"`
	Lesson   sim.Text          `json:"lesson"`
	Custom   bool              `json:"custom,omitempty"` // loaded from YAML text, not the catalog
	Seed     int64             `json:"seed"`
	Step     int               `json:"step"`
	T        int64             `json:"t"` // virtual time, ns
	Ended    bool              `json:"ended"`
	Verdicts []string          `json:"verdicts"`
	Expect   []string          `json:"expect"`
	RealWhy  *sim.Text         `json:"realWhy,omitempty"` // on real Redis: why the lesson ends otherwise than on embedded Redis
	Live     *liveView         `json:"live,omitempty"`    // a run in real time on a live server (live.go)
	Clients  []string          `json:"clients"`
	Nodes    []lesson.NodeView `json:"nodes"`
	// Skews: how far each client's clock runs ahead of the world's at the
	// cursor, ns, for the clients whose clock is off (the time view).
	Skews   map[string]time.Duration `json:"skews,omitempty"`
	Pending []string                 `json:"pending"`
	Actions []wireAction             `json:"actions"`
	// ActionsFrom, when set, says that the browser keeps the first
	// ActionsFrom actions it holds and appends Actions: only what changed
	// travels (absent: Actions is the whole list).
	ActionsFrom *int           `json:"actionsFrom,omitempty"`
	Playing     bool           `json:"playing"`
	Speed       float64        `json:"speed"`
	Events      int            `json:"events"`         // length of the log at the cursor
	File        []catalogEntry `json:"file,omitempty"` // custom: every scenario of the loaded file
	// OffScript: a user action (a fault, a manual step) has taken the run
	// off its lesson's script; scripted lines have stopped and the story
	// is told from the events.
	OffScript bool `json:"offScript"`
	// OffScriptAt is the cursor at which it left (set when OffScript): the
	// lesson's chapters and expected verdict hold of the run up to there;
	// after it they are the lesson's plan, not this run.
	OffScriptAt int `json:"offScriptAt"`

	// Kept are the breaks the run's system stopped up to the cursor (a
	// stale write the fenced storage refused): no verdicts, what held.
	Kept []check.Kept `json:"kept,omitempty"`

	// The teaching tools (teach.go): each client's lock code file, the
	// lesson's chapters, its challenge.
	Code      map[string]string `json:"code,omitempty"`
	Chapters  json.RawMessage   `json:"chapters,omitempty"` // []lesson.Chapter, encoded once per lesson
	Challenge *challengeView    `json:"challenge,omitempty"`
	// Libs describes, by its directory in /source/, each library whose
	// own code a client runs (rows 18-19): the code view's header.
	Libs map[string]libView `json:"libs,omitempty"`
	// Own is the code of the scenario's own locks (locks:), by the path
	// the code view asks for: locks/<name>.yaml, scripts/<name>.<step>.lua.
	Own map[string]string `json:"own,omitempty"`
}
