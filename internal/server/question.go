package server

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lockstep/lockstep/internal/check"
	"github.com/lockstep/lockstep/internal/embedded"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// Questions a teacher asks the class before a step. Each is computed from
// the teacher's run: its choices are what the run allows (the clients that
// can move, the replies the command can get, the verdict names) and its
// truth is what a copy of the run does next, taken as the teacher's Step
// takes it (the engine's own choice and the recorded actions). A free
// question has the teacher's choices and, if the teacher says so, truth.

// askRequest is class-ask's question.
type askRequest struct {
	Kind    string   `json:"kind"`              // next, reply, holder, verdict, move, free
	Text    string   `json:"text,omitempty"`    // free: the question
	Choices []string `json:"choices,omitempty"` // free: 2 to maxChoices choices
	Truth   []int    `json:"truth,omitempty"`   // free: the right choices, if any
}

// Caps on a question.
const (
	maxChoices     = 8
	maxChoiceRunes = 80
	maxTextRunes   = 200
	maxLookAhead   = 2000 // steps a copy of the run takes to find a command's reply
)

// choice is one answer a student may give.
type choice struct {
	Label sim.Text `json:"label"`
	move  *scenario.Fault
}

// question is one question and its answers.
type question struct {
	id       int
	kind     string
	text     sim.Text
	about    string // reply: the command asked about
	choices  []choice
	truth    []int // the right choices (none: a vote, or a free question without one)
	at       int   // the teacher's cursor when asked
	open     bool
	revealed bool
	counts   []int
	answered int
	answers  map[string]int // by member token, while the room lives
}

// questionView is a question as a page sees it: the tally and the truth
// only once revealed (the teacher sees the tally as it grows).
type questionView struct {
	ID       int        `json:"id"`
	Kind     string     `json:"kind"`
	Text     sim.Text   `json:"text"`
	About    string     `json:"about,omitempty"`
	Choices  []sim.Text `json:"choices"`
	At       int        `json:"at"`
	Open     bool       `json:"open"`
	Revealed bool       `json:"revealed"`
	Answered int        `json:"answered"`
	Counts   []int      `json:"counts,omitempty"`
	Truth    []int      `json:"truth,omitempty"`
	Mine     *int       `json:"mine,omitempty"` // this student's answer
}

func (q *question) view(token string, teacher bool) *questionView {
	v := &questionView{ID: q.id, Kind: q.kind, Text: q.text, About: q.about, At: q.at, Open: q.open, Revealed: q.revealed}
	for _, c := range q.choices {
		v.Choices = append(v.Choices, c.Label)
	}
	if teacher || q.revealed {
		v.Answered, v.Counts = q.answered, slices.Clone(q.counts)
	}
	if q.revealed {
		v.Truth = q.truth
	}
	if a, ok := q.answers[token]; ok && token != "" {
		v.Mine = &a
	}
	return v
}

// forget drops a leaving member's answer from the tally.
func (q *question) forget(token string) {
	if a, ok := q.answers[token]; ok {
		delete(q.answers, token)
		if q.open {
			q.counts[a]--
			q.answered--
		}
	}
}

// The questions' texts.
var questionTexts = map[string]sim.Text{
	"next":    {En: "Which client moves next?", Zh: "下一步由哪个客户端行动？"},
	"reply":   {En: "What will this command reply?", Zh: "这条命令会得到什么回复？"},
	"holder":  {En: "After this step, who holds the lock (who is inside the critical section)?", Zh: "这一步之后，谁持有锁（谁在临界区内）？"},
	"verdict": {En: "Which verdict will this run end with?", Zh: "这次运行最终会得到哪个判定？"},
	"move":    {En: "Which move should the class play next?", Zh: "全班下一步该走哪一步？"},
}

// classAsk computes a question from the teacher's run and opens it; the
// question open before is closed (its tally stays in the history).
func (s *session) classAsk(a *askRequest) error {
	if a == nil {
		return badArg("class-ask", "ask", both("ask is missing", "缺少 ask"))
	}
	q, err := s.compute(a)
	if err != nil {
		return err
	}
	q.open, q.counts, q.answers = true, make([]int, len(q.choices)), map[string]int{}
	if s.ls != nil {
		q.at = s.ls.Cursor()
	}
	rm := s.seat.room
	rm.mu.Lock()
	defer rm.mu.Unlock()
	if rm.question != nil {
		rm.question.open = false
	}
	rm.asked++
	q.id = rm.asked
	rm.question = q
	rm.history = append(rm.history, q)
	if len(rm.history) > maxHistory {
		rm.history = rm.history[1:]
	}
	rm.infoChangedLocked()
	return nil
}

// maxHistory is how many questions a room keeps for its tally.
const maxHistory = 200

// compute makes the question a asks of the session's run.
func (s *session) compute(a *askRequest) (*question, error) {
	if a.Kind == "free" {
		return freeQuestion(a)
	}
	text, ok := questionTexts[a.Kind]
	if !ok {
		return nil, badArg("class-ask", "kind", both("kind is one of next, reply, holder, verdict, move, free", "kind 必须是 next、reply、holder、verdict、move、free 之一"))
	}
	if s.ls == nil {
		return nil, coded("no-scenario", nil, "no scenario loaded: send load first")
	}
	if s.ls.Done() {
		return nil, coded("run-over", nil, "the run is over: step back to inject a fault")
	}
	if s.srv.opts.Servers != nil {
		return nil, coded("class-embedded", nil, "questions computed from the run need embedded Redis (a copy of the run is stepped ahead)")
	}
	q := &question{kind: a.Kind, text: text}
	fork, err := s.forkRun()
	if err != nil {
		return nil, err
	}
	defer fork.Close()
	switch a.Kind {
	case "next":
		err = s.askNext(q, fork)
	case "holder":
		err = s.askHolder(q, fork)
	case "verdict":
		err = s.askVerdict(q, fork)
	case "reply":
		err = s.askReply(q, fork)
	case "move":
		err = s.askMove(q)
	}
	return q, err
}

// freeQuestion is the teacher's own question and choices.
func freeQuestion(a *askRequest) (*question, error) {
	bad := func(what string) error {
		return coded("bad-question", map[string]any{"detail": what}, "class-ask: %s", what)
	}
	text := strings.TrimSpace(a.Text)
	if text == "" || len([]rune(text)) > maxTextRunes {
		return nil, bad(fmt.Sprintf("a free question has a text of 1 to %d characters", maxTextRunes))
	}
	if len(a.Choices) < 2 || len(a.Choices) > maxChoices {
		return nil, bad(fmt.Sprintf("a free question has 2 to %d choices", maxChoices))
	}
	q := &question{kind: "free", text: sim.Text{En: text, Zh: text}}
	for _, c := range a.Choices {
		c = strings.TrimSpace(c)
		if c == "" || len([]rune(c)) > maxChoiceRunes {
			return nil, bad(fmt.Sprintf("a choice is 1 to %d characters", maxChoiceRunes))
		}
		q.choices = append(q.choices, choice{Label: sim.Text{En: c, Zh: c}})
	}
	for _, t := range a.Truth {
		if t < 0 || t >= len(q.choices) || slices.Contains(q.truth, t) {
			return nil, bad("truth lists choices by their index, each once")
		}
		q.truth = append(q.truth, t)
	}
	slices.Sort(q.truth)
	return q, nil
}

// forkRun is a copy of the session's run at its cursor, with its recorded
// actions, to step ahead without touching the run.
func (s *session) forkRun() (*lesson.Session, error) {
	var ls *lesson.Session
	var err error
	s.bulkTurn(func() {
		ls, err = lesson.NewSession(s.ls.Scenario(), lesson.Config{Seed: s.ls.Seed(), Servers: embedded.Servers{}})
	})
	if err != nil {
		return nil, err
	}
	s.bulkTurn(func() { err = ls.Follow(s.ls.Actions()) })
	if err == nil {
		err = seekIn(s, ls, s.ls.Cursor())
	}
	if err != nil {
		ls.Close()
		return nil, err
	}
	return ls, nil
}

// stepFork takes one step of a copy, as the teacher's Step would.
func (s *session) stepFork(fork *lesson.Session) error {
	var err error
	s.turn(func() { _, err = fork.Step() })
	return err
}

var (
	labelNone   = sim.Text{En: "no client: a key expires", Zh: "没有客户端：一个键过期"}
	labelNobody = sim.Text{En: "nobody", Zh: "没有人"}
	labelMany   = sim.Text{En: "two or more at once", Zh: "两个或更多同时"}
)

func same(s string) sim.Text { return sim.Text{En: s, Zh: s} }

// askNext: the clients that can move now, and "no client" when a key with
// a TTL could expire first; the truth is whose event the next step logs.
func (s *session) askNext(q *question, fork *lesson.Session) error {
	before := len(fork.Log())
	if err := s.stepFork(fork); err != nil {
		return err
	}
	who := ""
	for _, e := range fork.Log()[before:] {
		if e.Client != "" {
			who = e.Client
			break
		}
	}
	for _, c := range s.ls.Pending() {
		if c == who {
			q.truth = []int{len(q.choices)}
		}
		q.choices = append(q.choices, choice{Label: same(c)})
	}
	if who != "" && q.truth == nil { // a client the pending list does not name
		q.truth = []int{len(q.choices)}
		q.choices = append(q.choices, choice{Label: same(who)})
	}
	ttl := false
	for _, n := range s.ls.Nodes() {
		for _, k := range n.Keys {
			ttl = ttl || k.TTL > 0
		}
	}
	if who == "" || ttl {
		if who == "" {
			q.truth = []int{len(q.choices)}
		}
		q.choices = append(q.choices, choice{Label: labelNone})
	}
	return nil
}

// askHolder: each client, nobody, and (for three clients or more) two or
// more at once, or (for two) both; the truth is who is inside a critical
// section after the next step, as the checker counts it.
func (s *session) askHolder(q *question, fork *lesson.Session) error {
	if err := s.stepFork(fork); err != nil {
		return err
	}
	inside := insideAfter(fork)
	clients := s.ls.Clients()
	for _, c := range clients {
		q.choices = append(q.choices, choice{Label: same(c)})
	}
	switch {
	case len(inside) == 0:
		q.truth = []int{len(q.choices)}
	case len(inside) == 1:
		q.truth = []int{slices.Index(clients, inside[0])}
	default:
		q.truth = []int{len(q.choices) + 1}
	}
	q.choices = append(q.choices, choice{Label: labelNobody})
	many := labelMany
	if len(clients) == 2 {
		many = sim.Text{En: clients[0] + " and " + clients[1], Zh: clients[0] + " 和 " + clients[1]}
	}
	q.choices = append(q.choices, choice{Label: many})
	return nil
}

// insideAfter is who is inside a critical section at the end of a run's
// log, from the checker's account of each event.
func insideAfter(ls *lesson.Session) []string {
	var in []string
	for _, e := range ls.Log() {
		c := ls.Sections(e.Seq)
		in = slices.DeleteFunc(in, func(x string) bool { return slices.Contains(c.Leave, x) })
		in = append(in, c.Enter...)
	}
	return in
}

// askVerdict: the verdicts the run ends with (the copy run to its end),
// the lesson's expected ones, safe, and others of the checker's until
// there are four; sorted by name, so the order gives nothing away.
func (s *session) askVerdict(q *question, fork *lesson.Session) error {
	err := s.stepsOf(fork, true, func() (bool, error) {
		if fork.Cursor() >= s.srv.limits.MaxSteps {
			return false, nil
		}
		return fork.Step()
	})
	if err != nil {
		return err
	}
	truth := slices.Compact(slices.Sorted(slices.Values(fork.Verdicts())))
	if len(truth) == 0 {
		truth = []string{check.Safe}
	}
	names := append(slices.Clone(truth), s.srv.expect(s.ls.Scenario())...)
	names = append(names, check.Safe)
	for _, v := range sim.Verdicts {
		if len(slices.Compact(slices.Sorted(slices.Values(names)))) >= 4 {
			break
		}
		names = append(names, v)
	}
	names = slices.Compact(slices.Sorted(slices.Values(names)))
	for i, n := range names {
		if slices.Contains(truth, n) {
			q.truth = append(q.truth, i)
		}
		q.choices = append(q.choices, choice{Label: same(n)})
	}
	return nil
}

// askReply asks about the next command a node runs: the oldest request in
// flight at the cursor, or else the next one sent. Its possible replies
// are those it gets when each client that can move goes first (a copy of
// the run for each), and the other outcome of a command that either
// succeeds or does not (SET NX: OK or (nil); DEL: 1 or 0); the truth is
// the reply it gets as the run goes on.
func (s *session) askReply(q *question, fork *lesson.Session) error {
	target, ok := s.nextCommand(fork)
	if !ok {
		return coded("class-no-command", nil, "no client sends a command from here: ask another question")
	}
	q.about = target.label
	replies := []string{target.reply}
	for _, c := range s.ls.Pending() {
		alt, err := s.forkRun()
		if err != nil {
			return err
		}
		var moved bool
		s.turn(func() { moved, err = alt.StepClient(c) })
		if err == nil && moved {
			if r, ok := s.replyOf(alt, target); ok {
				replies = append(replies, r)
			}
		}
		alt.Close()
	}
	replies = append(replies, otherOutcomes(target.cmd)...)
	replies = slices.Compact(slices.Sorted(slices.Values(replies)))
	if len(replies) > maxChoices {
		rest := slices.DeleteFunc(slices.Clone(replies), func(r string) bool { return r == target.reply })
		replies = append(rest[:maxChoices-1], target.reply)
		slices.Sort(replies)
	}
	for i, r := range replies {
		if r == target.reply {
			q.truth = []int{i}
		}
		q.choices = append(q.choices, choice{Label: same(r)})
	}
	return nil
}

// command is the command a reply question is about: the nth send of a
// client's thread, and the reply it got in the copy.
type command struct {
	client, thread string
	nth            int // its sends before this one
	cmd            []string
	label          string
	reply          string
}

// nextCommand steps the copy until a node runs a command (or loses it)
// and names that command.
func (s *session) nextCommand(fork *lesson.Session) (command, bool) {
	from := len(fork.Log())
	for range maxLookAhead {
		log := fork.Log()
		for _, e := range log[from:] {
			if e.Kind != sim.KindExec && e.Kind != sim.KindLost {
				continue
			}
			send := findSeq(log, e.Req)
			if send == nil {
				continue
			}
			c := command{client: send.Client, thread: send.Thread, cmd: send.Cmd, nth: sendsBefore(log, send),
				label: send.Who() + " → " + send.Node + ": " + send.CmdText(), reply: replyText(e)}
			return c, true
		}
		from = len(log)
		if fork.Done() || s.stepFork(fork) != nil {
			return command{}, false
		}
	}
	return command{}, false
}

// replyOf steps a copy until the command c names is run, and gives its reply.
func (s *session) replyOf(fork *lesson.Session, c command) (string, bool) {
	from := 0
	for range maxLookAhead {
		log := fork.Log()
		for _, e := range log[from:] {
			if e.Kind != sim.KindExec && e.Kind != sim.KindLost {
				continue
			}
			if send := findSeq(log, e.Req); send != nil && send.Client == c.client && send.Thread == c.thread && sendsBefore(log, send) == c.nth {
				return replyText(e), true
			}
		}
		from = len(log)
		if fork.Done() || s.stepFork(fork) != nil {
			return "", false
		}
	}
	return "", false
}

func findSeq(log []*sim.Event, seq int) *sim.Event {
	if seq >= 1 && seq <= len(log) && log[seq-1].Seq == seq {
		return log[seq-1]
	}
	for _, e := range log {
		if e.Seq == seq {
			return e
		}
	}
	return nil
}

// sendsBefore counts the sends of send's client thread before it.
func sendsBefore(log []*sim.Event, send *sim.Event) int {
	n := 0
	for _, e := range log {
		if e == send {
			break
		}
		if e.Kind == sim.KindSend && e.Client == send.Client && e.Thread == send.Thread {
			n++
		}
	}
	return n
}

// replyText is what a command got: the node's reply, or that it was lost.
func replyText(e *sim.Event) string {
	if e.Kind == sim.KindLost {
		return "(lost)"
	}
	return e.Reply
}

// otherOutcomes are the replies of a command that either does its work or
// does not, so that a question about it always has both.
func otherOutcomes(cmd []string) []string {
	if len(cmd) == 0 {
		return nil
	}
	name := strings.ToUpper(cmd[0])
	switch name {
	case "SET":
		for _, a := range cmd[1:] {
			if u := strings.ToUpper(a); u == "NX" || u == "XX" {
				return []string{"OK", "(nil)"}
			}
		}
		return []string{"OK"}
	case "SETNX", "DEL", "EXISTS", "EXPIRE", "PEXPIRE", "HSETNX", "HEXISTS", "HDEL", "UNLINK", "PERSIST", "EVAL", "EVALSHA":
		return []string{"(integer) 0", "(integer) 1"}
	case "GET":
		return []string{"(nil)"}
	}
	return nil
}

// engineMove is the Do of a class's vote for the engine's own step: a
// choice of the move question only, never a schedule action (a recorded
// run says nothing of an engine step; a hand step is scenario.StepAction).
const engineMove = "engine"

// askMove: in a challenge, the moves the class may vote for: the engine's
// own step, each client that can move, and the faults of the lesson the
// challenge comes from (the learner places them), each at the cursor.
func (s *session) askMove(q *question) error {
	if !s.challenge {
		return coded("class-no-challenge", nil, "a vote on moves is for a challenge: take the challenge first")
	}
	engine := scenario.Fault{Do: engineMove}
	q.choices = append(q.choices, choice{Label: sim.Text{En: "let the engine choose", Zh: "让引擎选择"}, move: &engine})
	for _, c := range s.ls.Pending() {
		f := scenario.Fault{Do: scenario.StepAction, Client: c}
		q.choices = append(q.choices, choice{Label: sim.Text{En: "step " + c, Zh: "让 " + c + " 走一步"}, move: &f})
	}
	sc := s.ls.Scenario()
	var faults []scenario.Fault
	if orig, ok := s.srv.find(sc.ID); ok {
		faults = orig.Faults
	}
	for _, f := range faults {
		f.At, f.On = nil, nil
		if len(q.choices) >= maxChoices || scenario.CheckFault(sc, f) != nil {
			continue
		}
		if slices.ContainsFunc(q.choices, func(c choice) bool { return c.move != nil && *c.move == f }) {
			continue
		}
		q.choices = append(q.choices, choice{Label: faultLabel(f), move: &f})
	}
	return nil
}

// faultLabel names a fault in both languages: "pause A 1s", "停顿 A 1s".
func faultLabel(f scenario.Fault) sim.Text {
	parts := []string{f.Client, f.Node}
	if f.For != 0 {
		parts = append(parts, sim.FormatTime(f.For.D()))
	}
	if f.By > 0 {
		parts = append(parts, "+"+sim.FormatTime(f.By.D()))
	} else if f.By < 0 {
		parts = append(parts, sim.FormatTime(f.By.D())) // already "-2s"
	}
	tail := strings.Join(slices.DeleteFunc(parts, func(p string) bool { return p == "" }), " ")
	return sim.Text{En: strings.TrimSpace(f.Do + " " + tail), Zh: strings.TrimSpace(sim.ZhName(f.Do) + " " + tail)}
}

// answer counts a student's answer, once.
func (r *room) answer(m *member, id int, c *int) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	q := r.question
	if q == nil || q.id != id || !q.open {
		return coded("question-closed", map[string]any{"question": id}, "that question is no longer open")
	}
	if c == nil || *c < 0 || *c >= len(q.choices) {
		return coded("bad-choice", map[string]any{"max": len(q.choices) - 1}, "choose one of the %d choices", len(q.choices))
	}
	if _, ok := q.answers[m.token]; ok {
		return coded("already-answered", nil, "you have answered this question")
	}
	q.answers[m.token] = *c
	q.counts[*c]++
	q.answered++
	r.countChangedLocked()
	return nil
}

// reveal closes the open question and shows everyone its tally and truth.
func (r *room) reveal() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	q := r.question
	if q == nil {
		return coded("no-question", nil, "no question has been asked")
	}
	q.open, q.revealed = false, true
	r.infoChangedLocked()
	return nil
}

// classPlay plays the move the class voted for most (the first of a tie)
// on the teacher's run.
func (s *session) classPlay() error {
	rm := s.seat.room
	rm.mu.Lock()
	q := rm.question
	var win *scenario.Fault
	if q != nil && q.kind == "move" {
		best := -1
		for i, n := range q.counts {
			if n > 0 && (best < 0 || n > q.counts[best]) {
				best = i
			}
		}
		if best >= 0 {
			win = q.choices[best].move
			q.open, q.revealed = false, true
			rm.infoChangedLocked()
		}
	}
	rm.mu.Unlock()
	if q == nil || q.kind != "move" {
		return coded("no-vote", nil, "ask the class to vote on a move first")
	}
	if win == nil {
		return coded("no-votes", nil, "nobody has voted yet")
	}
	var err error
	switch win.Do {
	case engineMove:
		err = s.stepN(1)
	case scenario.StepAction:
		err = s.stepClient(win.Client)
	default:
		err = s.inject(*win)
	}
	s.push(0)
	return err
}
