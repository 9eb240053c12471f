package server

import (
	"context"
	"sync"
	"time"

	"github.com/lockstep/lockstep/internal/embedded"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/report"
	"github.com/lockstep/lockstep/internal/scenario"
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
