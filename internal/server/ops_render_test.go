package server

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// render writes a message as the scripts expect it.
func render(m Message) []string {
	switch m.Type {
	case "welcome":
		return []string{fmt.Sprintf("welcome: %d scenarios", len(m.Catalog))}
	case "error":
		return []string{fmt.Sprintf("error %s: %s", m.Code, m.Error)}
	case "yaml":
		return append([]string{"yaml " + m.Name + ":"}, strings.Split(strings.TrimRight(m.Text, "\n"), "\n")...)
	case "checked":
		out := []string{fmt.Sprintf("checked: %d problems", len(m.Errors))}
		for _, e := range m.Errors {
			out = append(out, fmt.Sprintf("line %d col %d: %s", e.Line, e.Col, e.Msg))
		}
		for _, e := range m.Warnings {
			out = append(out, fmt.Sprintf("warning: line %d col %d: %s", e.Line, e.Col, e.Msg))
		}
		return out
	case "class":
		return renderClass(m)
	case "setup-form":
		f := m.Form
		var cols []string
		for _, c := range f.Columns {
			cols = append(cols, c.ID)
		}
		out := []string{fmt.Sprintf("setup-form: %d locks; columns %s", len(f.Locks), strings.Join(cols, " "))}
		if f.YAML != "" {
			out = append(out, "scenario "+f.Scenario+":")
			out = append(out, strings.Split(strings.TrimRight(f.YAML, "\n"), "\n")...)
		}
		return out
	case "queue":
		var qs []string
		for _, q := range m.Queue {
			qs = append(qs, fmt.Sprintf("step %d %s", q.Step, q.Kind))
		}
		return []string{fmt.Sprintf("queue (re %v): [%s]", m.Re != 0, strings.Join(qs, ", "))}
	case "remote-link":
		return []string{fmt.Sprintf("remote-link: a one-time link for %d s", m.Pairing.Seconds)}
	case "state":
		s := m.Snap
		out := []string{fmt.Sprintf("state: keep %d events, then %d: step %d at %s, %d events", *m.From, len(m.Events), s.Step, time.Duration(s.T), s.Events)}
		for _, e := range m.Events {
			out = append(out, e.Text)
			if cs := e.Sections; cs != nil {
				out = append(out, fmt.Sprintf("    critical sections: enter %v, leave %v", cs.Enter, cs.Leave))
			}
		}
		var tail []string
		if s.Ended {
			tail = append(tail, "ended")
		}
		if s.OffScript {
			tail = append(tail, "off script")
		}
		if len(s.Verdicts) > 0 {
			tail = append(tail, "verdicts "+strings.Join(s.Verdicts, " "))
		}
		for _, a := range s.Actions {
			b, _ := json.Marshal(a.Fault)
			tail = append(tail, fmt.Sprintf("action at %d %s", a.Step, b))
		}
		for _, n := range s.Nodes {
			var keys []string
			for _, k := range n.Keys {
				keys = append(keys, fmt.Sprintf("%s=%q", k.Key, k.Value))
			}
			if len(keys) > 0 {
				tail = append(tail, n.Name+": "+strings.Join(keys, " "))
			}
		}
		if len(s.Pending) > 0 {
			tail = append(tail, "pending "+strings.Join(s.Pending, " "))
		}
		for _, l := range tail {
			out = append(out, "  "+l)
		}
		return out
	}
	b, _ := json.Marshal(m)
	return []string{m.Type + " " + string(b)}
}

// renderClass writes a class message that answers a request without what
// is drawn anew for each class (the join code, the key, the link and its
// QR code). A class message the room sends unasked (Re 0: the session's
// goroutine saw the room change) is left out: whether it comes before or
// after the answer to the next request is the goroutine's choice.
func renderClass(m Message) []string {
	c := m.Class
	if m.Re == 0 {
		return nil
	}
	if c.Ended != "" {
		return []string{"class: ended " + c.Ended}
	}
	out := []string{fmt.Sprintf("class: %s, following %v, hide %v, questions asked: %d", c.Role, c.Following, c.Hide, len(c.History))}
	if r := m.Run; r != nil {
		out[0] = fmt.Sprintf("class: %s, hide %v, key given %v", c.Role, c.Hide, c.Key != "")
		out = append(out, fmt.Sprintf("  run: %s step %d, playing %v, ended %v, %d narration lines, the last: %s", r.Scenario, r.Step, r.Playing, r.Ended, r.Says, r.Say.En))
		for _, q := range m.Queue {
			out = append(out, fmt.Sprintf("  queued at step %d: %s", q.Step, q.Kind))
		}
	}
	q := c.Question
	if q == nil {
		return append(out, "  no question on the screens")
	}
	var choices []string
	for _, ch := range q.Choices {
		choices = append(choices, ch.En)
	}
	out = append(out, fmt.Sprintf("  question %d (%s) at step %d: %s [%s]", q.ID, q.Kind, q.At, q.Text.En, strings.Join(choices, " | ")))
	switch {
	case q.Revealed:
		out = append(out, fmt.Sprintf("  revealed: %d answered, counts %v, truth %v", q.Answered, q.Counts, q.Truth))
	case q.Open:
		out = append(out, fmt.Sprintf("  open: %d answered", q.Answered))
	default:
		out = append(out, "  closed")
	}
	return out
}
