package miniredis

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/parse"

	luajson "github.com/alicebob/miniredis/v2/gopher-json"
	"github.com/alicebob/miniredis/v2/server"
)

func commandsScripting(m *Miniredis) {
	m.srv.Register("EVAL", m.cmdEval)
	m.srv.Register("EVAL_RO", m.cmdEvalro, server.ReadOnlyOption())
	m.srv.Register("EVALSHA", m.cmdEvalsha)
	m.srv.Register("EVALSHA_RO", m.cmdEvalshaRo, server.ReadOnlyOption())
	m.srv.Register("SCRIPT", m.cmdScript)
}

var (
	parsedScripts = sync.Map{}
)

// luaState is an interpreter kept between script calls: the libraries are
// opened and the globals protected once; each call sets KEYS, ARGV and the
// redis functions for its peer. A call leaves nothing for the next: after
// it the interpreter must be as it was made (pristine), or it is dropped,
// so every script sees what a fresh interpreter would show it.
type luaState struct {
	l        *lua.LState
	redisMod *lua.LTable
	pristine []tableSnap
	budget   *scriptBudget // the running call's, nil between calls
}

// tableSnap is what a table held, and its metatable, when the interpreter
// was made.
type tableSnap struct {
	t  *lua.LTable
	mt lua.LValue
	kv map[lua.LValue]lua.LValue
}

// snapTables records the globals, every table in them and every table in
// those (the libraries, package.loaded), by identity.
func snapTables(l *lua.LState) []tableSnap {
	var out []tableSnap
	seen := map[*lua.LTable]bool{}
	var add func(t *lua.LTable, depth int)
	add = func(t *lua.LTable, depth int) {
		if seen[t] {
			return
		}
		seen[t] = true
		s := tableSnap{t: t, mt: l.GetMetatable(t), kv: map[lua.LValue]lua.LValue{}}
		var inner []*lua.LTable
		t.ForEach(func(k, v lua.LValue) {
			s.kv[k] = v
			if tv, ok := v.(*lua.LTable); ok && depth < 2 {
				inner = append(inner, tv)
			}
		})
		out = append(out, s)
		if mt, ok := s.mt.(*lua.LTable); ok {
			inner = append(inner, mt)
		}
		for _, tv := range inner {
			add(tv, depth+1)
		}
	}
	add(l.Get(lua.GlobalsIndex).(*lua.LTable), 0)
	for _, v := range []lua.LValue{lua.LNil, lua.LTrue, lua.LNumber(0), lua.LString("")} {
		if mt, ok := l.GetMetatable(v).(*lua.LTable); ok {
			add(mt, 1)
		}
	}
	return out
}

// isPristine reports whether every recorded table holds what it held.
func (st *luaState) isPristine() bool {
	for _, s := range st.pristine {
		if st.l.GetMetatable(s.t) != s.mt {
			return false
		}
		n, same := 0, true
		s.t.ForEach(func(k, v lua.LValue) {
			n++
			if w, ok := s.kv[k]; !ok || w != v {
				same = false
			}
		})
		if !same || n != len(s.kv) {
			return false
		}
	}
	// Metatables of the other types (debug.setmetatable) are not kept.
	for _, v := range []lua.LValue{lua.LNil, lua.LTrue, lua.LNumber(0)} {
		if st.l.GetMetatable(v) != lua.LNil {
			return false
		}
	}
	return true
}

var luaStatePool = sync.Pool{New: func() interface{} { return newLuaState() }}

// luaStatesMade counts the interpreters made, for the tests.
var luaStatesMade int64

func newLuaState() *luaState {
	atomic.AddInt64(&luaStatesMade, 1)
	l := lua.NewState(lua.Options{SkipOpenLibs: true})
	for _, pair := range []struct {
		n string
		f lua.LGFunction
	}{
		{lua.LoadLibName, lua.OpenPackage},
		{lua.BaseLibName, lua.OpenBase},
		{lua.CoroutineLibName, lua.OpenCoroutine},
		{lua.TabLibName, lua.OpenTable},
		{lua.StringLibName, lua.OpenString},
		{lua.MathLibName, lua.OpenMath},
		{lua.DebugLibName, lua.OpenDebug},
	} {
		if err := l.CallByParam(lua.P{
			Fn:      l.NewFunction(pair.f),
			NRet:    0,
			Protect: true,
		}, lua.LString(pair.n)); err != nil {
			panic(err)
		}
	}
	luajson.Preload(l)
	requireGlobal(l, "cjson", "json")
	redisMod := l.CreateTable(0, 16)
	for k, v := range luaRedisConstants {
		redisMod.RawSetString(k, v)
	}
	for _, name := range []string{"redis", "server"} {
		l.SetGlobal(name, redisMod)
	}
	l.RegisterModule("os", mkLuaOS())
	st := &luaState{l: l, redisMod: redisMod}
	st.budgetLibraries()
	_ = doScript(l, protectGlobals)
	st.pristine = snapTables(l)
	return st
}

// Execute lua. Needs to run m.Lock()ed, from within withTx().
// Returns true if the lua was OK (and hence should be cached).
func (m *Miniredis) runLuaScript(c *server.Peer, sha, script string, readOnly bool, args []string) bool {
	st := luaStatePool.Get().(*luaState)
	l := st.l
	l.SetTop(0)
	st.budget = newScriptBudget(l, m.scriptLimits)
	l.SetContext(st.budget)
	reuse := false
	var redisFuncs map[string]lua.LGFunction
	defer func() {
		l.RemoveContext()
		stopped := st.budget.err != nil
		st.budget = nil
		if !reuse || stopped {
			l.Close()
			return
		}
		// Nothing of this call stays for the next: its stack, its
		// KEYS and ARGV, its redis functions (they hold its peer).
		l.SetTop(0)
		g := l.Get(lua.GlobalsIndex).(*lua.LTable)
		g.RawSetString("KEYS", lua.LNil)
		g.RawSetString("ARGV", lua.LNil)
		for fname := range redisFuncs {
			st.redisMod.RawSetString(fname, lua.LNil)
		}
		if !st.isPristine() {
			l.Close() // the script changed what the next would see
			return
		}
		luaStatePool.Put(st)
	}()

	// set global variable KEYS
	keysTable := l.NewTable()
	keysS, args := args[0], args[1:]
	keysLen, err := strconv.Atoi(keysS)
	if err != nil {
		c.WriteError(msgInvalidInt)
		reuse = true
		return false
	}
	if keysLen < 0 {
		c.WriteError(msgNegativeKeysNumber)
		reuse = true
		return false
	}
	if keysLen > len(args) {
		c.WriteError(msgInvalidKeysNumber)
		reuse = true
		return false
	}
	keys, args := args[:keysLen], args[keysLen:]
	for i, k := range keys {
		l.RawSet(keysTable, lua.LNumber(i+1), lua.LString(k))
	}
	g := l.Get(lua.GlobalsIndex).(*lua.LTable)
	g.RawSetString("KEYS", keysTable)

	argvTable := l.NewTable()
	for i, a := range args {
		l.RawSet(argvTable, lua.LNumber(i+1), lua.LString(a))
	}
	g.RawSetString("ARGV", argvTable)

	var redisConstants map[string]lua.LValue
	redisFuncs, redisConstants = mkLua(m.srv, c, sha, readOnly)
	for fname, fn := range redisFuncs {
		st.redisMod.RawSetString(fname, l.NewFunction(fn))
	}
	for k, v := range redisConstants {
		st.redisMod.RawSetString(k, v)
	}

	// lua can call redis.setresp(...), but it's tmp state.
	oldresp := c.Resp3
	if err := doScript(l, script); err != nil {
		c.WriteError(err.Error())
		reuse = true
		return false
	}

	luaToRedis(l, c, l.Get(1))
	c.Resp3 = oldresp
	c.SwitchResp3 = nil
	reuse = true
	return true
}

// doScript pre-compiles the given script into a Lua prototype,
// then executes the pre-compiled function against the given lua state.
//
// This is thread-safe.
func doScript(l *lua.LState, script string) error {
	proto, err := compile(script)
	if err != nil {
		return fmt.Errorf(errLuaParseError(err))
	}

	lfunc := l.NewFunctionFromProto(proto)
	l.Push(lfunc)
	if err := l.PCall(0, lua.MultRet, nil); err != nil {
		// ensure we wrap with the correct format.
		return fmt.Errorf(errLuaParseError(err))
	}

	return nil
}

func compile(script string) (*lua.FunctionProto, error) {
	if val, ok := parsedScripts.Load(script); ok {
		return val.(*lua.FunctionProto), nil
	}
	chunk, err := parse.Parse(strings.NewReader(script), "<string>")
	if err != nil {
		return nil, err
	}
	proto, err := lua.Compile(chunk, "")
	if err != nil {
		return nil, err
	}
	parsedScripts.Store(script, proto)
	return proto, nil
}

// Shared implementation for EVAL and EVALRO
func (m *Miniredis) cmdEvalShared(c *server.Peer, cmd string, readOnly bool, args []string) {
	if !m.isValidCMD(c, cmd, args, atLeast(2)) {
		return
	}

	ctx := getCtx(c)
	if ctx.nested {
		c.WriteError(msgNotFromScripts(ctx.nestedSHA))
		return
	}

	script, args := args[0], args[1:]

	withTx(m, c, func(c *server.Peer, ctx *connCtx) {
		sha := sha1Hex(script)
		ok := m.runLuaScript(c, sha, script, readOnly, args)
		if ok {
			m.scripts[sha] = script
		}
	})
}

// Wrapper function for EVAL command
func (m *Miniredis) cmdEval(c *server.Peer, cmd string, args []string) {
	m.cmdEvalShared(c, cmd, false, args)
}

// Shared implementation for EVALSHA and EVALSHA_RO
func (m *Miniredis) cmdEvalshaShared(c *server.Peer, cmd string, readOnly bool, args []string) {
	if !m.isValidCMD(c, cmd, args, atLeast(2)) {
		return
	}

	ctx := getCtx(c)
	if ctx.nested {
		c.WriteError(msgNotFromScripts(ctx.nestedSHA))
		return
	}

	sha, args := args[0], args[1:]

	withTx(m, c, func(c *server.Peer, ctx *connCtx) {
		script, ok := m.scripts[sha]
		if !ok {
			c.WriteError(msgNoScriptFound)
			return
		}

		m.runLuaScript(c, sha, script, readOnly, args)
	})
}

// Wrapper function for EVALSHA command
func (m *Miniredis) cmdEvalsha(c *server.Peer, cmd string, args []string) {
	m.cmdEvalshaShared(c, cmd, false, args)
}

// Wrapper function for EVALRO command
func (m *Miniredis) cmdEvalro(c *server.Peer, cmd string, args []string) {
	m.cmdEvalShared(c, cmd, true, args)
}

// Wrapper function for EVALSHA_RO command
func (m *Miniredis) cmdEvalshaRo(c *server.Peer, cmd string, args []string) {
	m.cmdEvalshaShared(c, cmd, true, args)
}

func (m *Miniredis) cmdScript(c *server.Peer, cmd string, args []string) {
	if !m.isValidCMD(c, cmd, args, atLeast(1)) {
		return
	}

	ctx := getCtx(c)
	if ctx.nested {
		c.WriteError(msgNotFromScripts(ctx.nestedSHA))
		return
	}

	var opts struct {
		subcmd string
		script string
	}

	opts.subcmd, args = args[0], args[1:]

	switch strings.ToLower(opts.subcmd) {
	case "load":
		if len(args) != 1 {
			setDirty(c)
			c.WriteError(fmt.Sprintf(msgFScriptUsage, "LOAD"))
			return
		}
		opts.script = args[0]
	case "exists":
		if len(args) == 0 {
			setDirty(c)
			c.WriteError(errWrongNumber("script|exists"))
			return
		}
	case "flush":
		if len(args) == 1 {
			switch strings.ToUpper(args[0]) {
			case "SYNC", "ASYNC":
				args = args[1:]
			default:
			}
		}
		if len(args) != 0 {
			setDirty(c)
			c.WriteError(msgScriptFlush)
			return
		}
	default:
		setDirty(c)
		c.WriteError(fmt.Sprintf(msgFScriptUsageSimple, strings.ToUpper(opts.subcmd)))
		return
	}

	withTx(m, c, func(c *server.Peer, ctx *connCtx) {
		switch strings.ToLower(opts.subcmd) {
		case "load":
			if _, err := parse.Parse(strings.NewReader(opts.script), "user_script"); err != nil {
				c.WriteError(errLuaParseError(err))
				return
			}
			sha := sha1Hex(opts.script)
			m.scripts[sha] = opts.script
			c.WriteBulk(sha)
		case "exists":
			c.WriteLen(len(args))
			for _, arg := range args {
				if _, ok := m.scripts[arg]; ok {
					c.WriteInt(1)
				} else {
					c.WriteInt(0)
				}
			}
		case "flush":
			m.scripts = map[string]string{}
			c.WriteOK()
		}
	})
}

func sha1Hex(s string) string {
	h := sha1.New()
	io.WriteString(h, s)
	return hex.EncodeToString(h.Sum(nil))
}

// requireGlobal imports module modName into the global namespace with the
// identifier id.  panics if an error results from the function execution
func requireGlobal(l *lua.LState, id, modName string) {
	if err := l.CallByParam(lua.P{
		Fn:      l.GetGlobal("require"),
		NRet:    1,
		Protect: true,
	}, lua.LString(modName)); err != nil {
		panic(err)
	}
	mod := l.Get(-1)
	l.Pop(1)

	l.SetGlobal(id, mod)
}

// the following script protects globals
// it is based on:  http://metalua.luaforge.net/src/lib/strict.lua.html
var protectGlobals = `
local dbg=debug
local mt = {}
setmetatable(_G, mt)
mt.__newindex = function (t, n, v)
  if dbg.getinfo(2) then
    local w = dbg.getinfo(2, "S").what
    if w ~= "C" then
      error("Script attempted to create global variable '"..tostring(n).."'", 2)
    end
  end
  rawset(t, n, v)
end
mt.__index = function (t, n)
  if dbg.getinfo(2) and dbg.getinfo(2, "S").what ~= "C" then
    error("Script attempted to access nonexistent global variable '"..tostring(n).."'", 2)
  end
  return rawget(t, n)
end
debug = nil

`
