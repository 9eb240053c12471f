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
	for _, st := range []struct {
		name string
		step *Step
	}{{"acquire", &s.Acquire}, {"release", &s.Release}, {"extend", s.Extend}} {
		if st.step == nil {
			continue
		}
		head := st.name + ":"
		if st.name == "extend" {
			head += fmt.Sprintf("   # every %s", s.Every)
		}
		put("%s", head)
		if len(st.step.Watch) > 0 {
			put("  watch: [%s]", strings.Join(st.step.Watch, ", "))
		}
		if st.step.Scripted() {
			put("  lua:   # keys: [%s]  args: [%s]%s", strings.Join(st.step.Keys, ", "), strings.Join(st.step.Args, ", "), okNote(st.step.OK))
			st.step.Line = line + 1
			for _, l := range strings.Split(strings.TrimRight(st.step.Lua, "\n"), "\n") {
				put("    %s", l)
			}
			continue
		}
		for i := range st.step.Commands {
			c := &st.step.Commands[i]
			put("  - %s%s", strings.Join(c.Args, " "), okNote(c.OK))
			c.Line = line
		}
	}
	if len(s.Fencing) > 0 {
		put("fencing: %s", strings.Join(s.Fencing, " "))
	}
	return b.String()
}

func okNote(ok string) string {
	if ok == "" {
		return ""
	}
	return "   # ok: " + ok
}
