package miniredis

// The budget of one script call (a Lockstep patch): a script that loops or
// builds strings without end is stopped with an error, and the instance's
// mutex, which the script holds while it runs, is free again.

import (
	"context"
	"fmt"
	"time"

	lua "github.com/yuin/gopher-lua"
)

// The default budget of one EVAL or EVALSHA.
const (
	// DefaultScriptInstructions is how many Lua VM instructions one call
	// may run (a lock's script runs a few dozen; a million take some tens
	// of milliseconds).
	DefaultScriptInstructions = 1_000_000
	// DefaultScriptStringBytes is the longest string a script may build
	// (by .., string.rep, table.concat or string.format).
	DefaultScriptStringBytes = 1 << 20
)

// ScriptLimits bound what one script call may spend; a zero field takes
// its default.
type ScriptLimits struct {
	Instructions int
	StringBytes  int
}

// SetScriptLimits sets the budget of every later script call.
func (m *Miniredis) SetScriptLimits(l ScriptLimits) {
	m.Lock()
	defer m.Unlock()
	m.scriptLimits = l
}

// checkEvery is how many instructions pass between two looks at the
// strings a script holds in its registers.
const checkEvery = 4

// scriptBudget is the context a script call runs under: gopher-lua asks
// for its Done channel before every instruction, which counts the
// instruction, and looks at the strings the running function holds. Once
// the budget is spent the channel is closed and Err says why.
//
// It is used by the script's own goroutine alone. A coroutine derives its
// context with context.WithCancel, which would watch a foreign parent
// from a goroutine of its own (calling Done there, a data race); the
// budget's AfterFunc lets the context package register the child instead.
type scriptBudget struct {
	left, limit int
	maxString   int
	l           *lua.LState // the interpreter whose registers are looked at
	done        chan struct{}
	err         error
	ticks       int
	after       map[int]func() // AfterFunc's functions, run when the budget is spent
	nextAfter   int
}

func newScriptBudget(l *lua.LState, lim ScriptLimits) *scriptBudget {
	if lim.Instructions <= 0 {
		lim.Instructions = DefaultScriptInstructions
	}
	if lim.StringBytes <= 0 {
		lim.StringBytes = DefaultScriptStringBytes
	}
	return &scriptBudget{left: lim.Instructions, limit: lim.Instructions, maxString: lim.StringBytes, l: l, done: make(chan struct{})}
}

// Deadline is none: the budget counts instructions, not time.
func (b *scriptBudget) Deadline() (time.Time, bool) { return time.Time{}, false }

// Value holds nothing.
func (b *scriptBudget) Value(interface{}) interface{} { return nil }

// Err says why the script was stopped, nil while it may run.
func (b *scriptBudget) Err() error { return b.err }

// Done counts one instruction of any thread of the call.
func (b *scriptBudget) Done() <-chan struct{} {
	if b.err != nil {
		return b.done
	}
	b.left--
	if b.left < 0 {
		b.stop(fmt.Errorf("script stopped: it ran more than %d instructions (a loop without end?)", b.limit))
		return b.done
	}
	b.ticks++
	if b.ticks%checkEvery == 0 {
		if n := b.longest(); n > b.maxString {
			b.stop(fmt.Errorf("script stopped: it built a string of %d bytes, more than the %d a script may", n, b.maxString))
		}
	}
	return b.done
}

func (b *scriptBudget) stop(err error) {
	b.err = err
	close(b.done)
	for _, f := range b.after {
		f()
	}
	b.after = nil
}

// AfterFunc runs f when the budget is spent (at once, if it is), and gives
// a function that unregisters it. With it, a context derived from the
// budget (a coroutine's) is cancelled with it, on the script's goroutine.
func (b *scriptBudget) AfterFunc(f func()) func() bool {
	if b.err != nil {
		go f() // as context.AfterFunc does: the caller may hold a lock f takes
		return func() bool { return false }
	}
	if b.after == nil {
		b.after = map[int]func(){}
	}
	id := b.nextAfter
	b.nextAfter++
	b.after[id] = f
	return func() bool {
		_, ok := b.after[id]
		delete(b.after, id)
		return ok
	}
}

// longest is the length of the longest string in the registers of the
// running function.
func (b *scriptBudget) longest() int {
	n := 0
	for i := b.l.GetTop(); i >= 1; i-- {
		if s, ok := b.l.Get(i).(lua.LString); ok && len(s) > n {
			n = len(s)
		}
	}
	return n
}

var _ context.Context = (*scriptBudget)(nil)

// checkSize raises a Lua error when a library function would build a
// string longer than the running call's budget allows.
func (st *luaState) checkSize(l *lua.LState, n int64) {
	limit := int64(DefaultScriptStringBytes)
	if st.budget != nil {
		limit = int64(st.budget.maxString)
	}
	if n > limit {
		l.RaiseError("script stopped: it would build a string of %d bytes, more than the %d a script may", n, limit)
	}
}

// budgetLibraries replaces the library functions that build strings in one
// call, or run code on a thread of its own, with ones that keep to the
// call's budget: string.rep, table.concat, string.format (widths of at
// most two digits, as Lua 5.1's), coroutine.create and coroutine.wrap (the
// new thread counts its instructions in the same budget).
func (st *luaState) budgetLibraries() {
	l := st.l
	str := l.GetGlobal("string").(*lua.LTable)
	rep := str.RawGetString("rep").(*lua.LFunction)
	str.RawSetString("rep", l.NewFunction(func(l *lua.LState) int {
		s, n := l.CheckString(1), l.CheckInt64(2)
		if n > 0 {
			st.checkSize(l, int64(len(s))*n)
		}
		return callThrough(l, rep)
	}))
	format := str.RawGetString("format").(*lua.LFunction)
	str.RawSetString("format", l.NewFunction(func(l *lua.LState) int {
		if err := formatWidths(l.CheckString(1)); err != "" {
			l.RaiseError("%s", err)
		}
		return callThrough(l, format)
	}))
	tab := l.GetGlobal("table").(*lua.LTable)
	concat := tab.RawGetString("concat").(*lua.LFunction)
	tab.RawSetString("concat", l.NewFunction(func(l *lua.LState) int {
		t, sep := l.CheckTable(1), l.OptString(2, "")
		var n int64
		for i := 1; i <= t.Len(); i++ {
			if s, ok := t.RawGetInt(i).(lua.LString); ok {
				n += int64(len(s)) + int64(len(sep))
			}
			st.checkSize(l, n)
		}
		return callThrough(l, concat)
	}))
	co := l.GetGlobal("coroutine").(*lua.LTable)
	create := co.RawGetString("create").(*lua.LFunction)
	co.RawSetString("create", l.NewFunction(func(l *lua.LState) int {
		n := callThrough(l, create)
		if th, ok := l.Get(-1).(*lua.LState); ok && st.budget != nil {
			th.SetContext(st.budget)
		}
		return n
	}))
	_ = doScript(l, `coroutine.wrap = function(f)
  local co = coroutine.create(f)
  local function pass(ok, ...)
    if not ok then error((...), 2) end
    return ...
  end
  return function(...) return pass(coroutine.resume(co, ...)) end
end`)
}

// callThrough calls fn with the arguments of the running Go function and
// returns its results.
func callThrough(l *lua.LState, fn *lua.LFunction) int {
	top := l.GetTop()
	l.Push(fn)
	for i := 1; i <= top; i++ {
		l.Push(l.Get(i))
	}
	l.Call(top, lua.MultRet)
	return l.GetTop() - top
}

// formatWidths refuses a format whose width or precision has more than two
// digits, as Lua 5.1's string.format does ("" when the format is fine).
func formatWidths(f string) string {
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		i++
		if i < len(f) && f[i] == '%' {
			continue
		}
		for i < len(f) && (f[i] == '-' || f[i] == '+' || f[i] == ' ' || f[i] == '#' || f[i] == '0') {
			i++
		}
		digits := 0
		for i < len(f) && (f[i] >= '0' && f[i] <= '9' || f[i] == '.') {
			if f[i] == '.' {
				digits = 0
			} else if digits++; digits > 2 {
				return "invalid format (width or precision too long)"
			}
			i++
		}
	}
	return ""
}
