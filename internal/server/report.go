package server

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/lockstep/lockstep/internal/embedded"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/report"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// The report card in the server ("Which lock?"): computed once, when a
// page first asks for it, shared by every session and kept for the life
// of the process (one build: the card depends on nothing else). Its
// searches run as long work: each of its workers holds a bulk slot and an
// engine slot for a slice of at most sliceTime, then lets others have
// them, so a session's short requests still find a CPU.
const (
	cardTime      = 10 * time.Minute      // the whole card, sliced, at most
	cardFinishTry = 10 * time.Millisecond // between attempts to hand the card to a busy session
)

// wireCard is the card as the page draws it: no counterexamples (a cell
// that has one says so, and report-open loads it).
type wireCard struct {
	Columns []wireColumn `json:"columns"`
	Bound   sim.Text     `json:"bound"`
	Legend  sim.Text     `json:"legend"`
	Rows    []*wireRow   `json:"rows"`
	Done    int          `json:"done"`
	Total   int          `json:"total"`
	Running bool         `json:"running,omitempty"`
	// Stored: the card is the one computed for this build and carried by
	// the binary (docs/choosing-a-lock.json), not computed by this server.
	Stored bool       `json:"stored,omitempty"`
	Error  *wireError `json:"error,omitempty"` // why the card stopped before its end
	// Live are the rows of locks on a live server (etcd, ZooKeeper), each
	// cell a sample of real-time runs, not a search (report.Card.Live:
	// only a stored card has them), and LiveLegend what their marks say.
	Live       []*wireRow `json:"live,omitempty"`
	LiveLegend *sim.Text  `json:"live_legend,omitempty"`
}

// wireError is an error inside another message, as an error message
// carries it: its code, the code's arguments and the English text.
type wireError struct {
	Code  string         `json:"code"`
	Args  map[string]any `json:"args,omitempty"`
	Error string         `json:"error"`
}

// cardError is why the card stopped: its deadline passed, or a row or a
// cell failed (report.Error says which, in both languages).
func cardError(err error) *wireError {
	var re *report.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		err = coded("report-deadline", map[string]any{"max": cardTime.String()}, "report: the card's %s ran out before every cell was searched", cardTime)
	case errors.As(err, &re):
		err = coded("report-failed", map[string]any{"detail": re.Words}, "%s", re.Words.En)
	}
	m := errorMessage(0, err)
	return &wireError{Code: m.Code, Args: m.Args, Error: m.Error}
}

type wireColumn struct {
	ID    string   `json:"id"`
	Title sim.Text `json:"title"`
	What  sim.Text `json:"what"`
}

type wireRow struct {
	Lock    string   `json:"lock"`
	Catalog int      `json:"catalog"`
	Title   string   `json:"title"`
	Name    sim.Text `json:"name"` // the lock in words (report.Name)
	// Within is the bound its ✓ hold within, short ("2×1 · 1s") and in
	// words (report.Row.Within).
	Within     sim.Text    `json:"within"`
	WithinText sim.Text    `json:"within_text"`
	Trips      sim.Text    `json:"trips"`
	Needs      sim.Text    `json:"needs"`
	Advice     sim.Text    `json:"advice"`
	Cells      []*wireCell `json:"cells"`
	// Yours: on the card for a setup, a lock the user's scenario runs
	// (its first rows); their Within is the user's workload.
	Yours bool `json:"yours,omitempty"`

	// Sample, for a live row, says how many real-time runs a cell, on
	// which server, when and on what machine.
	Sample *sim.Text `json:"sample,omitempty"`
}

// wireCell is one cell; Kind "" while it is being searched.
type wireCell struct {
	Lock    string   `json:"lock"`
	Column  string   `json:"column"`
	Kind    string   `json:"kind,omitempty"`
	Verdict string   `json:"verdict,omitempty"`
	Text    sim.Text `json:"text"`
	// Replay: the cell has a schedule to open in the timeline (a ✗'s
	// counterexample, or the refused write a fencing ✓ rests on).
	Replay bool `json:"replay,omitempty"`
	// Runs and Broken: a live cell's real-time runs, and how many of them
	// broke the lock.
	Runs   int `json:"runs,omitempty"`
	Broken int `json:"broken,omitempty"`
}

// cardJob is the server's card: not started, running, or done.
type cardJob struct {
	mu      sync.Mutex
	started bool
	card    *report.Card // the rows, once probed; every cell once done
	// decided are the cells of a running card, by lock and column, as
	// Progress told them: the card's workers write its rows' cells under
	// a mutex of their own, so a running card's rows are not read here.
	decided map[[2]string]*report.Cell
	wire    *wireCard
	subs    map[*session]bool
	cancel  context.CancelFunc
	done    chan struct{}
	runs    int // cards computed: one per process (tests read it)
}

func wireCellOf(row *report.Row, c *report.Cell) *wireCell {
	return &wireCell{Lock: row.Algorithm, Column: c.Column, Kind: c.Kind, Verdict: c.Verdict, Text: c.Text(row),
		Replay: c.Counterexample != nil || c.Example != nil}
}

// wireOf is the card's rows as drawn, with the cells done so far.
func wireOf(card *report.Card) []*wireRow {
	rows := make([]*wireRow, len(card.Rows))
	for i, r := range card.Rows {
		w := &wireRow{Lock: r.Algorithm, Catalog: r.Catalog, Title: r.Title, Name: report.Name(r.Algorithm), Advice: r.Advice,
			Trips: sim.Text{En: r.Trips("en"), Zh: r.Trips("zh")}, Needs: r.NeedsText()}
		w.Within, w.WithinText = r.Within()
		if r.Bound != nil { // the card for a setup: the user's workload
			w.Within, w.WithinText, w.Yours = *r.Bound, *r.Bound, r.Yours
		}
		for _, c := range r.Cells {
			if c.Kind == "" {
				w.Cells = append(w.Cells, &wireCell{Lock: r.Algorithm, Column: c.Column})
			} else {
				w.Cells = append(w.Cells, wireCellOf(r, c))
			}
		}
		rows[i] = w
	}
	return rows
}

// clone copies the card for a message: its rows and their cell lists,
// which the card's workers change (a cell itself is never changed, only
// replaced).
func (w *wireCard) clone() *wireCard {
	out := *w
	out.Rows = make([]*wireRow, len(w.Rows))
	for i, r := range w.Rows {
		rc := *r
		rc.Cells = slices.Clone(r.Cells)
		out.Rows[i] = &rc
	}
	return &out
}

func newWireCard() *wireCard {
	return &wireCard{Bound: report.Bound(), Legend: report.Legend(), Running: true}
}

func wireColumns(card *report.Card) []wireColumn {
	var out []wireColumn
	for _, c := range card.Columns {
		out = append(out, wireColumn{ID: c.ID, Title: c.Title, What: c.What})
	}
	return out
}

// openReport subscribes the session to the card, starting it if nobody
// has, and answers with the card as it stands; report-cell messages
// follow as cells are decided, then report-done.
func (s *session) openReport() (*Message, error) {
	if s.srv.opts.Servers != nil {
		return nil, coded("report-real", nil, "report: the card runs on embedded Redis only, not on real servers")
	}
	j := &s.srv.card
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.subs == nil {
		j.subs = map[*session]bool{}
	}
	if j.wire != nil && !j.wire.Running {
		return &Message{Type: "report", Report: j.wire.clone()}, nil
	}
	if !j.started && s.srv.storedCard(j) {
		return &Message{Type: "report", Report: j.wire.clone()}, nil
	}
	j.subs[s] = true
	if !j.started {
		j.started = true
		j.runs++
		j.wire = newWireCard()
		j.decided = map[[2]string]*report.Cell{}
		j.done = make(chan struct{})
		ctx, cancel := context.WithTimeout(context.Background(), cardTime)
		j.cancel = cancel
		go s.srv.runCard(ctx)
	}
	return &Message{Type: "report", Report: j.wire.clone()}, nil
}

// storedCard takes the card this build carries (Options.Card) as the
// server's, done, when the whole card is asked for and the stored one
// reads back as this code's; j.mu is held. It reports whether it did.
func (srv *Server) storedCard(j *cardJob) bool {
	if srv.opts.Card == nil || srv.opts.ReportLocks != nil || srv.opts.ReportColumns != nil {
		return false
	}
	card, err := report.Decode(srv.opts.Card)
	if err != nil {
		srv.opts.Logf("report: computing the card: the stored one is not this build's: %v", err)
		return false
	}
	j.started, j.card = true, card
	j.wire = newWireCard()
	j.wire.Rows, j.wire.Columns = wireOf(card), wireColumns(card)
	j.wire.Total = len(card.Rows) * len(card.Columns)
	j.wire.Done, j.wire.Running, j.wire.Stored = j.wire.Total, false, true
	j.wire.Live = wireLive(card)
	if len(j.wire.Live) > 0 {
		legend := report.LiveLegend()
		j.wire.LiveLegend = &legend
	}
	return true
}

// wireLive is the card's live rows as drawn: named in words with the
// write they make, each with where and when its runs ran.
func wireLive(card *report.Card) []*wireRow {
	var out []*wireRow
	for _, r := range card.Live {
		name := report.Name(r.Algorithm)
		s := r.Sample
		w := &wireRow{Lock: r.Algorithm, Title: r.Title, Advice: r.Advice, Needs: r.NeedsText(),
			Name: sim.Text{En: name.En + " (" + r.Variant + ")", Zh: name.Zh + "（" + r.Variant + "）"},
			Sample: &sim.Text{ // the machine is in docs/choosing-a-lock.md
				En: fmt.Sprintf("%d real-time runs a cell, %s, on %s", s.Runs, s.Date, s.Server),
				Zh: fmt.Sprintf("每格 %d 次真实时间运行，%s，%s", s.Runs, s.Date, s.Server)}}
		for _, c := range r.Cells {
			wc := wireCellOf(r, c)
			wc.Runs, wc.Broken = c.Runs, c.Broken
			w.Cells = append(w.Cells, wc)
		}
		out = append(out, w)
	}
	return out
}

// runCard computes the card, telling the subscribed sessions of every
// cell.
func (srv *Server) runCard(ctx context.Context) {
	j := &srv.card
	defer close(j.done)
	defer j.cancel()
	card, err := report.Build(ctx, report.Options{
		Workers:    bulkSlots(),
		Algorithms: srv.opts.ReportLocks,
		Columns:    srv.opts.ReportColumns,
		Started: func(c *report.Card) {
			j.mu.Lock()
			j.card = c
			j.wire.Rows, j.wire.Columns = wireOf(c), wireColumns(c)
			j.wire.Total = len(c.Rows) * len(c.Columns)
			subs := srv.cardSubs()
			j.mu.Unlock()
			// The rows are known: every subscriber gets them (the card
			// it was answered with had none), so that the cells that
			// follow have a row to fill in.
			for _, sess := range subs {
				go srv.sendCard(ctx, sess, "report")
			}
		},
		Worker: func() (func() error, func()) { sl := &slicer{srv: srv, ctx: ctx}; return sl.yield, sl.release },
		Progress: func(lock string, c *report.Cell, done, total int) {
			j.mu.Lock()
			j.decided[[2]string{lock, c.Column}] = c
			var wc *wireCell
			for _, r := range j.card.Rows {
				if r.Algorithm == lock {
					wc = wireCellOf(r, c)
				}
			}
			j.wire.Done = done
			for _, r := range j.wire.Rows {
				if r.Lock == lock {
					for i, x := range r.Cells {
						if x.Column == c.Column {
							r.Cells[i] = wc
						}
					}
				}
			}
			subs := srv.cardSubs()
			j.mu.Unlock()
			// Dropped for a session busy at that moment: report-done
			// carries every cell.
			msg := &Message{Type: "report-cell", Cell: wc, Done: done, Total: total}
			for _, sess := range subs {
				sess.do(func() {
					if sess.conn != nil {
						sess.conn.enqueue(msg)
					}
				})
			}
		},
	})
	j.mu.Lock()
	if card != nil {
		j.card = card
		j.wire.Rows = wireOf(card)
	}
	j.wire.Running = false
	if err != nil {
		j.wire.Error = cardError(err)
	}
	subs := srv.cardSubs()
	j.subs = map[*session]bool{}
	j.mu.Unlock()
	for _, sess := range subs {
		go srv.sendCard(ctx, sess, "report-done")
	}
}

// sendCard hands the card, as it stands when the session takes it, to a
// session, trying again while the session is busy: the rows (report) and
// the end (report-done) must not be dropped as a report-cell may be. The
// card is copied when sent, so a late copy never undoes a later cell.
func (srv *Server) sendCard(ctx context.Context, sess *session, typ string) {
	j := &srv.card
	for !sess.do(func() {
		if sess.conn == nil {
			return
		}
		j.mu.Lock()
		card := j.wire.clone()
		j.mu.Unlock()
		if !card.Running {
			typ = "report-done"
		}
		sess.conn.enqueue(&Message{Type: typ, Report: card})
	}) {
		select {
		case <-sess.quit:
			return
		case <-ctx.Done():
			return
		case <-time.After(cardFinishTry):
		}
	}
}

// cardSubs lists the card's subscribers; the caller holds j.mu.
func (srv *Server) cardSubs() []*session {
	out := make([]*session, 0, len(srv.card.subs))
	for sess := range srv.card.subs {
		out = append(out, sess)
	}
	return out
}

// stopCard cancels the card's searches and waits for them (Close).
func (srv *Server) stopCard() {
	j := &srv.card
	j.mu.Lock()
	cancel, done := j.cancel, j.done
	j.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
}

// openCell loads a cell's counterexample (or the refused write a
// fencing ✓ rests on) as the session's run, at its end, as a found
// schedule is loaded.
func (s *session) openCell(lock, column string) error {
	j := &s.srv.card
	j.mu.Lock()
	var rec *scenario.Scenario
	var c *report.Cell
	switch {
	case j.wire != nil && j.wire.Running:
		c = j.decided[[2]string{lock, column}]
	case j.card != nil:
		_, c = j.card.Find(lock, column)
	}
	if c != nil && c.Kind != "" {
		rec = c.Counterexample
		if rec == nil {
			rec = c.Example
		}
	}
	j.mu.Unlock()
	if rec == nil {
		lock, column = short(lock), short(column) // echoed: without the request's control characters
		return coded("report-cell", map[string]any{"lock": lock, "column": column},
			"report: the cell %s/%s has no schedule to open (not decided yet, or nothing found)", lock, column)
	}
	return s.openAtEnd(rec, s.file) // the file's scenarios stay in the picker
}

// openAtEnd makes a card cell's schedule the session's run, seeked to its
// end within the step cap: the catalog card's report-open and the setup
// card's setup-open.
func (s *session) openAtEnd(rec *scenario.Scenario, file []catalogEntry) error {
	var ls *lesson.Session
	var err error
	if !s.hold.bulkTurnUnless(s.quit, func() { ls, err = lesson.NewSession(rec, lesson.Config{Seed: rec.Seed, Servers: embedded.Servers{}}) }) {
		return errEnded()
	}
	if err != nil {
		return err
	}
	if err := seekIn(s, ls, s.srv.limits.MaxSteps); err != nil {
		ls.Close()
		return err
	}
	s.replaceRun(ls, loadedRun{custom: true, file: file})
	return s.account()
}

// slicer holds one of the card's workers to slices of long work: a bulk
// slot and an engine slot for at most sliceTime, then a turn for others.
type slicer struct {
	srv   *Server
	ctx   context.Context
	held  bool
	since time.Time
}

func (sl *slicer) yield() error {
	if sl.held && time.Since(sl.since) < sliceTime {
		return nil
	}
	sl.release()
	select {
	case sl.srv.bulk <- struct{}{}:
	case <-sl.ctx.Done():
		return sl.ctx.Err()
	}
	select {
	case sl.srv.cpu <- struct{}{}:
	case <-sl.ctx.Done():
		<-sl.srv.bulk
		return sl.ctx.Err()
	}
	sl.held, sl.since = true, time.Now()
	return nil
}

func (sl *slicer) release() {
	if sl.held {
		<-sl.srv.cpu
		<-sl.srv.bulk
		sl.held = false
	}
}
