package class

import (
	"slices"
	"strings"

	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/sim"
)

// askReply asks about the next command a node runs: the oldest request in
// flight at the cursor, or else the next one sent. Its possible replies
// are those it gets when each client that can move goes first (a copy of
// the run for each), and the other outcome of a command that either
// succeeds or does not (SET NX: OK or (nil); DEL: 1 or 0); the truth is
// the reply it gets as the run goes on.
func (l *Lesson) askReply(q *Question, fork *lesson.Session) error {
	target, ok := l.nextCommand(fork)
	if !ok {
		return refuse("class-no-command", nil, "no client sends a command from here: ask another question")
	}
	q.about = target.label
	replies := []string{target.reply}
	for _, c := range l.Runs.Run().Pending() {
		alt, err := l.Runs.Fork()
		if err != nil {
			return err
		}
		moved, err := l.Runs.StepClient(alt, c)
		if err == nil && moved {
			if r, ok := l.replyOf(alt, target); ok {
				replies = append(replies, r)
			}
		}
		alt.Close()
	}
	replies = append(replies, otherOutcomes(target.cmd)...)
	replies = slices.Compact(slices.Sorted(slices.Values(replies)))
	if len(replies) > MaxChoices {
		rest := slices.DeleteFunc(slices.Clone(replies), func(r string) bool { return r == target.reply })
		replies = append(rest[:MaxChoices-1], target.reply)
		slices.Sort(replies)
	}
	for i, r := range replies {
		if r == target.reply {
			q.truth = []int{i}
		}
		q.choices = append(q.choices, choice{label: same(r)})
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
func (l *Lesson) nextCommand(fork *lesson.Session) (command, bool) {
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
		if fork.Done() || l.Runs.Step(fork) != nil {
			return command{}, false
		}
	}
	return command{}, false
}

// replyOf steps a copy until the command c names is run, and gives its reply.
func (l *Lesson) replyOf(fork *lesson.Session, c command) (string, bool) {
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
		if fork.Done() || l.Runs.Step(fork) != nil {
			return "", false
		}
	}
	return "", false
}

// findSeq is the event of a log with number seq, nil if there is none.
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
