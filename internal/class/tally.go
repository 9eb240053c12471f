package class

import "github.com/lockstep/lockstep/internal/scenario"

// maxHistory is how many questions a room keeps for its tally.
const maxHistory = 200

// Ask opens q, asked at the teacher's cursor at; the question open before
// is closed (its tally stays in the history).
func (r *Room) Ask(q *Question, at int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.question != nil {
		r.question.open = false
	}
	r.asked++
	q.id, q.at = r.asked, at
	q.open, q.counts, q.answers = true, make([]int, len(q.choices)), map[string]int{}
	r.question = q
	r.history = append(r.history, q)
	if len(r.history) > maxHistory {
		r.history = r.history[1:]
	}
	r.infoChangedLocked()
}

// Answer counts m's answer c to the question id, once.
func (r *Room) Answer(m *Member, id int, c *int) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	q := r.question
	if q == nil || q.id != id || !q.open {
		return refuse("question-closed", map[string]any{"question": id}, "that question is no longer open")
	}
	if c == nil || *c < 0 || *c >= len(q.choices) {
		return refuse("bad-choice", map[string]any{"max": len(q.choices) - 1}, "choose one of the %d choices", len(q.choices))
	}
	if _, ok := q.answers[m.token]; ok {
		return refuse("already-answered", nil, "you have answered this question")
	}
	q.answers[m.token] = *c
	q.counts[*c]++
	q.answered++
	r.countChangedLocked()
	return nil
}

// Reveal closes the open question and shows everyone its tally and truth.
func (r *Room) Reveal() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	q := r.question
	if q == nil {
		return refuse("no-question", nil, "no question is on the screens: ask one first")
	}
	q.open, q.revealed = false, true
	r.infoChangedLocked()
	return nil
}

// Dismiss takes the question off every screen: an open one closes, and
// its tally stays in the history.
func (r *Room) Dismiss() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.question == nil {
		return refuse("no-question", nil, "no question is on the screens: ask one first")
	}
	r.dismissLocked()
	return nil
}

// dismissLocked takes the question off every screen.
func (r *Room) dismissLocked() {
	r.question.open = false
	r.question = nil
	r.infoChangedLocked()
}

// Vote closes the vote on a move and reveals it, and gives the move the
// class voted for most (the first of a tie): a Fault whose Do is
// EngineMove (the engine's own step), scenario.StepAction (a client's
// hand step) or a fault kind.
func (r *Room) Vote() (*scenario.Fault, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	q := r.question
	if q == nil || q.kind != Move {
		return nil, refuse("no-vote", nil, "ask the class to vote on a move first")
	}
	win := q.winner()
	if win == nil {
		return nil, refuse("no-votes", nil, "nobody has voted yet")
	}
	q.open, q.revealed = false, true
	r.infoChangedLocked()
	return win, nil
}
