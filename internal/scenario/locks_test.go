package scenario

import (
	"reflect"
	"strings"
	"testing"
)

// lockFile is a scenario with one declared lock whose release is release
// (YAML at the indentation of a lock's fields).
func lockFile(release string) string {
	return `scenarios:
  - id: mine
    title: {en: mine}
    locks:
      - name: mine
        acquire:
          commands:
            - {run: [SET, $key, $token, NX, PX, $ttl], ok: OK}
` + release + `
    clients:
      - {name: A, algorithm: mine}
    expect: [safe]
`
}

// A Lua syntax error is reported at the scenario file's own line and
// column: the line inside the block scalar plus the block's offset, the
// column plus its indentation; a one-line script at its value's column.
func TestLuaSyntaxErrorsPointAtTheFile(t *testing.T) {
	for _, tc := range []struct {
		name, release string
		line, col     int
		near          string
	}{
		// file line 10 is "lua: |", so script line 3 is file line 13;
		// the script is indented 12, and KEYS starts at its column 18
		{"block", `        release:
          lua: |
            if redis.call('get', KEYS[1]) == ARGV[1] then
              local n = 1
            redis.call('del' KEYS[1])
            end
          keys: [$key]
          args: [$token]`, 13, 30, "KEYS"},
		// a quoted one-line script at file line 10: its quote at column
		// 16, its text from 17, and "return = 1" has its '=' at script
		// column 8, so file column 24
		{"one line", `        release:
          lua: "return = 1"`, 10, 24, "="},
		// the end of the script: after its last character
		{"at the end", `        release:
          lua: |
            return 1 +`, 11, 23, "end of the script"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errs := Check("mine.yaml", []byte(lockFile(tc.release)))
			for _, e := range errs {
				if strings.HasPrefix(e.Msg, "Lua syntax error") {
					if e.Line != tc.line || e.Col != tc.col || !strings.Contains(e.Msg, tc.near) {
						t.Errorf("got %d:%d %q, want %d:%d near %s", e.Line, e.Col, e.Msg, tc.line, tc.col, tc.near)
					}
					if e.Zh == "" || !strings.Contains(e.Zh, "Lua 语法错误") {
						t.Errorf("no Chinese: %+v", e)
					}
					return
				}
			}
			t.Fatalf("no Lua syntax error among %v", errs)
		})
	}
}

// A command the engine cannot model, sent or called from a script, is
// refused with the list of those it can; so are transactions outside a
// WATCH, unknown placeholders and a lock that takes a catalog name.
func TestDeclaredLockProblems(t *testing.T) {
	for _, tc := range []struct{ release, want string }{
		{`        release:
          commands:
            - {run: [BLPOP, $key, 0]}`, `11:22: the engine cannot model BLPOP: a lock's commands must be among DEL, EXISTS`},
		{`        release:
          lua: |
            return redis.call('lpush', KEYS[1], 'x')
          keys: [$key]`, `11:32: the engine cannot model lpush`},
		{`        release:
          commands:
            - {run: [MULTI]}
            - {run: [DEL, $key]}
            - {run: [EXEC]}`, `MULTI needs the step's watch: keys`},
		{`        release:
          commands:
            - {run: [DEL, $lock]}`, `unknown placeholder $lock (placeholders: $key, $token, $ttl, $ttl_s)`},
		{`        release:
          commands: []`, `a step needs commands or a Lua script (lua:)`},
	} {
		_, errs := Check("mine.yaml", []byte(lockFile(tc.release)))
		if !strings.Contains(Errors(errs).Error(), tc.want) {
			t.Errorf("%s\ngot  %v\nwant %q", tc.release, Errors(errs), tc.want)
		}
	}
	bad := strings.Replace(lockFile(`        release:
          commands:
            - {run: [DEL, $key]}`), "name: mine\n        acquire", "name: redlock\n        acquire", 1)
	bad = strings.Replace(bad, "algorithm: mine", "algorithm: redlock", 1)
	if _, errs := Check("mine.yaml", []byte(bad)); !strings.Contains(Errors(errs).Error(), `lock name "redlock" is a catalog algorithm's`) {
		t.Errorf("a lock named as a catalog algorithm: got %v", Errors(errs))
	}
}

// FuzzLocks fills a declared lock's release with arbitrary Lua and an
// arbitrary command. Whatever they hold: Check never panics; every
// problem is placed inside the file; an accepted file round-trips through
// Marshal, and its lock resolves and decodes its parameters.
func FuzzLocks(f *testing.F) {
	f.Add("if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0", "DEL, $key")
	f.Add("while true do end", "SETNX, $key, $token")
	f.Add("return = 1", "BLPOP, $key, 0")
	f.Add("local s = 'x'\nreturn s ..", "GET, $nope")
	f.Fuzz(func(t *testing.T, lua, cmd string) {
		text := lockFile("        release:\n          lua: |\n            " + strings.ReplaceAll(lua, "\n", "\n            ") +
			"\n          keys: [$key]\n        extend:\n          commands:\n            - {run: [" + cmd + "]}")
		file, errs := Check("fuzz.yaml", []byte(text))
		lines := strings.Count(text, "\n") + 1
		for _, e := range errs {
			if e.Line < 1 || e.Col < 1 || e.Line > lines {
				t.Fatalf("problem outside the file (%d lines): %v\n%s", lines, e, text)
			}
		}
		if len(errs) > 0 {
			return
		}
		out, err := Marshal(file)
		if err != nil {
			t.Fatalf("accepted file does not marshal: %v\n%s", err, text)
		}
		back, err := Parse("marshalled.yaml", out)
		if err != nil {
			t.Fatalf("marshalled file does not parse: %v\n%s", err, out)
		}
		if !reflect.DeepEqual(file, back) {
			t.Fatalf("round trip changed the file:\n%s\n---\n%s", text, out)
		}
		sc := &file.Scenarios[0]
		info, ok := sc.Lookup("mine")
		if !ok {
			t.Fatal("the declared lock does not resolve")
		}
		if _, err := info.Decode(map[string]any{"ttl": "2s", "key": "k"}); err != nil {
			t.Fatalf("the declared lock's parameters: %v", err)
		}
	})
}
