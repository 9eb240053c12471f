package server

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the expected outputs of testdata/ops")

// TestOps reads the scripts in testdata/ops, in the style of
// cockroachdb/datadriven: a command (an op of docs/protocol.md and its
// arguments), a line "----", then what the browser receives for it, up to
// a blank line. Each script is one browser on a real socket of a fresh
// server. The commands:
//
//	load ID [seed=N] [step=N]    a built-in scenario
//	step [N] | step-client C | back | seek N
//	inject DO [C] [client=C] [node=N] [for=D] [by=D] [keep_data]
//	reset [seed=N] | sync | export | check (the YAML follows on the next lines)
//	setup-form (the form, as JSON, on the next lines) | setup faults=A,B
//	class-start origin=URL | class-ask KIND | class-hide on|off | class-reveal | class-dismiss
//	class-remote-link origin=URL (with the teacher's key)
//	class-queue KIND step=N | class-unqueue step=N
//	remote: CMD                  CMD sent by a second browser, the teacher's remote
//	remote: class-remote [key|pair|key=K]  with the teacher's key, the pairing's secret, or K
//
// What the first browser (the projector) receives for a remote's command
// follows the remote's answer, each line after "projector: ".
//
// A state is written as the events it adds (the browser keeps its first
// "from" events), each with the critical sections it opens and closes,
// and a summary of the snapshot; an error as its code and
// text. go test -run TestOps -update rewrites the expected outputs.
func TestOps(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "ops", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts in testdata/ops: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txt"), func(t *testing.T) {
			runScript(t, file)
		})
	}
}

// opCase is one command of a script and the output it expects.
type opCase struct {
	line  int // of the command
	cmd   string
	input string // lines after the command, before ----
	want  string
}

// readScript parses a script: comments (lines starting with "# ") and
// blank lines between cases are kept as they are, for -update.
func readScript(t *testing.T, file string) (cases []opCase, layout []string) {
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if l == "" || strings.HasPrefix(l, "# ") {
			layout = append(layout, l)
			continue
		}
		c := opCase{line: i + 1, cmd: l}
		var in []string
		for i++; i < len(lines) && lines[i] != "----"; i++ {
			in = append(in, lines[i])
		}
		if i == len(lines) {
			t.Fatalf("%s:%d: %q has no ---- line", file, c.line, l)
		}
		c.input = strings.Join(in, "\n")
		var out []string
		for i++; i < len(lines) && lines[i] != ""; i++ {
			out = append(out, lines[i])
		}
		c.want = strings.Join(out, "\n")
		cases = append(cases, c)
		layout = append(layout, "\x00"+strconv.Itoa(len(cases)-1))
		if i < len(lines) {
			layout = append(layout, "")
		}
	}
	return cases, layout
}

func runScript(t *testing.T, file string) {
	cases, layout := readScript(t, file)
	_, url := newTestServer(t, Limits{})
	b, _, err := dial(t, url, "")
	if err != nil {
		t.Fatal(err)
	}
	b.roundTrip(map[string]any{"op": "hello"})
	var code, key, pair string // the class's, as the teacher's browser learns them
	b.seen = func(m *Message) {
		if c := m.Class; c != nil && c.Key != "" {
			code, key = c.Code, c.Key
		}
		if p := m.Pairing; p != nil {
			_, frag, _ := strings.Cut(p.Link, "#") // CODE.SECRET
			_, pair, _ = strings.Cut(frag, ".")
		}
	}
	var remote *client
	got := make([]string, len(cases))
	for i, c := range cases {
		who, cmd := b, c.cmd
		if rest, ok := strings.CutPrefix(cmd, "remote: "); ok {
			if remote == nil {
				if remote, _, err = dial(t, url, ""); err != nil {
					t.Fatal(err)
				}
				remote.roundTrip(map[string]any{"op": "hello"})
			}
			who, cmd = remote, rest
		}
		req, err := opRequest(cmd, c.input)
		if err != nil {
			t.Fatalf("%s:%d: %v", file, c.line, err)
		}
		switch req["op"] {
		case "class-remote":
			req["code"] = code
			switch req["key"] {
			case "key":
				req["key"] = key
			case "pair":
				req["key"] = pair
			}
		case "class-remote-link":
			req["key"] = key
		}
		out := who.roundTrip(req)
		if who == remote {
			for _, l := range b.roundTrip(nil) {
				out = append(out, "projector: "+l)
			}
		}
		got[i] = strings.Join(out, "\n")
		if !*update && got[i] != c.want {
			t.Errorf("%s:%d: %s\nexpected:\n%s\ngot:\n%s", file, c.line, c.cmd, c.want, got[i])
		}
	}
	if *update {
		var sb strings.Builder
		for _, l := range layout {
			if strings.HasPrefix(l, "\x00") {
				i, _ := strconv.Atoi(l[1:])
				sb.WriteString(cases[i].cmd + "\n")
				if cases[i].input != "" {
					sb.WriteString(cases[i].input + "\n")
				}
				sb.WriteString("----\n" + got[i] + "\n")
				continue
			}
			sb.WriteString(l + "\n")
		}
		if err := os.WriteFile(file, []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// opRequest turns a script command into a request.
func opRequest(cmd, input string) (map[string]any, error) {
	f := strings.Fields(cmd)
	req := map[string]any{"op": f[0]}
	args := f[1:]
	num := func(s string) (int, error) {
		n, err := strconv.Atoi(s)
		if err != nil {
			return 0, fmt.Errorf("%s: %q is not a number", f[0], s)
		}
		return n, nil
	}
	keyed := func(into map[string]any, a string) (bool, error) {
		k, v, ok := strings.Cut(a, "=")
		if !ok {
			return false, nil
		}
		switch k {
		case "seed":
			n, err := strconv.ParseInt(v, 10, 64)
			into[k] = n
			return true, err
		case "step":
			n, err := num(v)
			into[k] = n
			return true, err
		}
		into[k] = v
		return true, nil
	}
	switch f[0] {
	case "load":
		if len(args) == 0 {
			return nil, fmt.Errorf("load: which scenario?")
		}
		req["scenario"] = args[0]
		for _, a := range args[1:] {
			if _, err := keyed(req, a); err != nil {
				return nil, err
			}
		}
	case "step", "seek":
		key := map[string]string{"step": "n", "seek": "step"}[f[0]]
		if len(args) > 0 {
			n, err := num(args[0])
			if err != nil {
				return nil, err
			}
			req[key] = n
		}
	case "step-client":
		req["client"] = strings.Join(args, " ")
	case "inject":
		if len(args) == 0 {
			return nil, fmt.Errorf("inject: which fault?")
		}
		fault := map[string]any{"do": args[0]}
		for _, a := range args[1:] {
			switch ok, err := keyed(fault, a); {
			case err != nil:
				return nil, err
			case a == "keep_data":
				fault["keep_data"] = true
			case !ok:
				fault["client"] = a
			}
		}
		req["fault"] = fault
	case "reset":
		for _, a := range args {
			if _, err := keyed(req, a); err != nil {
				return nil, err
			}
		}
	case "class-remote":
		req["key"] = "key"
		if len(args) == 1 {
			req["key"] = strings.TrimPrefix(args[0], "key=")
		}
	case "class-start", "class-remote-link":
		for _, a := range args {
			if _, err := keyed(req, a); err != nil {
				return nil, err
			}
		}
	case "class-ask":
		if len(args) != 1 {
			return nil, fmt.Errorf("class-ask: which kind?")
		}
		req["ask"] = map[string]any{"kind": args[0]}
	case "class-hide":
		req["hide"] = len(args) == 1 && args[0] == "on"
	case "class-queue", "class-unqueue":
		for _, a := range args {
			if ok, err := keyed(req, a); err != nil {
				return nil, err
			} else if !ok {
				req["ask"] = map[string]any{"kind": a}
			}
		}
	case "export":
		req["op"] = "export-yaml"
	case "check":
		req["yaml"] = input
	case "setup-form":
		if input != "" {
			var form map[string]any
			if err := json.Unmarshal([]byte(input), &form); err != nil {
				return nil, fmt.Errorf("setup-form: the form is not JSON: %w", err)
			}
			req["form"] = form
		}
	case "setup":
		for _, a := range args {
			if k, v, _ := strings.Cut(a, "="); k == "faults" {
				req["faults"] = strings.Split(v, ",")
			}
		}
	case "back", "sync":
	default:
		req["op"] = cmd // sent as it is: the server's answer is the test
	}
	return req, nil
}

// roundTrip sends a request and renders every message the server sends
// before it answers a marker sent right after: the request's answer and
// whatever follows it (a state after an error). The marker is an
// explore-cancel with no search running: it goes through the session's
// queue behind the request, and its answer changes nothing. With req nil
// it renders what the browser was sent unasked.
func (b *client) roundTrip(req map[string]any) []string {
	b.t.Helper()
	if req != nil {
		b.send(req)
	}
	marker := b.id + 1000
	if err := b.ws.WriteJSON(map[string]any{"op": "explore-cancel", "id": marker}); err != nil {
		b.t.Fatal(err)
	}
	var out []string
	_ = b.ws.SetReadDeadline(time.Now().Add(20 * time.Second))
	for {
		var m Message
		if err := b.ws.ReadJSON(&m); err != nil {
			b.t.Fatalf("reading the answer to %v: %v", req, err)
		}
		b.keep(&m)
		if b.seen != nil {
			b.seen(&m)
		}
		if m.Re == marker {
			return out
		}
		out = append(out, render(m)...)
	}
}
