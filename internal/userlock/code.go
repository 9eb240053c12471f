package userlock

import (
	"fmt"
	"strings"
)

// File is where the code view finds a declared lock's code:
// locks/<name>.yaml under the page's sources.
func (s *Spec) File() string { return "locks/" + s.Name + ".yaml" }

// ScriptFile is where the code view finds the script of one of its steps
// (acquire, release, extend), as it finds a catalog lock's scripts.
func (s *Spec) ScriptFile(step string) string { return "scripts/" + s.Name + "." + step + ".lua" }

// Code writes the lock as the code view shows it, its steps in the order
// they run, and numbers the lines each command and script start on
// (Command.Line, Step.Line): the line a command's send lights.
func (s *Spec) Code() string {
	var b strings.Builder
	line := 0
	put := func(format string, args ...any) {
		fmt.Fprintf(&b, format+"\n", args...)
		line++
	}
	put("# %s: a lock declared in the scenario", s.Name)
	if s.Source != "" {
		put("# from %s", s.Source)
	}
	put("key: %s   ttl: %s   retry: %s", s.Key, s.TTL, s.Retry)
	for _, st := range s.steps() {
		s.writeStep(put, func() int { return line }, st.name, st.step, true)
	}
	if len(s.Fencing) > 0 {
		put("fencing: %s", strings.Join(s.Fencing, " "))
	}
	return b.String()
}

// namedStep is a step of the lock with its name.
type namedStep struct {
	name string
	step *Step
}

// steps are the lock's steps in the order they run (no extend: none).
func (s *Spec) steps() []namedStep {
	out := []namedStep{{"acquire", &s.Acquire}, {"release", &s.Release}}
	if s.Extend != nil {
		out = append(out, namedStep{"extend", s.Extend})
	}
	return out
}

// writeStep writes one step as Code shows it with put; line is the
// number of lines written so far. With number, each command and script
// records the line it starts on.
func (s *Spec) writeStep(put func(string, ...any), line func() int, name string, st *Step, number bool) {
	head := name + ":"
	if name == "extend" {
		head += fmt.Sprintf("   # every %s", s.Every)
	}
	put("%s", head)
	if len(st.Watch) > 0 {
		put("  watch: [%s]", strings.Join(st.Watch, ", "))
	}
	if st.Scripted() {
		put("  lua:   # keys: [%s]  args: [%s]%s", strings.Join(st.Keys, ", "), strings.Join(st.Args, ", "), okNote(st.OK))
		if number {
			st.Line = line() + 1
		}
		for _, l := range strings.Split(strings.TrimRight(st.Lua, "\n"), "\n") {
			put("    %s", l)
		}
		return
	}
	for i := range st.Commands {
		c := &st.Commands[i]
		put("  - %s%s", strings.Join(c.Args, " "), okNote(c.OK))
		if number {
			c.Line = line()
		}
	}
}

// StepCode writes one step of the lock (acquire, release, extend) as Code
// writes it, and the line of Code it starts on ("", 0: the lock has no
// such step). The card for a user's setup sets it beside a catalog
// lock's.
func (s *Spec) StepCode(step string) (string, int) {
	n := 2 // Code's heading: the name line and the key line
	if s.Source != "" {
		n++
	}
	for _, st := range s.steps() {
		var b strings.Builder
		k := 0
		put := func(format string, args ...any) {
			fmt.Fprintf(&b, format+"\n", args...)
			k++
		}
		s.writeStep(put, func() int { return k }, st.name, st.step, false)
		if st.name == step {
			return b.String(), n + 1
		}
		n += k
	}
	return "", 0
}

func okNote(ok string) string {
	if ok == "" {
		return ""
	}
	return "   # ok: " + ok
}
