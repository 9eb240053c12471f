package bundle

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/lockstep/lockstep/web"
)

// node is the path of node, for running modules and joined scripts; the
// test is skipped without it (scripts/test.sh installs it).
func node(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed (apt-get install nodejs): the joined script cannot be run")
	}
	return p
}

// run runs entry from dir in node as an ES module and returns what it
// printed.
func run(t *testing.T, nodePath, dir, entry string) string {
	t.Helper()
	cmd := exec.Command(nodePath, entry)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node %s: %v\n%s", entry, err, out)
	}
	return string(out)
}

// Four modules as the page writes them: one imported twice (run once),
// a name imported under another, a name passed on from a module the entry
// never imports itself, a function called before its line (hoisted), a
// class, and a const object changed after it was exported. A module
// runs after all it imports or passes on (d before b). The joined
// script must print what the modules print, run as modules by node.
var diamond = fstest.MapFS{
	"main.js": {Data: []byte(`import { hello, Counter, words } from './b.js';
import { twice as double } from './c.js';
import { shout } from './d.js';
console.log('main', hello('x'), new Counter().next(), double(4), shout('hi'), words.n);
`)},
	"b.js": {Data: []byte(`import { twice } from './c.js';
export { shout } from './d.js'; // passed on
console.log('b runs', twice(1));
export function hello(s) { return 'hello ' + s + early(); }
function early() { return '!'; }
export class Counter { constructor() { this.n = 0; } next() { return ++this.n; } }
export const words = { n: 1 };
words.n = 2;
`)},
	"c.js": {Data: []byte(`console.log('c runs');
const $ = (s) => s; // each module's own top-level names
export const twice = (n) => $(n * 2);
`)},
	"d.js": {Data: []byte(`import { twice } from './c.js';
console.log('d runs', twice(3));
const $ = 'd';
export async function later() { return $; }
export function shout(s) { return s.toUpperCase() + $; }
`)},
}

func TestTheJoinedScriptRunsAsTheModulesDo(t *testing.T) {
	n := node(t)
	dir := t.TempDir()
	for name, f := range diamond {
		if err := os.WriteFile(filepath.Join(dir, name), f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"type": "module"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	joined, err := Join(diamond, "main.js")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "joined.js"), joined, 0o644); err != nil {
		t.Fatal(err)
	}
	want := "c runs\nd runs 6\nb runs 2\nmain hello x! 1 8 HId 2\n"
	if got := run(t, n, dir, "main.js"); got != want {
		t.Fatalf("the modules themselves printed %q, want %q (the test's own premise)", got, want)
	}
	if got := run(t, n, dir, "joined.js"); got != want {
		t.Errorf("the joined script printed %q, the modules %q\n%s", got, want, joined)
	}
}

// The page's own modules join, and the result is a script node reads.
func TestThePagesModulesJoin(t *testing.T) {
	static, _ := web.Embedded()
	joined, err := Join(static, "app.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"app.js", "socket.js", "timeline.js", "i18n.js", "words.js"} {
		if !strings.Contains(string(joined), "\n// ./"+name+"\n") {
			t.Errorf("the joined page lacks %s", name)
		}
	}
	if strings.Contains(string(joined), "\n// ./early.js\n") {
		t.Error("the joined page holds early.js, which app.js does not import")
	}
	cmd := exec.Command(node(t), "--input-type=module", "--check")
	cmd.Stdin = strings.NewReader(string(joined))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("node cannot read the joined page: %v\n%s", err, out)
	}
}

// What the joined script could not keep as the browser would read it is
// refused, naming the file and line.
func TestJoinRefusesWhatItCannotKeep(t *testing.T) {
	for _, c := range []struct {
		about string
		files fstest.MapFS
		want  string
	}{
		{"a default export", fstest.MapFS{"a.js": {Data: []byte("const x = 1;\nexport default x;\n")}}, "a.js:2"},
		{"an exported let, which may change after", fstest.MapFS{"a.js": {Data: []byte("export let n = 1;\n")}}, "a.js:1"},
		{"a namespace import", fstest.MapFS{"a.js": {Data: []byte("import * as b from './b.js';\n")}, "b.js": {}}, "a.js:1"},
		{"an import over two lines", fstest.MapFS{"a.js": {Data: []byte("import {\n  b } from './b.js';\n")}, "b.js": {}}, "a.js:1"},
		{"a cycle", fstest.MapFS{"a.js": {Data: []byte("import { b } from './b.js';\nexport const a = 1;\n")}, "b.js": {Data: []byte("import { a } from './a.js';\nexport const b = 2;\n")}}, "b.js:1: imports a.js, which imports it back"},
		{"a name the module does not export", fstest.MapFS{"a.js": {Data: []byte("\nimport { nope } from './b.js';\n")}, "b.js": {Data: []byte("export const b = 2;\n")}}, "a.js:2: b.js does not export nope"},
		{"a missing module", fstest.MapFS{"a.js": {Data: []byte("import { b } from './b.js';\n")}}, "b.js"},
		{"a dynamic import", fstest.MapFS{"a.js": {Data: []byte("const m = await import('./b.js');\n")}}, "a.js:1: a dynamic import"},
	} {
		_, err := Join(c.files, "a.js")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error with %q", c.about, err, c.want)
		}
	}
}
