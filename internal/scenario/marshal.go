package scenario

import (
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v4"
)

// Marshal writes a scenario file as clean YAML: fields in schema order,
// zero values left out, durations as strings (3s, 150ms), short maps and
// lists of plain values on one line. Parse reads the result back to an
// equal File.
//
// Consecutive hand steps in a schedule are written as runs (runs.go), a
// few bytes a step.
func Marshal(f *File) ([]byte, error) {
	out := *f
	out.Scenarios = append([]Scenario(nil), f.Scenarios...)
	for i := range out.Scenarios {
		out.Scenarios[i].Schedule = withRuns(out.Scenarios[i].Schedule)
	}
	root := encode(reflect.ValueOf(&out).Elem())
	return yaml.Dump(root, yaml.WithIndent(2), yaml.WithLineWidth(-1), yaml.WithCompactSeqIndent(false))
}

// MarshalScenario writes one scenario as a scenario file of its own, ready
// for visualizer run --file (the browser saves a run this way, with
// lesson.Session.Recording's schedule).
func MarshalScenario(s *Scenario) ([]byte, error) {
	return Marshal(&File{Scenarios: []Scenario{*s}})
}

// flowWidth is the longest map or list written on one line.
const flowWidth = 120

// encode turns a value of the schema's types into a YAML node.
func encode(v reflect.Value) *yaml.Node {
	if !v.IsValid() {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "~"}
	}
	t := v.Type()
	if t == durationType {
		return str(fmtDuration(time.Duration(v.Int())))
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return encode(reflect.Value{})
		}
		if d, ok := v.Interface().(time.Duration); ok {
			return str(fmtDuration(d))
		}
		return encode(v.Elem())
	case reflect.Struct:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		for _, f := range fieldsOf(t) {
			fv := v.FieldByIndex(f.index)
			if fv.IsZero() {
				continue
			}
			n.Content = append(n.Content, str(f.name), encode(fv))
		}
		return flow(n)
	case reflect.Map:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		keys := make([]string, 0, v.Len())
		for _, k := range v.MapKeys() {
			keys = append(keys, k.String())
		}
		sort.Strings(keys)
		for _, k := range keys {
			n.Content = append(n.Content, str(k), encode(v.MapIndex(reflect.ValueOf(k).Convert(t.Key()))))
		}
		return flow(n)
	case reflect.Slice:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for i := 0; i < v.Len(); i++ {
			n.Content = append(n.Content, encode(v.Index(i)))
		}
		return flow(n)
	case reflect.String:
		return str(v.String())
	case reflect.Bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(v.Bool())}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(v.Int(), 10)}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatUint(v.Uint(), 10)}
	case reflect.Float32, reflect.Float64:
		s := strconv.FormatFloat(v.Float(), 'g', -1, 64)
		if !strings.ContainsAny(s, ".eEIN") {
			s += ".0"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: s}
	}
	return str(v.String())
}

// str is a string scalar; the emitter quotes it when it would read back as
// something else (a number, true, a duration-looking word stays a string).
func str(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
}

// flow puts a map or list on one line when it holds only short plain
// values: [oversell], {name: A, algorithm: no-lock, work: 50ms}.
func flow(n *yaml.Node) *yaml.Node {
	width := 0
	for _, c := range n.Content {
		switch {
		case c.Kind == yaml.ScalarNode:
			if strings.ContainsAny(c.Value, "\n\r\t") {
				return n
			}
			width += len(c.Value) + 2
		case c.Style&yaml.FlowStyle != 0 && n.Kind == yaml.MappingNode:
			width += 8 // braces and separators, roughly
			for _, g := range c.Content {
				width += len(g.Value) + 2
			}
		default:
			return n
		}
	}
	if width <= flowWidth {
		n.Style = yaml.FlowStyle
	}
	return n
}
