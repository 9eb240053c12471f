package scenario

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/lockstep/lockstep"
	"go.yaml.in/yaml/v4"
)

var schemaFile = filepath.Join("..", "..", "docs", "scenario.schema.json")

// docs/scenario.schema.json is exactly what JSONSchema generates from the
// Go types; -update rewrites it.
func TestSchemaFileUpToDate(t *testing.T) {
	got := JSONSchema()
	if *update {
		if err := os.WriteFile(schemaFile, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/scenario -run TestSchemaFileUpToDate -update)", err)
	}
	if string(want) != string(got) {
		t.Fatalf("%s is out of date with the Go types: run go test ./internal/scenario -run TestSchemaFileUpToDate -update", schemaFile)
	}
}

// Every field name, type and enum value of the built-in catalog is allowed
// by the schema, so an editor using it shows no false alarms.
func TestSchemaAcceptsBuiltin(t *testing.T) {
	var schema map[string]any
	if err := json.Unmarshal(JSONSchema(), &schema); err != nil {
		t.Fatalf("the schema is not JSON: %v", err)
	}
	var root yaml.Node
	if err := yaml.Load(lockstep.Scenarios, &root); err != nil {
		t.Fatal(err)
	}
	v := &schemaCheck{defs: schema["$defs"].(map[string]any)}
	v.check(schema, root.Content[0], "")
	for _, e := range v.errs {
		t.Error(e)
	}
}

// A scenario without expect: is a question (run, compare and the page ask
// the checker for its verdict), so the schema accepts it as Parse does:
// an editor using the schema shows no false alarm on it.
func TestSchemaAcceptsAScenarioWithoutExpect(t *testing.T) {
	var schema map[string]any
	if err := json.Unmarshal(JSONSchema(), &schema); err != nil {
		t.Fatal(err)
	}
	const src = "scenarios: [{id: a, title: {en: A}, clients: [{name: A, algorithm: no-lock}]}]"
	if _, err := Parse("a.yaml", []byte(src)); err != nil {
		t.Fatalf("Parse refuses it: %v", err)
	}
	var root yaml.Node
	if err := yaml.Load([]byte(src), &root); err != nil {
		t.Fatal(err)
	}
	v := &schemaCheck{defs: schema["$defs"].(map[string]any)}
	v.check(schema, root.Content[0], "")
	if len(v.errs) > 0 {
		t.Errorf("the schema refuses a scenario Parse accepts: %v", v.errs)
	}
}

// The schema rejects what it should: a misspelt field, a wrong kind of
// value, a fault outside the menu.
func TestSchemaRejects(t *testing.T) {
	var schema map[string]any
	if err := json.Unmarshal(JSONSchema(), &schema); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{
		"scenarios: [{id: a, title: {en: A}, clinets: [], clients: [{name: A, algorithm: x}], expect: [safe]}]",
		"scenarios: [{id: a, title: {en: A}, clients: [{name: A, algorithm: x, work: 5}], expect: [safe]}]",
		"scenarios: [{id: a, title: {en: A}, clients: [{name: A, algorithm: x}], faults: [{at: 1s, do: explode}], expect: [safe]}]",
		"scenarios: [{id: a, title: {en: A}, clients: [{name: A, algorithm: x}], expect: [fine]}]",
		"scenarios: [{id: a, title: {en: A}, clients: [{name: A}], expect: [safe]}]",
		// The table's required targets and amounts (sim.Actions).
		"scenarios: [{id: a, title: {en: A}, clients: [{name: A, algorithm: x}], faults: [{at: 1s, do: pause, client: A}], expect: [safe]}]",
		"scenarios: [{id: a, title: {en: A}, clients: [{name: A, algorithm: x}], faults: [{at: 1s, do: clock-jump, by: 1s}], expect: [safe]}]",
		"scenarios: [{id: a, title: {en: A}, clients: [{name: A, algorithm: x}], schedule: [{step: 1, do: step}], expect: [safe]}]",
	} {
		var root yaml.Node
		if err := yaml.Load([]byte(bad), &root); err != nil {
			t.Fatal(err)
		}
		v := &schemaCheck{defs: schema["$defs"].(map[string]any)}
		v.check(schema, root.Content[0], "")
		if len(v.errs) == 0 {
			t.Errorf("the schema accepts %s; want it rejected", bad)
		}
	}
}

// schemaCheck is a small validator for the parts of JSON Schema that
// JSONSchema uses: $ref, type, properties, additionalProperties, required,
// items, enum, const, anyOf, allOf, if/then, pattern.
type schemaCheck struct {
	defs map[string]any
	errs []string
}

func (v *schemaCheck) fail(n *yaml.Node, path, format string, args ...any) {
	v.errs = append(v.errs, fmt.Sprintf("%d:%d %s: %s", n.Line, n.Column, path, fmt.Sprintf(format, args...)))
}

// ok reports whether n fits s, without recording errors.
func (v *schemaCheck) ok(s map[string]any, n *yaml.Node) bool {
	sub := &schemaCheck{defs: v.defs}
	sub.check(s, n, "")
	return len(sub.errs) == 0
}

func (v *schemaCheck) check(s map[string]any, n *yaml.Node, path string) {
	if ref, ok := s["$ref"].(string); ok {
		v.check(v.defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any), n, path)
	}
	if choices, ok := s["anyOf"].([]any); ok {
		if !slices.ContainsFunc(choices, func(a any) bool { return v.ok(a.(map[string]any), n) }) {
			v.fail(n, path, "%q fits none of the choices", n.Value)
		}
	}
	if rules, ok := s["allOf"].([]any); ok {
		for _, r := range rules {
			v.check(r.(map[string]any), n, path)
		}
	}
	if cond, ok := s["if"].(map[string]any); ok && v.ok(cond, n) {
		if then, ok := s["then"].(map[string]any); ok {
			v.check(then, n, path)
		}
	}
	if c, ok := s["const"]; ok && fmt.Sprint(c) != n.Value {
		v.fail(n, path, "want %v, got %q", c, n.Value)
	}
	if e, ok := s["enum"].([]any); ok && !slices.ContainsFunc(e, func(x any) bool { return x == n.Value }) {
		v.fail(n, path, "%q is not one of %v", n.Value, e)
	}
	if p, ok := s["pattern"].(string); ok && !regexp.MustCompile(p).MatchString(n.Value) {
		v.fail(n, path, "%q does not match %s", n.Value, p)
	}
	types := []string{}
	switch ty := s["type"].(type) {
	case string:
		types = append(types, ty)
	case []any:
		for _, x := range ty {
			types = append(types, x.(string))
		}
	}
	if len(types) > 0 && !slices.Contains(types, nodeType(n)) && !(nodeType(n) == "integer" && slices.Contains(types, "number")) {
		v.fail(n, path, "want %v, got %s", types, nodeType(n))
		return
	}
	switch n.Kind {
	case yaml.MappingNode:
		props, _ := s["properties"].(map[string]any)
		seen := map[string]bool{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, val := n.Content[i].Value, n.Content[i+1]
			seen[k] = true
			if ps, ok := props[k].(map[string]any); ok {
				v.check(ps, val, path+"."+k)
				continue
			}
			switch ap := s["additionalProperties"].(type) {
			case bool:
				if !ap {
					v.fail(n.Content[i], path, "field %q is not in the schema", k)
				}
			case map[string]any:
				v.check(ap, val, path+"."+k)
			}
		}
		if req, ok := s["required"].([]any); ok {
			for _, r := range req {
				if !seen[r.(string)] {
					v.fail(n, path, "missing required %q", r)
				}
			}
		}
	case yaml.SequenceNode:
		if items, ok := s["items"].(map[string]any); ok {
			for i, item := range n.Content {
				v.check(items, item, fmt.Sprintf("%s[%d]", path, i))
			}
		}
	}
}

// nodeType is the JSON type a YAML node would have.
func nodeType(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "object"
	case yaml.SequenceNode:
		return "array"
	}
	switch n.ShortTag() {
	case "!!int":
		return "integer"
	case "!!float":
		return "number"
	case "!!bool":
		return "boolean"
	case "!!null":
		return "null"
	}
	return "string"
}

// The schema accepts every lab (labs/*.yaml), the scenarios' own locks
// included (labs/your-lock.yaml: replies and arguments that YAML reads as
// numbers, commands, Lua): an editor shows no false alarm on a lock
// declared as the docs show.
func TestSchemaAcceptsTheLabs(t *testing.T) {
	var schema map[string]any
	if err := json.Unmarshal(JSONSchema(), &schema); err != nil {
		t.Fatal(err)
	}
	names, files := lockstep.Labs()
	if !slices.Contains(names, "labs/your-lock.yaml") {
		t.Fatalf("labs %v: want labs/your-lock.yaml among them", names)
	}
	for i, name := range names {
		var root yaml.Node
		if err := yaml.Load(files[i], &root); err != nil {
			t.Fatal(err)
		}
		v := &schemaCheck{defs: schema["$defs"].(map[string]any)}
		v.check(schema, root.Content[0], "")
		for _, e := range v.errs {
			t.Errorf("%s: %v", name, e)
		}
	}
}
