package zookeeper

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The code view shows the recipe the clients run as this program is built
// with it (this package's lock.go) and go-zookeeper's own lock.go as the
// module holds it; the clients' lock code starts in the recipe, and the
// lost create's send names the recipe's create of its node.
func TestTheCodeViewShowsTheRecipeAsCompiled(t *testing.T) {
	code := (&Service{}).Code()
	own, err := os.ReadFile("lock.go")
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := fs.ReadFile(code.Files, code.File); string(got) != string(own) || code.File != recipeFile {
		t.Errorf("the clients' file %s should be the recipe as compiled (lock.go)", code.File)
	}
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}} {{.Version}}", "github.com/go-zookeeper/zk").Output()
	if err != nil {
		t.Skipf("the module's directory: %v", err)
	}
	dir, version, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
	want, err := os.ReadFile(filepath.Join(dir, "lock.go"))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := fs.ReadFile(code.Files, zkLockFile); string(got) != string(want) {
		t.Errorf("%s differs from the module's lock.go: copy it again (internal/zookeeper/source)", zkLockFile)
	}
	if code.Version != version || !strings.HasPrefix(zkLockFile, code.Dir+"/") {
		t.Errorf("the library's header should be %s %s over %s/, got %s %s over %s/", code.Module, version, zkDir, code.Module, code.Version, code.Dir)
	}
	lines := strings.Split(string(own), "\n")
	if l := lines[createSite.Line-1]; !strings.Contains(l, "m.c.Create(") || !strings.Contains(l, "FlagEphemeral|zk.FlagSequence") {
		t.Errorf("the lost create's site should be the recipe's create of its node, got %s:%d %q", createSite.File, createSite.Line, l)
	}
}
