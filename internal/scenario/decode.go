package scenario

import (
	"fmt"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v4"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/sim"
)

// The decoder walks a YAML node tree against the Go types of the schema,
// driven only by reflection over their yaml tags: a field added to spec.go
// is read, checked for type and listed in did-you-mean hints without any
// change here. It reports every problem it finds and keeps going, and it
// remembers where each value came from so that the checks after it can
// point at the right line and column.
type decoder struct {
	r    *report
	vals map[string]*yaml.Node // value node by path, e.g. scenarios[0].clients[1].work
	keys map[string]*yaml.Node // key node by path
	bad  map[string]bool       // paths whose value could not be read
	src  []byte                // the file's text (a Lua script's lines are placed in it)
}

var (
	durationType    = reflect.TypeFor[Duration]()
	unmarshalerType = reflect.TypeFor[yaml.Unmarshaler]()
)

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" }

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func (d *decoder) errAt(n *yaml.Node, problem sim.Text) {
	d.r.add(n.Line, n.Column, problem)
}

// fail reports that the value at path could not be read. Later checks stay
// silent about it and everything inside it: one mistake, one message.
func (d *decoder) fail(path string, n *yaml.Node, problem sim.Text) {
	d.bad[path] = true
	d.errAt(n, problem)
}

// value decodes n into v. name is the YAML key that holds it ("" for list
// items), used in messages and to tell signed durations.
func (d *decoder) value(n *yaml.Node, v reflect.Value, path, name string, depth int) {
	d.vals[path] = n
	if depth > MaxDepth {
		d.fail(path, n, fact.Say("scenario.nested-deeper-than-levels", MaxDepth))
		return
	}
	if n.Kind == yaml.AliasNode {
		d.bad[path] = true // reported by the limits pass
		return
	}
	if isNull(n) && v.Kind() != reflect.Interface {
		return // absent: the zero value
	}
	label := ""
	if name != "" {
		label = name + ": "
	}
	t := v.Type()
	if t == durationType {
		d.duration(n, v, path, label, name)
		return
	}
	if t.Kind() != reflect.Pointer && reflect.PointerTo(t).Implements(unmarshalerType) {
		if err := v.Addr().Interface().(yaml.Unmarshaler).UnmarshalYAML(n); err != nil {
			d.fail(path, n, fact.Say("scenario.prefixed", label, words(err)))
		}
		return
	}
	switch t.Kind() {
	case reflect.Pointer:
		p := reflect.New(t.Elem())
		d.value(n, p.Elem(), path, name, depth)
		v.Set(p)
	case reflect.Struct:
		d.structure(n, v, path, label, depth)
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			d.fail(path, n, fact.Say("scenario.want-a-list-got", label, describe(n)))
			return
		}
		s := reflect.MakeSlice(t, len(n.Content), len(n.Content))
		for i, item := range n.Content {
			d.value(item, s.Index(i), fmt.Sprintf("%s[%d]", path, i), "", depth+1)
		}
		v.Set(s)
	case reflect.Map:
		d.mapping(n, v, path, label, depth)
	case reflect.Interface:
		d.any(n, v, path, label)
	default:
		d.scalar(n, v, path, label)
	}
}

// structure decodes a map into a struct, reporting unknown and repeated keys.
func (d *decoder) structure(n *yaml.Node, v reflect.Value, path, label string, depth int) {
	t := v.Type()
	if n.Kind != yaml.MappingNode {
		shape := fact.Say("scenario.shape.map")
		if names := fieldNames(t); len(names) <= 4 {
			shape = fact.Say("scenario.shape.map-of", strings.Join(names, ", "))
		}
		d.fail(path, n, fact.Say("scenario.want-shape-got", label, what(t), shape, describe(n)))
		return
	}
	fs := fieldsOf(t)
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		if !d.key(k) {
			continue
		}
		if first, dup := seen[k.Value]; dup {
			d.errAt(k, fact.Say("scenario.field-is-set-twice-first", k.Value, first.Line))
			continue
		}
		seen[k.Value] = k
		var f *field
		for j := range fs {
			if fs[j].name == k.Value {
				f = &fs[j]
				break
			}
		}
		if f == nil {
			if meant := d.unknown(k, t); meant != "" {
				// A typo for a field: do not also report that field missing.
				d.bad[join(path, meant)] = true
			}
			continue
		}
		p := join(path, k.Value)
		d.keys[p] = k
		d.value(val, v.FieldByIndex(f.index), p, k.Value, depth+1)
	}
}

// key checks that a map key is a plain string; false when it is not.
func (d *decoder) key(k *yaml.Node) bool {
	switch {
	case k.Kind == yaml.AliasNode:
		return false
	case k.Kind != yaml.ScalarNode:
		d.errAt(k, fact.Say("scenario.key-must-be-a-name", describe(k)))
		return false
	case k.ShortTag() == "!!merge":
		d.errAt(k, fact.Say("scenario.merge-keys-are-not-allowed"))
		return false
	}
	return true
}

// unknown reports an unknown field with a did-you-mean hint, and returns
// the field it was probably meant to be ("" if none is close).
func (d *decoder) unknown(k *yaml.Node, t reflect.Type) string {
	names := fieldNames(t)
	if s := suggest(k.Value, names); s != "" {
		d.errAt(k, fact.Say("scenario.unknown-field-meant", k.Value, s))
		return s
	}
	d.errAt(k, fact.Say("scenario.unknown-field", k.Value, what(t), strings.Join(names, ", ")))
	return ""
}

// mapping decodes a map with string keys.
func (d *decoder) mapping(n *yaml.Node, v reflect.Value, path, label string, depth int) {
	t := v.Type()
	if n.Kind != yaml.MappingNode {
		d.fail(path, n, fact.Say("scenario.want-a-map-got", label, describe(n)))
		return
	}
	if t.Key().Kind() != reflect.String {
		d.fail(path, n, fact.Say("scenario.cannot-be-read-map-key", label, t.Key()))
		return
	}
	m := reflect.MakeMapWithSize(t, len(n.Content)/2)
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		if !d.key(k) {
			continue
		}
		if first, dup := seen[k.Value]; dup {
			d.errAt(k, fact.Say("scenario.key-is-set-twice-first", k.Value, first.Line))
			continue
		}
		seen[k.Value] = k
		p := join(path, k.Value)
		d.keys[p] = k
		e := reflect.New(t.Elem()).Elem()
		d.value(val, e, p, k.Value, depth+1)
		m.SetMapIndex(reflect.ValueOf(k.Value).Convert(t.Key()), e)
	}
	v.Set(m)
}

// any decodes a single value of a free-form field (an algorithm
