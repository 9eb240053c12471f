package lock

import (
	"embed"
	"sort"
	"strings"

	"github.com/redis/go-redis/v9"
)

//go:embed scripts/*.lua
var scriptFS embed.FS

// Scripts are the Lua scripts of the catalog by file name (without .lua).
var Scripts = loadScripts()

func loadScripts() map[string]*redis.Script {
	out := map[string]*redis.Script{}
	entries, err := scriptFS.ReadDir("scripts")
	if err != nil {
		panic(err)
	}
	for _, e := range entries {
		src, err := scriptFS.ReadFile("scripts/" + e.Name())
		if err != nil {
			panic(err)
		}
		out[strings.TrimSuffix(e.Name(), ".lua")] = redis.NewScript(string(src))
	}
	return out
}

// ScriptNames maps each script's SHA1 to its file name (compare_and_delete.lua):
// the engine shows EVAL and EVALSHA of a script by that name.
func ScriptNames() map[string]string {
	out := map[string]string{}
	names := make([]string, 0, len(Scripts))
	for n := range Scripts {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		out[Scripts[n].Hash()] = n + ".lua"
	}
	return out
}
