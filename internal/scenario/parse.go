package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
	"syscall"

	"go.yaml.in/yaml/v4"
	"go.yaml.in/yaml/v4/plugin/loaderlimits"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/sim"
)

// Parse reads a scenario file strictly. name is used in error messages.
// On any problem it returns a nil file and an Errors holding every problem
// found, each as FILE:LINE:COL: message.
func Parse(name string, data []byte) (*File, error) { return parse(name, data, MaxFileSize) }

// Check reads a scenario file and returns every problem in it, in file
// order, for an editor to show beside the text. The file is returned as far
// as it could be read even when there are problems (nil only when the text
// is not YAML at all or breaks a size limit); it must not be run unless the
// problem list is empty.
func Check(name string, data []byte) (*File, []*Error) { return checkFile(name, data, MaxFileSize) }

// ParseBuiltin reads the built-in catalog (scenarios.yaml, embedded in the
// binary) as Parse does, under the same limits as any file.
func ParseBuiltin(name string, data []byte) (*File, error) { return parse(name, data, MaxFileSize) }

func parse(name string, data []byte, maxSize int) (*File, error) {
	f, errs := checkFile(name, data, maxSize)
	if len(errs) > 0 {
		return nil, Errors(errs)
	}
	return f, nil
}

func checkFile(name string, data []byte, maxSize int) (*File, []*Error) {
	f, _, errs := decodeFile(name, data, maxSize)
	return f, errs
}

// decodeFile reads and validates a file, and gives the decoder that knows
// where each value stands in it (nil when the file was not decoded).
func decodeFile(name string, data []byte, maxSize int) (*File, *decoder, []*Error) {
	r := &report{file: name}
	if len(data) > maxSize {
		r.add(1, 1, fact.Say("scenario.file-too-big", size(len(data)), size(maxSize)))
		return nil, nil, r.errs
	}
	if !prescan(r, data) { // before the parser builds every node
		return nil, nil, r.capped()
	}
	var root yaml.Node
	err := yaml.Load(data, &root, yaml.WithPlugin(loaderlimits.New(loaderlimits.DepthValue(MaxDepth))))
	if err != nil {
		syntax(r, err, data)
		return nil, nil, r.capped()
	}
	if !limits(r, &root) {
		return nil, nil, r.capped()
	}
	d := &decoder{r: r, vals: map[string]*yaml.Node{}, keys: map[string]*yaml.Node{}, bad: map[string]bool{}, src: data}
	var f File
	top := &root
	if top.Kind == yaml.DocumentNode && len(top.Content) == 1 {
		top = top.Content[0]
	}
	d.value(top, reflect.ValueOf(&f).Elem(), "", "", 1)
	d.expandRuns(&f)
	validate(&f, d)
	return &f, d, r.capped()
}

// syntax turns the YAML library's errors into positioned problems, at
// lines as an editor counts them (lineFeedPlace).
func syntax(r *report, err error, data []byte) {
	var le *yaml.LoadError
	var les *yaml.LoadErrors
	switch {
	case errors.As(err, &le):
		line, col := lineFeedPlace(data, le.Mark.Line, le.Mark.Column)
		r.add(line, col, syntaxMsg(le))
	case errors.As(err, &les) && len(les.Errors) > 0:
		for _, e := range les.Errors {
			line, col := lineFeedPlace(data, e.Mark.Line, e.Mark.Column)
			r.add(line, col, syntaxMsg(e))
		}
	default:
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		r.add(1, 1, sim.Text{En: msg, Zh: yamlZh(msg)})
	}
}

// lineFeedPlace is the YAML parser's line and column in data as lines
// split at line feeds count them. YAML also breaks a line at a carriage
// return alone, which editors and browsers do not show as a line of its
// own: a file holding one would be told of a line past its last. The
// place is never before the file's first byte or past its end.
func lineFeedPlace(data []byte, line, col int) (int, int) {
	line, col = max(line, 1), max(col, 1)
	at, l := 0, 1 // the byte offset where YAML's line l starts
	for i := 0; i < len(data) && l < line; i++ {
		switch {
		case data[i] == '\n', data[i] == '\r' && (i+1 == len(data) || data[i+1] != '\n'):
			l++
			at = i + 1
		}
	}
	at = min(at+col-1, len(data))
	start := bytes.LastIndexByte(data[:at], '\n') + 1
	return bytes.Count(data[:at], []byte("\n")) + 1, at - start + 1
}

func syntaxMsg(e *yaml.LoadError) sim.Text {
	msg := strings.TrimPrefix(e.Message, "yaml: ")
	switch {
	case strings.HasPrefix(msg, "exceeded max depth"):
		return fact.Say("scenario.nested-deeper-than-levels", MaxDepth)
	case msg == "no documents in stream":
		return fact.Say("scenario.the-file-is-empty-it")
	case strings.HasPrefix(msg, "expected single document"):
		return fact.Say("scenario.scenario-file-is-one-yaml")
	}
	said := sim.Text{En: msg, Zh: yamlZh(msg)}
	if e.ContextMsg != "" && e.ContextMark.Line > 0 && e.ContextMark != e.Mark {
		return fact.Say("scenario.yaml.context", said, sim.Text{En: e.ContextMsg, Zh: yamlContextZh(e.ContextMsg)}, e.ContextMark.Line, e.ContextMark.Column)
	}
	return said
}

// limits walks the node tree once, without recursion, before anything is
// decoded: it rejects anchors and aliases, and stops at MaxDepth and
// MaxNodes. It returns false when the tree must not be decoded at all.
func limits(r *report, root *yaml.Node) bool {
	type item struct {
		n     *yaml.Node
		depth int
	}
	stack := []item{{root, 0}}
	count := 0
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := it.n
		count++
		if count > MaxNodes {
			r.add(n.Line, n.Column, fact.Say("scenario.too-many-values", MaxNodes, MaxNodes))
			return false
		}
		if it.depth > MaxDepth+1 { // +1: the document node
			r.add(n.Line, n.Column, fact.Say("scenario.nested-deeper-than-levels", MaxDepth))
			return false
		}
		if n.Anchor != "" {
			r.add(n.Line, n.Column, fact.Say("scenario.anchors-are-not-allowed-write", short(n.Anchor)))
		}
		if t := n.Tag; strings.HasPrefix(t, "!") && !strings.HasPrefix(t, "!!") {
			r.add(n.Line, n.Column, fact.Say("scenario.custom-tags-are-not-allowed", short(t)))
			continue // its value means nothing here
		}
		if n.Kind == yaml.AliasNode {
			r.add(n.Line, n.Column, fact.Say("scenario.aliases-are-not-allowed-write", short(n.Value)))
			continue // never follow an alias
		}
		for i := len(n.Content) - 1; i >= 0; i-- {
			stack = append(stack, item{n.Content[i], it.depth + 1})
		}
	}
	return true
}

// size writes a byte count for messages: 900 B, 64 KiB, 3.0 MiB.
func size(n int) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

// Load reads and parses a scenario file from disk. Only a regular file is
// read: a named pipe, a device or a directory is refused at once (reading
// one could wait for ever or never end), and so is a file larger than
// MaxFileSize, without being read.
func Load(path string) (*File, error) {
	if fi, err := os.Stat(path); err != nil {
		return nil, err
	} else if err := regular(path, fi); err != nil {
		return nil, err
	}
	// O_NONBLOCK: should the path have become a named pipe since, opening
	// it does not wait for a writer, and the check below refuses it.
	fh, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	fi, err := fh.Stat()
	if err != nil {
		return nil, err
	}
	if err := regular(path, fi); err != nil {
		return nil, err
	}
	if fi.Size() > MaxFileSize {
		t := fact.Say("scenario.file-too-big", size(int(min(fi.Size(), 1<<40))), size(MaxFileSize))
		return nil, Errors{{File: path, Line: 1, Col: 1, Msg: t.En, Zh: t.Zh}}
	}
	b, err := io.ReadAll(io.LimitReader(fh, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	return Parse(path, b)
}

// regular refuses what is not a regular file, naming what it is.
func regular(path string, fi os.FileInfo) error {
	m := fi.Mode()
	what := ""
	switch {
	case m.IsRegular():
		return nil
	case m.IsDir():
		what = "a directory"
	case m&os.ModeNamedPipe != 0:
		what = "a named pipe (FIFO)"
	case m&os.ModeSocket != 0:
		what = "a socket"
	case m&os.ModeDevice != 0:
		what = "a device"
	default:
		what = "not a regular file"
	}
	return fmt.Errorf("%s: %s, not a scenario file: give the path of a regular file", path, what)
}

// Find returns the scenario with the given id.
func (f *File) Find(id string) (*Scenario, bool) {
	for i := range f.Scenarios {
		if f.Scenarios[i].ID == id {
			return &f.Scenarios[i], true
		}
	}
	return nil, false
}
