package scenario

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v4"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/sim"
	"github.com/lockstep/lockstep/internal/userlock"
)

// paramName is how a declared lock's own parameter is named ($name).
var paramName = regexp.MustCompile(`^[a-z_][a-z0-9_]*$`)

// locks checks the scenario's own locks: names, steps, commands the
// engine models, placeholders, and each script's Lua syntax, placed at its
// line and column in the file.
func (c *validator) locks(s *Scenario, p string) {
	if len(s.Locks) > MaxLocks {
		c.at(p+".locks", fact.Say("scenario.too-many-locks", len(s.Locks), MaxLocks))
		return
	}
	seen := map[string]int{}
	for i := range s.Locks {
		l := &s.Locks[i]
		lp := fmt.Sprintf("%s.locks[%d]", p, i)
		switch {
		case strings.TrimSpace(l.Name) == "":
			c.at(lp+".name", fact.Say("scenario.lock-needs-a-name"))
		case strings.ContainsAny(l.Name, " \t\n/$"):
			c.at(lp+".name", fact.Say("scenario.lock-name-use-letters-digits", short(l.Name)))
		case hasKey(seen, l.Name):
			first, _ := c.pos(fmt.Sprintf("%s.locks[%d].name", p, seen[l.Name]))
			c.at(lp+".name", fact.Say("scenario.duplicate-lock-name-first-at", l.Name, first))
		default:
			seen[l.Name] = i
			if _, ok := lock.Lookup(l.Name); ok {
				c.at(lp+".name", fact.Say("scenario.lock-name-is-a-catalog", l.Name))
			}
		}
		params := l.params()
		for _, prm := range params {
			switch {
			case !paramName.MatchString(prm.Name):
				c.atKey(lp+".params."+prm.Name, fact.Say("scenario.parameter-name-it-with-lower", short(prm.Name)))
			case slices.Contains([]string{"key", "ttl", "retry", "retry_jitter", "acquire_timeout", "token", "ttl_s"}, prm.Name):
				c.atKey(lp+".params."+prm.Name, fact.Say("scenario.parameter-is-one-every-lock", prm.Name))
			}
		}
		c.lockStep(l.Acquire, lp+".acquire", "acquire", params)
		c.lockStep(l.Release, lp+".release", "release", params)
		if l.Extend != nil {
			c.lockStep(l.Extend, lp+".extend", "extend", params)
		}
		for name, st := range map[string]*LockStep{"acquire": l.Acquire, "release": l.Release} {
			if st != nil && st.Every > 0 {
				c.at(lp+"."+name+".every", fact.Say("scenario.every-goes-with-extend-only"))
			}
		}
		if len(l.Fencing) > 0 {
			c.command(l.Fencing, lp+".fencing", params)
		}
	}
}

// lockStep checks one step of a declared lock.
func (c *validator) lockStep(st *LockStep, sp, name string, params []lock.Param) {
	switch {
	case st == nil:
		c.at(sp, fact.Say("scenario.lock-needs-commands-or-a", name))
		return
	case len(st.Commands) > 0 && st.Lua != "":
		c.at(sp+".lua", fact.Say("scenario.step-is-commands-or-a"))
		return
	case len(st.Commands) == 0 && strings.TrimSpace(st.Lua) == "":
		c.at(sp, fact.Say("scenario.step-needs-commands-or-a"))
		return
	}
	if st.Lua == "" {
		if len(st.Keys) > 0 || len(st.Args) > 0 {
			c.at(sp, fact.Say("scenario.keys-and-args-go-with"))
		}
		if st.OK != "" {
			c.at(sp+".ok", fact.Say("scenario.ok-of-a-step-goes"))
		}
		for j, k := range st.Watch {
			c.placeholders(k, fmt.Sprintf("%s.watch[%d]", sp, j), params)
		}
		open := false
		for j, cmd := range st.Commands {
			cp := fmt.Sprintf("%s.commands[%d]", sp, j)
			if len(cmd.Run) > 0 && slices.Contains(userlock.TxCommands, strings.ToUpper(cmd.Run[0])) {
				c.transaction(cmd.Run, cp+".run", len(st.Watch) > 0, &open)
				continue
			}
			c.command(cmd.Run, cp+".run", params)
			c.placeholders(cmd.OK, cp+".ok", params)
		}
		if open {
			c.at(sp+".commands", fact.Say("scenario.multi-without-exec-end-the"))
		}
		return
	}
	if len(st.Watch) > 0 {
		c.at(sp+".watch", fact.Say("scenario.watch-goes-with-commands-a"))
	}
	c.lua(st.Lua, sp+".lua")
	for j, k := range st.Keys {
		c.placeholders(k, fmt.Sprintf("%s.keys[%d]", sp, j), params)
	}
	for j, a := range st.Args {
		c.placeholders(a, fmt.Sprintf("%s.args[%d]", sp, j), params)
	}
	c.placeholders(st.OK, sp+".ok", params)
}

// command checks a command of a declared lock: one the engine models,
// with known placeholders.
func (c *validator) command(run []string, path string, params []lock.Param) {
	if len(run) == 0 || strings.TrimSpace(run[0]) == "" {
		c.at(path, fact.Say("scenario.command-needs-at-least-its"))
		return
	}
	if !userlock.Known(run[0]) {
		c.at(path+"[0]", fact.Say("scenario.the-engine-cannot-model-a", short(run[0]), strings.Join(userlock.Commands, ", ")))
	}
	for i, a := range run {
		c.placeholders(a, fmt.Sprintf("%s[%d]", path, i), params)
	}
}

// transaction checks a MULTI or EXEC of a step: only on a WATCHed
// connection (watch:), in pairs, with no arguments.
func (c *validator) transaction(run []string, path string, watched bool, open *bool) {
	name := strings.ToUpper(run[0])
	switch {
	case !watched:
		c.at(path+"[0]", fact.Say("scenario.needs-the-steps-watch-keys", name))
	case len(run) > 1:
		c.at(path, fact.Say("scenario.takes-no-arguments", name))
	case name == "MULTI" && *open:
		c.at(path+"[0]", fact.Say("scenario.multi-inside-a-transaction-end"))
	case name == "EXEC" && !*open:
		c.at(path+"[0]", fact.Say("scenario.exec-without-multi"))
	}
	*open = name == "MULTI"
}

// placeholders checks that every $word in s is a placeholder.
func (c *validator) placeholders(s, path string, params []lock.Param) {
	names := slices.Clone(userlock.Placeholders)
	for _, p := range params {
		names = append(names, "$"+p.Name)
	}
	for _, u := range userlock.Unknown(s, params) {
		c.at(path, fact.Say("scenario.unknown-placeholder-placeholders", short(u), strings.Join(names, ", ")))
	}
}

// lua checks a script's syntax and the commands it calls by name, each
// problem at its own line and column in the file.
func (c *validator) lua(src, path string) {
	if e := userlock.CheckLua(src); e != nil {
		c.atLua(path, e.Line, e.Col, fact.Say("scenario.lua-syntax-error", e.Msg))
	}
	names, at := userlock.ScriptCommands(src)
	for i, name := range names {
		if !userlock.Known(name) {
			line := strings.Count(src[:at[i]], "\n") + 1
			col := at[i] - strings.LastIndex(src[:at[i]], "\n")
			c.atLua(path, line, col, fact.Say("scenario.the-engine-cannot-model-a", short(name), strings.Join(userlock.Commands, ", ")))
		}
	}
}

// atLua reports a problem at line and column of the script at path,
// placed in the file: a block scalar's lines follow its indicator line,
// indented; a one-line script starts at its value.
func (c *validator) atLua(path string, line, col int, problem sim.Text) {
	n, ok := c.d.vals[path]
	if c.flat || !ok || c.unreadable(path) {
		c.at(path, fact.Say("scenario.script-line-column", line, col, problem))
		return
	}
	fl, fc := luaPosition(n, c.d.src, line, col)
	c.d.r.add(fl, fc, problem)
}

// luaPosition places line:col of a script held by node n in the file src.
func luaPosition(n *yaml.Node, src []byte, line, col int) (int, int) {
	if n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) == 0 {
		if line == 1 {
			quote := 0
			if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
				quote = 1
			}
			return n.Line, n.Column + quote + col - 1
		}
		return n.Line + line - 1, col
	}
	lines := strings.Split(string(src), "\n")
	indent := 0
	for i := n.Line; i < len(lines); i++ { // lines[n.Line] is the line after the indicator
		if t := strings.TrimLeft(lines[i], " "); t != "" {
			indent = len(lines[i]) - len(t)
			break
		}
	}
	return n.Line + line, indent + col
}
