package lock

import (
	"io/fs"
	"reflect"
	"strings"
	"testing"
)

// Every algorithm names the embedded file that holds its Lock method, and
// that file defines it.
func TestSourceOfEveryAlgorithm(t *testing.T) {
	for _, a := range Algorithms {
		file := SourceOf(a.ID)
		b, err := fs.ReadFile(Source(), file)
		if err != nil {
			t.Fatalf("%s: SourceOf = %q: %v", a.ID, file, err)
		}
		if l := a.Library; l != nil {
			// the library's own file, beside its licence
			if !strings.HasPrefix(file, l.Dir+"/") || !strings.Contains(string(b), "func (") {
				t.Errorf("%s: SourceOf = %q, not a file of the library's code", a.ID, file)
			}
			if _, err := fs.ReadFile(Source(), l.Dir+"/LICENSE"); err != nil {
				t.Errorf("%s: no licence in Source: %v", a.ID, err)
			}
			continue
		}
		typ := reflect.TypeOf(a.New(Config{}))
		if typ.Kind() == reflect.Pointer {
			typ = typ.Elem()
		}
		if !strings.Contains(string(b), "func (l *"+typ.Name()+")") && !strings.Contains(string(b), "func ("+typ.Name()+")") {
			t.Errorf("%s: %s has no method of %s", a.ID, file, typ.Name())
		}
	}
	if got := SourceOf("reentrant-hash"); got != "reentrant.go" {
		t.Errorf("SourceOf(reentrant-hash) = %q, want reentrant.go", got)
	}
	if got := SourceOf("no-such"); got != "" {
		t.Errorf("SourceOf(no-such) = %q, want \"\"", got)
	}
}

// Source holds the Go files and the scripts, not the tests: a walk of it
// lists none, and none opens.
func TestSourceLeavesOutTheTests(t *testing.T) {
	var files []string
	err := fs.WalkDir(Source(), ".", func(name string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, name)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	joined := strings.Join(files, " ")
	for _, want := range []string{"lock.go", "reentrant.go", "scripts/reentrant_lock.lua",
		"redsync/mutex.go", "redsync/runtime.go", "redsync/redis/goredis/v9/goredis.go", "redsync/LICENSE",
		"redislock/redislock.go", "redislock/LICENSE"} {
		if !strings.Contains(joined, want) {
			t.Errorf("Source lacks %s: %v", want, files)
		}
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			t.Errorf("Source lists the test %s", f)
		}
	}
	for _, test := range []string{"lock_test.go", "redsync/mutex_test.go", "redislock/redislock_test.go"} {
		if _, err := fs.ReadFile(Source(), test); err == nil {
			t.Errorf("Source opens %s", test)
		}
	}
}
