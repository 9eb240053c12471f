package live

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/lockstep/lockstep/internal/check"
	"github.com/lockstep/lockstep/internal/sim"
)

// A run in real time cannot be replayed from its schedule: the same
// schedule gives the same verdict, not the same milliseconds. What is
// kept of it is its log, as recorded (each event's wall-clock stamp
// since the run's start, the verdicts where the checker gave them),
// with when and where it ran: a Recording. A share link carries one,
// compressed (Encode), and the receiver is shown that log, judged again
// by the lesson's checker (Replay), not a new run.

// Limits of a recording.
const (
	// MaxLink is the most a share link carries of a recording: its
	// compressed, base64url text (Encode). A lesson's run (at most 20 s)
	// is 2-6 KiB so; a link of 32 KiB opens in every browser.
	MaxLink = 32 << 10
	// maxJSON is the most a recording's text may inflate to.
	maxJSON = 1 << 20
	// maxEvents is the most events a recording may hold.
	maxEvents = 20000
)

// recordingVersion is the recording's format.
const recordingVersion = 1

// Recording is a live run kept: its log as recorded, where and when it
// ran.
type Recording struct {
	V       int         `json:"v"`
	Lesson  string      `json:"lesson"`  // the lesson's id
	Service string      `json:"service"` // the service ("etcd")
	Server  string      `json:"server"`  // where it ran (Run.Server)
	At      time.Time   `json:"at"`      // when it started, to the second, UTC
	Events  []sim.Event `json:"events"`  // its log, verdicts included
}

// ErrTooBig is Encode's error for a recording over MaxLink; its Size is
// the encoded size.
type ErrTooBig struct{ Size int }

func (e *ErrTooBig) Error() string {
	return fmt.Sprintf("live: the recording is %d KiB in a link, over the limit of %d KiB", e.Size>>10, MaxLink>>10)
}

// NewRecording keeps run, a run of lesson on svc that started at at.
func NewRecording(svc Service, lesson string, at time.Time, run Run) *Recording {
	return &Recording{V: recordingVersion, Lesson: lesson, Service: svc.Name(), Server: run.Server(),
		At: at.UTC().Truncate(time.Second), Events: run.Events()}
}

// Encode is the recording as a link carries it: its JSON, deflated, in
// base64url without padding; an *ErrTooBig over MaxLink.
func (r *Recording) Encode() (string, error) {
	var b bytes.Buffer
	w, err := flate.NewWriter(&b, flate.BestCompression)
	if err != nil {
		return "", err
	}
	if err := json.NewEncoder(w).Encode(r); err != nil {
		return "", err
	}
	if err := w.Close(); err != nil {
		return "", err
	}
	s := base64.RawURLEncoding.EncodeToString(b.Bytes())
	if len(s) > MaxLink {
		return "", &ErrTooBig{Size: len(s)}
	}
	return s, nil
}

// Decode reads a recording Encode made, refusing one over the limits
// (MaxLink, 1 MiB of JSON, 20,000 events) or not in its format.
func Decode(s string) (*Recording, error) {
	if len(s) > MaxLink {
		return nil, fmt.Errorf("live: a recording of %d KiB, over the limit of %d KiB", len(s)>>10, MaxLink>>10)
	}
	z, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("live: the recording is not base64url: %w", err)
	}
	js, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(z)), maxJSON+1))
	if err != nil {
		return nil, fmt.Errorf("live: the recording does not inflate: %w", err)
	}
	if len(js) > maxJSON {
		return nil, fmt.Errorf("live: the recording inflates past %d KiB", maxJSON>>10)
	}
	var r Recording
	if err := json.Unmarshal(js, &r); err != nil {
		return nil, fmt.Errorf("live: the recording is not one: %w", err)
	}
	if r.V != recordingVersion {
		return nil, fmt.Errorf("live: a recording of version %d, not %d", r.V, recordingVersion)
	}
	if len(r.Events) == 0 || len(r.Events) > maxEvents {
		return nil, fmt.Errorf("live: a recording of %d events (1 to %d)", len(r.Events), maxEvents)
	}
	return &r, nil
}

// errMismatch is Replay's error for a log whose verdicts are not the
// ones its events give.
var errMismatch = errors.New("live: the recording's verdicts are not those its events give")

// Replay is the recording as a run that has ended: its events judged
// again, in their order, by c (the checker the lesson's runs are judged
// by), which must find the verdicts the log holds, where it holds them;
// its critical sections are c's. A log whose stamps go back, whose events
// are of unknown kinds, or whose verdicts differ is refused.
func Replay(r *Recording, c *check.Checker) (Run, error) {
	got := make([]sim.Event, 0, len(r.Events))
	add := func(e sim.Event) {
		e.Seq = len(got) + 1
		got = append(got, e)
	}
	var last time.Duration
	for _, e := range r.Events {
		if !slices.Contains(sim.Kinds, e.Kind) {
			return nil, fmt.Errorf("live: event %d of the recording is of no kind a run logs (%q)", e.Seq, e.Kind)
		}
		if e.T < last {
			return nil, fmt.Errorf("live: event %d of the recording is stamped before the one before it", e.Seq)
		}
		last = e.T
		if e.Kind == sim.KindVerdict {
			continue // the checker gives them again
		}
		add(e)
		for _, v := range c.Observe(&got[len(got)-1]) {
			v.T = e.T
			add(v)
		}
	}
	for _, v := range c.Finish() {
		v.T = last
		add(v)
	}
	if !sameVerdicts(got, r.Events) {
		return nil, errMismatch
	}
	return &replay{rec: r, events: got, c: c}, nil
}

// sameVerdicts reports whether two logs are the same events with the
// same verdicts at the same places.
func sameVerdicts(a, b []sim.Event) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Kind != b[i].Kind || a[i].Seq != b[i].Seq || (a[i].Kind == sim.KindVerdict && (a[i].Name != b[i].Name || !slices.Equal(a[i].Refs, b[i].Refs))) {
			return false
		}
	}
	return true
}

// replay is a recording shown as a run that has ended.
type replay struct {
	rec    *Recording
	events []sim.Event
	c      *check.Checker
}

var ended = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

func (p *replay) Events() []sim.Event                  { return slices.Clone(p.events) }
func (p *replay) Sections(seq int) check.SectionChange { return p.c.Sections(seq) }
func (p *replay) Changed() <-chan struct{}             { return nil }
func (p *replay) Done() <-chan struct{}                { return ended }
func (p *replay) Err() error                           { return nil }
func (p *replay) Since() time.Duration                 { return p.events[len(p.events)-1].T }
func (p *replay) Server() string                       { return p.rec.Server }
func (p *replay) Stop()                                {}

// Judged is a Service that gives the checker its lessons' runs are
// judged by, so that a recording of one can be judged again (Replay).
type Judged interface {
	Checker(lesson string) *check.Checker
}
