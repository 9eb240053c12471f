package etcd

import (
	"io/fs"
	"os"
	"os/exec"
	"path"
	"strings"
	"testing"

	"github.com/lockstep/lockstep/internal/sim"
)

// The code view shows the concurrency package's files as this program
// is built with them: each embedded copy equals the module's own file.
func TestTheCodeViewShowsTheModulesOwnFiles(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "go.etcd.io/etcd/client/v3").Output()
	if err != nil {
		t.Skipf("the module's directory: %v", err)
	}
	dir := strings.TrimSpace(string(out))
	code := (&Service{}).Code()
	n := 0
	err = fs.WalkDir(code.Files, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		n++
		got, _ := fs.ReadFile(code.Files, name)
		want, err := os.ReadFile(path.Join(dir, "concurrency", path.Base(name)))
		if err != nil {
			return err
		}
		if string(got) != string(want) {
			t.Errorf("%s differs from the module's %s: copy it again (internal/etcd/source)", name, path.Base(name))
		}
		return nil
	})
	if err != nil || n == 0 {
		t.Fatalf("the embedded files (%d): %v", n, err)
	}
	if _, err := fs.Stat(code.Files, code.File); err != nil {
		t.Errorf("the clients' file %s is not among them: %v", code.File, err)
	}
}

// Each request the Mutex makes carries its call site in the Mutex's own
// files, on the line that makes it: the Txn of tryAcquire, the Get of
// waitDeletes, the Delete of Unlock, the lease's Grant in NewSession (and
// its keep-alives, sent by the goroutine NewSession's KeepAlive starts; the
// Watch of waitDelete). The
// lesson's own writes to the account are not the lock's code: no site.
func TestEachRequestNamesItsLineInTheMutex(t *testing.T) {
	t.Parallel()
	files := (&Service{}).Code().Files
	line := func(s *sim.Source) string {
		body, err := fs.ReadFile(files, s.File)
		if err != nil {
			t.Fatalf("%s: %v", s.File, err)
		}
		lines := strings.Split(string(body), "\n")
		if s.Line < 1 || s.Line > len(lines) {
			t.Fatalf("%s:%d is past the file's end", s.File, s.Line)
		}
		return lines[s.Line-1]
	}
	calls := map[string]string{"Txn": "Txn(", "Range": "Get(", "DeleteRange": "Delete(", "LeaseGrant": "Grant(", "LeaseKeepAlive": "KeepAlive(", "Watch": "Watch("}
	seen := map[string]bool{}
	for _, e := range play(t, lesson(t, "etcd-two-workers")) {
		if e.Kind != sim.KindSend || len(e.Cmd) == 0 {
			continue
		}
		account := len(e.Cmd) > 1 && strings.Contains(strings.Join(e.Cmd, " "), Resource)
		switch {
		case account && e.Src != nil:
			t.Errorf("#%d %v: the lesson's own write has a site in the Mutex: %+v", e.Seq, e.Cmd, e.Src)
		case account || calls[e.Cmd[0]] == "":
		case e.Src == nil:
			t.Errorf("#%d %v: no call site", e.Seq, e.Cmd)
		case !strings.Contains(line(e.Src), calls[e.Cmd[0]]):
			t.Errorf("#%d %v: %s:%d (%s) reads %q, want a line with %s", e.Seq, e.Cmd, e.Src.File, e.Src.Line, e.Src.Func, line(e.Src), calls[e.Cmd[0]])
		default:
			seen[e.Cmd[0]+" "+e.Src.Func] = true
		}
	}
	for _, want := range []string{"Txn (*Mutex).tryAcquire", "DeleteRange (*Mutex).Unlock", "LeaseGrant NewSession", "LeaseKeepAlive NewSession", "Watch waitDelete"} {
		if !seen[want] {
			t.Errorf("no %s among the requests' sites: %v", want, seen)
		}
	}
}
