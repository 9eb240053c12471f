package lock

import (
	"os"
	"slices"
	"testing"
)

// Every Lua file under scripts/ is bound to a script and named for the
// timeline's captions.
func TestScriptsAllBound(t *testing.T) {
	entries, err := os.ReadDir("scripts")
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, e := range entries {
		files = append(files, e.Name())
	}
	var bound []string
	for name := range scriptFiles {
		bound = append(bound, name)
	}
	slices.Sort(bound)
	if !slices.Equal(files, bound) {
		t.Errorf("scripts/ holds %v; bound: %v", files, bound)
	}
	if names := ScriptNames(); len(names) != len(files)+len(libraryScripts) {
		t.Errorf("ScriptNames has %d SHAs, want %d (the files') and %d (the libraries')", len(names), len(files), len(libraryScripts))
	}
}
