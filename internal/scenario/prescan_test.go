package scenario

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"
	"go.yaml.in/yaml/v4/plugin/loaderlimits"
)

// prescanCount is what prescan counts in data, up to MaxNodes+1.
func prescanCount(data []byte) int {
	s := prescanner{data: data, line: 1, col: 1, pending: -1}
	s.run()
	return s.count
}

// parsedCount is the number of nodes the YAML library builds from data,
// the document node left out; -1 when it does not parse.
func parsedCount(data []byte) int {
	var root yaml.Node
	if yaml.Load(data, &root, yaml.WithPlugin(loaderlimits.New(loaderlimits.DepthValue(MaxDepth)))) != nil {
		return -1
	}
	n := 0
	stack := []*yaml.Node{&root}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n++
		stack = append(stack, x.Content...)
	}
	return n - 1
}

// The count before parsing never says more than the parser builds, so a
// file it refuses for "more than 20000 YAML values" has them: every YAML
// file of the repository (the catalog, the docs' files, the test files and
// the fuzz corpus' seeds) and shapes written for its corners.
func TestPrescanNeverCountsHigh(t *testing.T) {
	var files []string
	err := filepath.WalkDir(filepath.Join("..", ".."), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "third_party" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != filepath.Join("..", "..") {
			return filepath.SkipDir
		}
		if !d.IsDir() && (strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 20 {
		t.Fatalf("expected the repository's YAML files, found %d", len(files))
	}
	check := func(name string, data []byte) {
		t.Helper()
		real := parsedCount(data)
		if real < 0 {
			return
		}
		if est := prescanCount(data); est > real {
			t.Errorf("%s: counted %d values before parsing, the parser builds %d", name, est, real)
		} else if real > 50 && est < real*2/3 {
			t.Logf("%s: counted %d of %d values", name, est, real)
		}
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		check(f, data)
	}
	for i, shape := range []string{
		"a:\nb:\n",
		"-\n-\n- \n",
		"a:\n  - 1\n  - 2\nb:\n- x\n- y\n",
		"- a: 1\n  b:\n    c: |\n      text, with [brackets] and {braces}\n      - not a dash\n    d: >-\n      folded\n\n      on\n- - - 1\n  - 2\n",
		"note: a plain value\n  continued, on [a line]\n  and one more\nnext: 2\n",
		"s: 'it''s, [x]'\nd: \"a \\\" quote, {y}\"\n\"k\": v\n- 'q': 1\n",
		"x: [1, 2, {a: 1, b: [3, 4]}, 'c, d']\ny: {p: q}\n",
		"k: &a 1\nl: *a\nm: !!str 3\n",
		"# comment, [x]\na: 1 # comment, {y}\n---\nb: 2\n",
		"a: b:c\nurl: http://x:80/a#b\n",
		"- |\n  x\n- >\n  y\n-\n  a: 1\n",
		"a:\n  # a comment\n\n  b: 1\n",
		"? complex\n: value\n",
		"a: 1\r\nb:\r\n  - c\r\n",
		"中文: 值\n名字: [甲, 乙]\n",
	} {
		check("shape "+string(rune('A'+i)), []byte(shape))
	}
	for name, data := range hostileFiles() {
		check(name, data)
	}
}

// hostileFiles are files of the largest size a file may have (MaxFileSize)
// in the shapes that cost the parser most for their bytes: a node every
// two bytes or so.
func hostileFiles() map[string][]byte {
	fill := func(head string, item func(i int) string, sep, tail string) []byte {
		var b strings.Builder
		b.WriteString(head)
		for i := 0; ; i++ {
			it := item(i)
			if b.Len()+len(sep)+len(it)+len(tail) > MaxFileSize {
				break
			}
			if i > 0 {
				b.WriteString(sep)
			}
			b.WriteString(it)
		}
		b.WriteString(tail)
		return []byte(b.String())
	}
	same := func(s string) func(int) string { return func(int) string { return s } }
	return map[string][]byte{
		"a flow list of 1s":          fill("scenarios: [", same("1"), ",", "]\n"),
		"a flow list of empty lists": fill("scenarios: [", same("[]"), ",", "]\n"),
		"a flow map":                 fill("scenarios: {", func(i int) string { return strings.Repeat("k", i%7+1) + ": 1" }, ", ", "}\n"),
		"a block list":               fill("scenarios:\n", same("- 1"), "\n", "\n"),
		"a list of nulls":            fill("scenarios:\n", same("-"), "\n", "\n"),
		"a list of lists":            fill("scenarios:\n", same("- - - - - - - - - - 1"), "\n", "\n"),
		"a block map of nulls":       fill("scenarios:\n", func(i int) string { return "  k" + strings.Repeat("x", i%5) + string(rune('a'+i%26)) + ":" }, "\n", "\n"),
		"aliases":                    fill("scenarios: [&a 1, ", same("*a"), ",", "]\n"),
		"anchors":                    fill("scenarios: [", same("&a 1"), ",", "]\n"),
		"deep nesting":               []byte("scenarios: " + strings.Repeat("[", MaxFileSize/2-8) + strings.Repeat("]", MaxFileSize/2-8) + "\n"),
	}
}

// A file of the largest size allowed, in a hostile shape, is refused with
// its place before the parser runs: without the count before parsing, the
// flow list of 1s costs the parser 65,000 nodes, about 20 MB allocated
// (and 0.2 s of a core) to reach the same answer. The bound on memory is
// generous (256 KiB, the file's size twice) and holds by a wide margin:
// the scan allocates nothing, only the error does.
func TestTheLargestHostileFilesAreRefusedBeforeParsing(t *testing.T) {
	for name, data := range hostileFiles() {
		t.Run(name, func(t *testing.T) {
			if len(data) > MaxFileSize || len(data) < MaxFileSize-64 {
				t.Fatalf("expected a file of %d bytes, less 64 at most, got %d", MaxFileSize, len(data))
			}
			var errs []*Error
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, errs = Check("h.yaml", data)
			runtime.ReadMemStats(&after)
			if len(errs) == 0 {
				t.Fatal("expected the file to be refused")
			}
			m := placed.FindStringSubmatch(errs[0].Error())
			if m == nil {
				t.Fatalf("expected %q, got %v", placed, errs)
			}
			line, _ := strconv.Atoi(m[1])
			col, _ := strconv.Atoi(m[2])
			if line < 1 || line > bytes.Count(data, []byte("\n"))+1 || col < 1 || col > MaxFileSize {
				t.Errorf("expected a place inside the file, got line %d column %d", line, col)
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 2*MaxFileSize {
				t.Errorf("refusing it allocated %d KiB, over the bound of %d KiB: the parser ran", grew>>10, 2*MaxFileSize>>10)
			}
			if errs[0].Zh == "" || errs[0].Zh == errs[0].Msg {
				t.Errorf("expected the refusal in 中文 too, got %q", errs[0].Zh)
			}
		})
	}
}

var placed = regexp.MustCompile(`^h\.yaml:(\d+):(\d+): the file has more than 20000 YAML values; the limit is 20000$`)

// The count before parsing on the built-in catalog (118 KB), against
// parsing it: go test -bench Prescan -benchmem ./internal/scenario
func BenchmarkPrescanCatalog(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("..", "..", "scenarios.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		prescanCount(data)
	}
}

func BenchmarkParseCatalog(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("..", "..", "scenarios.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		parsedCount(data)
	}
}
