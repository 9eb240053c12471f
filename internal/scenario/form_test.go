package scenario

import (
	"errors"
	"strings"
	"testing"

	"github.com/lockstep/lockstep/internal/lock"
)

// A Lua compare-and-delete pasted in the form: the file it writes parses,
// declares the lock with the pasted script as written, and runs the
// workers on it.
func TestFormYAMLPastedLua(t *testing.T) {
	f := Form{
		Acquire:   "return redis.call('set', KEYS[1], ARGV[1], 'nx', 'px', ARGV[2])",
		AcquireOK: "OK",
		Release:   "if redis.call('get', KEYS[1]) == ARGV[1] then\n  return redis.call('del', KEYS[1])\nend\nreturn 0",
		ReleaseOK: "1",
		Workers:   4, TTL: "1s", Work: "1500ms", Retry: "100ms",
	}
	y, err := FormYAML(f)
	if err != nil {
		t.Fatal(err)
	}
	file, err := Parse("form.yaml", []byte(y))
	if err != nil {
		t.Fatal(err)
	}
	sc := file.Scenarios[0]
	if sc.ID != FormID || len(sc.Clients) != 4 || len(sc.Locks) != 1 {
		t.Fatalf("scenario %s: %d clients, %d locks; want %s, 4, 1", sc.ID, len(sc.Clients), len(sc.Locks), FormID)
	}
	l := sc.Locks[0]
	if strings.TrimSpace(l.Release.Lua) != f.Release || l.Acquire.OK != "OK" || l.Release.OK != "1" || l.TTL.D().String() != "1s" {
		t.Errorf("lock as declared: %+v", l)
	}
	for _, c := range sc.Clients {
		if c.Algorithm != FormID || c.Work.D().String() != "1.5s" {
			t.Errorf("client %+v: want algorithm %s, work 1.5s", c, FormID)
		}
	}
}

// Commands pasted one a line, with => for the reply that means success.
func TestFormYAMLPastedCommands(t *testing.T) {
	y, err := FormYAML(Form{Acquire: "SET $key $token NX PX $ttl => OK\n", Release: "\nDEL $key", Workers: 2, TTL: "2s", Work: "500ms", Retry: "200ms"})
	if err != nil {
		t.Fatal(err)
	}
	file, err := Parse("form.yaml", []byte(y))
	if err != nil {
		t.Fatal(err)
	}
	l := file.Scenarios[0].Locks[0]
	if got := l.Acquire.Commands; len(got) != 1 || strings.Join(got[0].Run, " ") != "SET $key $token NX PX $ttl" || got[0].OK != "OK" {
		t.Errorf("acquire %+v", got)
	}
	if got := l.Release.Commands; len(got) != 1 || strings.Join(got[0].Run, " ") != "DEL $key" || got[0].OK != "" {
		t.Errorf("release %+v", got)
	}
}

// A catalog lock picked, any of them: every worker runs it with the
// form's lease and retry under the lock's own names, Redlock on its
// masters.
func TestFormYAMLCatalog(t *testing.T) {
	for _, id := range lock.IDs() {
		y, err := FormYAML(Form{Lock: id, Workers: 3, TTL: "1s", Work: "500ms", Retry: "100ms"})
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		file, err := Parse("form.yaml", []byte(y))
		if err != nil {
			t.Fatalf("%s: %v\n%s", id, err, y)
		}
		sc := file.Scenarios[0]
		if len(sc.Locks) != 0 || len(sc.Clients) != 3 || sc.Clients[0].Algorithm != id {
			t.Errorf("%s:\n%s", id, y)
		}
		if a, _ := lock.Lookup(id); a.Nodes > 1 && len(sc.Nodes) != a.Nodes {
			t.Errorf("%s needs %d masters; the file has %d nodes", id, a.Nodes, len(sc.Nodes))
		}
		if id == "redlock" && sc.Clients[0].Params["ttl"] != "1s" {
			t.Errorf("redlock's params %v: want its ttl 1s", sc.Clients[0].Params)
		}
	}
}

// Bad input is refused at the field it is in, in both languages; a Lua
// syntax error at the pasted script's own line and column.
func TestFormYAMLErrors(t *testing.T) {
	ok := Form{Acquire: "SET $key $token NX PX $ttl => OK", Release: "DEL $key", Workers: 2, TTL: "1s", Work: "500ms", Retry: "100ms"}
	cases := []struct {
		name  string
		edit  func(*Form)
		field string
		says  string
	}{
		{"no workers", func(f *Form) { f.Workers = 0 }, "workers", "give 1 to 16"},
		{"too many workers", func(f *Form) { f.Workers = 50 }, "workers", "50 workers"},
		{"bad ttl", func(f *Form) { f.TTL = "soon" }, "ttl", `bad duration "soon"`},
		{"zero work", func(f *Form) { f.Work = "0" }, "work", "above zero"},
		{"negative retry", func(f *Form) { f.Retry = "-1s" }, "retry", "above zero"},
		{"both", func(f *Form) { f.Lock = "redlock" }, "lock", "not both"},
		{"unknown lock", func(f *Form) { f.Lock, f.Acquire, f.Release = "nope", "", "" }, "lock", `unknown lock "nope"`},
		{"no acquire", func(f *Form) { f.Acquire = "  " }, "acquire", "paste your lock's acquire"},
		{"no release", func(f *Form) { f.Release = "" }, "release", "paste your lock's release"},
		{"lua syntax", func(f *Form) {
			f.Release = "if redis.call('get', KEYS[1]) == ARGV[1] then\n  return redis.call('del' KEYS[1])\nend"
		}, "release", "line 2, column"},
		{"unknown placeholder", func(f *Form) { f.Acquire = "SET $key $tokn NX PX $ttl => OK" }, "acquire", "line 1: unknown placeholder $tokn"},
		{"command not modelled", func(f *Form) { f.Release = "return redis.call('flushall')" }, "release", "cannot model flushall"},
	}
	for _, c := range cases {
		f := ok
		c.edit(&f)
		_, err := FormYAML(f)
		var fe *FormError
		if !errors.As(err, &fe) {
			t.Errorf("%s: %v, want a FormError", c.name, err)
			continue
		}
		w := fe.Words()
		if fe.Field != c.field || !strings.Contains(w.En, c.says) || w.Zh == "" || w.Zh == w.En || !strings.HasPrefix(w.Zh, formFields[c.field].Zh+"：") {
			t.Errorf("%s: field %s, %q / %q; want field %s saying %q, and its Chinese", c.name, fe.Field, w.En, w.Zh, c.field, c.says)
		}
	}
}
