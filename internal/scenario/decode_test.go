package scenario

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"
)

// future stands for a schema type with fields added later: the decoder is
// driven by the yaml tags alone, so new fields, inline structs and
// pointers are read and checked with no change to the parser.
type future struct {
	When    `yaml:",inline"`
	Name    string         `yaml:"name"`
	Copies  int            `yaml:"copies,omitempty"`
	Ratio   float64        `yaml:"ratio,omitempty"`
	Delay   Duration       `yaml:"delay,omitempty"`
	Back    Duration       `yaml:"by,omitempty"`
	Extra   *Network       `yaml:"extra,omitempty"`
	Labels  []string       `yaml:"labels,omitempty"`
	Ignored string         `yaml:"-"`
	Parts   []future       `yaml:"parts,omitempty"`
	Set     map[string]int `yaml:"set,omitempty"`
}

func decodeFuture(t *testing.T, src string) (future, []*Error) {
	t.Helper()
	var root yaml.Node
	if err := yaml.Load([]byte(src), &root); err != nil {
		t.Fatal(err)
	}
	r := &report{file: "f.yaml"}
	d := &decoder{r: r, vals: map[string]*yaml.Node{}, keys: map[string]*yaml.Node{}, bad: map[string]bool{}}
	var f future
	d.value(root.Content[0], reflect.ValueOf(&f).Elem(), "", "", 1)
	return f, r.sorted()
}

func TestDecoderFollowsNewFields(t *testing.T) {
	f, errs := decodeFuture(t, "name: x\ncopies: 3\nratio: 0.5\ndelay: 2s\nby: -1s\nat: 1s\nextra: {latency: 3ms}\nlabels: [a, b]\nparts: [{name: y}]\nset: {k: 1}\n")
	if len(errs) > 0 {
		t.Fatalf("want no problems, got %v", Errors(errs))
	}
	want := future{Name: "x", Copies: 3, Ratio: 0.5, Delay: Duration(2e9), Back: Duration(-1e9),
		Extra: &Network{Latency: Duration(3e6)}, Labels: []string{"a", "b"}, Parts: []future{{Name: "y"}}, Set: map[string]int{"k": 1}}
	at := Duration(1e9)
	want.At = &at
	if !reflect.DeepEqual(f, want) {
		t.Fatalf("want %+v, got %+v", want, f)
	}
	_, errs = decodeFuture(t, "name: x\ncopeis: 3\ndelay: -2s\nIgnored: y\nset: {k: one}\n")
	got := Errors(errs).Error()
	for _, w := range []string{
		`f.yaml:2:1: unknown field "copeis" — did you mean "copies"?`,
		`f.yaml:3:8: delay: a duration cannot be negative here, got -2s`,
		`f.yaml:4:1: unknown field "Ignored"`,
		`f.yaml:5:10: k: want an integer, got "one"`,
	} {
		if !strings.Contains(got, w) {
			t.Errorf("want a problem %q, got:\n%s", w, got)
		}
	}
}

// Check's problems marshal for the browser editor as file, line, col and
// message.
func TestCheckProblemsAsJSON(t *testing.T) {
	_, errs := Check("e.yaml", []byte("scenarios:\n  - id: a\n    titel: {en: A}\n    clients: [{name: A, algorithm: no-lock}]\n    expect: [oversell]\n"))
	if len(errs) == 0 {
		t.Fatal("want problems, got none")
	}
	b, err := json.Marshal(errs[0])
	if err != nil {
		t.Fatal(err)
	}
	want := `{"file":"e.yaml","line":3,"col":5,"message":"unknown field \"titel\" — did you mean \"title\"?","zh":"未知字段 \"titel\"——你是想写 \"title\" 吗？"}`
	if string(b) != want {
		t.Fatalf("want %s, got %s", want, b)
	}
}
