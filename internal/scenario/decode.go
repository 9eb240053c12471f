package scenario

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.yaml.in/yaml/v4"
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
}

var (
	durationType    = reflect.TypeFor[Duration]()
	unmarshalerType = reflect.TypeFor[yaml.Unmarshaler]()
)

// signedDurations are the duration fields that may be negative: a clock
// may be set back as well as forward.
var signedDurations = map[string]bool{"by": true, "clock_offset": true, "clock_skew": true}

// field is one YAML key of a struct, inline fields flattened.
type field struct {
	name      string
	index     []int
	omitempty bool
}

var fieldCache sync.Map // reflect.Type -> []field

// fieldsOf lists the YAML keys of a struct type in declaration order,
// flattening fields tagged ",inline". The first of two equal names wins.
func fieldsOf(t reflect.Type) []field {
	if fs, ok := fieldCache.Load(t); ok {
		return fs.([]field)
	}
	var out []field
	seen := map[string]bool{}
	var walk func(t reflect.Type, index []int)
	walk = func(t reflect.Type, index []int) {
		for i := 0; i < t.NumField(); i++ {
			sf := t.Field(i)
			tag := sf.Tag.Get("yaml")
			if tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			idx := append(append([]int(nil), index...), i)
			if strings.Contains(","+opts+",", ",inline,") && sf.Type.Kind() == reflect.Struct {
				walk(sf.Type, idx)
				continue
			}
			if !sf.IsExported() {
				continue
			}
			if name == "" {
				name = strings.ToLower(sf.Name)
			}
			if seen[name] {
				continue
			}
			seen[name] = true
			out = append(out, field{name: name, index: idx, omitempty: strings.Contains(","+opts+",", ",omitempty,")})
		}
	}
	walk(t, nil)
	fieldCache.Store(t, out)
	return out
}

// fieldNames lists a struct type's YAML keys.
func fieldNames(t reflect.Type) []string {
	fs := fieldsOf(t)
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.name
	}
	return out
}

// what names a struct type in messages: "a client", "a fault".
func what(t reflect.Type) string {
	n := strings.ToLower(t.Name())
	switch n {
	case "":
		return "this map"
	case "file":
		return "a scenario file"
	case "text":
		return "a text"
	case "action":
		return "a schedule entry"
	case "match":
		return "a match (on:)"
	}
	if strings.ContainsAny(n[:1], "aeiou") {
		return "an " + n
	}
	return "a " + n
}

// describe says what a node is, for "want X, got Y" messages.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a map"
	case yaml.AliasNode:
		return "an alias"
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return "nothing"
		case "!!int":
			return "the integer " + short(n.Value)
		case "!!float":
			return "the number " + short(n.Value)
		case "!!bool":
			return short(n.Value)
		}
		return strconv.Quote(short(n.Value))
	}
	return "nothing"
}

// short cuts long values for messages.
func short(s string) string {
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" }

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func (d *decoder) errAt(n *yaml.Node, format string, args ...any) {
	d.r.add(n.Line, n.Column, format, args...)
}

// fail reports that the value at path could not be read. Later checks stay
// silent about it and everything inside it: one mistake, one message.
func (d *decoder) fail(path string, n *yaml.Node, format string, args ...any) {
	d.bad[path] = true
	d.errAt(n, format, args...)
}

// value decodes n into v. name is the YAML key that holds it ("" for list
// items), used in messages and to tell signed durations.
func (d *decoder) value(n *yaml.Node, v reflect.Value, path, name string, depth int) {
	d.vals[path] = n
	if depth > MaxDepth {
		d.fail(path, n, "nested deeper than %d levels", MaxDepth)
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
			d.fail(path, n, "%s%v", label, err)
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
			d.fail(path, n, "%swant a list, got %s", label, describe(n))
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
		shape := "a map"
		if names := fieldNames(t); len(names) <= 4 {
			shape = "a map of " + strings.Join(names, ", ")
		}
		d.fail(path, n, "%swant %s (%s), got %s", label, what(t), shape, describe(n))
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
			d.errAt(k, "field %q is set twice (first at line %d)", k.Value, first.Line)
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
		d.errAt(k, "a key must be a name, got %s", describe(k))
		return false
	case k.ShortTag() == "!!merge":
		d.errAt(k, "merge keys (<<) are not allowed: write the fields out")
		return false
	}
	return true
}

// unknown reports an unknown field with a did-you-mean hint, and returns
// the field it was probably meant to be ("" if none is close).
func (d *decoder) unknown(k *yaml.Node, t reflect.Type) string {
	names := fieldNames(t)
	if s := suggest(k.Value, names); s != "" {
		d.errAt(k, "unknown field %q — did you mean %q?", k.Value, s)
		return s
	}
	d.errAt(k, "unknown field %q in %s (fields: %s)", k.Value, what(t), strings.Join(names, ", "))
	return ""
}

// mapping decodes a map with string keys.
func (d *decoder) mapping(n *yaml.Node, v reflect.Value, path, label string, depth int) {
	t := v.Type()
	if n.Kind != yaml.MappingNode {
		d.fail(path, n, "%swant a map, got %s", label, describe(n))
		return
	}
	if t.Key().Kind() != reflect.String {
		d.fail(path, n, "%scannot be read (map key type %s)", label, t.Key())
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
			d.errAt(k, "key %q is set twice (first at line %d)", k.Value, first.Line)
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
// parameter): a string, an integer, a number or true/false.
func (d *decoder) any(n *yaml.Node, v reflect.Value, path, label string) {
	if n.Kind != yaml.ScalarNode {
		d.fail(path, n, "%swant a single value, got %s", label, describe(n))
		return
	}
	var x any
	switch n.ShortTag() {
	case "!!null":
		return
	case "!!int":
		var i int
		if err := n.Decode(&i); err != nil {
			d.fail(path, n, "%sthe integer %s is out of range", label, short(n.Value))
			return
		}
		x = i
	case "!!float":
		var f float64
		if err := n.Decode(&f); err != nil {
			d.fail(path, n, "%sbad number %s", label, short(n.Value))
			return
		}
		x = f
	case "!!bool":
		x = n.Value == "true"
	default:
		x = n.Value
	}
	v.Set(reflect.ValueOf(x))
}

// scalar decodes a string, integer, number or boolean field.
func (d *decoder) scalar(n *yaml.Node, v reflect.Value, path, label string) {
	want := map[reflect.Kind]string{reflect.String: "a string", reflect.Bool: "true or false",
		reflect.Float32: "a number", reflect.Float64: "a number"}[v.Kind()]
	if want == "" {
		want = "an integer"
	}
	if n.Kind != yaml.ScalarNode {
		d.fail(path, n, "%swant %s, got %s", label, want, describe(n))
		return
	}
	tag := n.ShortTag()
	switch v.Kind() {
	case reflect.String:
		if tag == "!!binary" { // custom tags (!x) are refused before decoding, by limits
			d.fail(path, n, "%swant a string, got a value tagged %s", label, tag)
			return
		}
		v.SetString(n.Value)
	case reflect.Bool:
		if tag != "!!bool" {
			d.fail(path, n, "%swant true or false, got %s", label, describe(n))
			return
		}
		v.SetBool(n.Value == "true")
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		var i int64
		if tag != "!!int" || n.Decode(&i) != nil || v.OverflowInt(i) {
			d.fail(path, n, "%swant an integer, got %s", label, describe(n))
			return
		}
		v.SetInt(i)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		var i uint64
		if tag != "!!int" || n.Decode(&i) != nil || v.OverflowUint(i) {
			d.fail(path, n, "%swant a whole number of at least 0, got %s", label, describe(n))
			return
		}
		v.SetUint(i)
	case reflect.Float32, reflect.Float64:
		var f float64
		if tag != "!!int" && tag != "!!float" || n.Decode(&f) != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			d.fail(path, n, "%swant a number, got %s", label, describe(n))
			return
		}
		v.SetFloat(f)
	default:
		d.fail(path, n, "%scannot be read (type %s)", label, v.Type())
	}
}

// duration decodes "3s", "150ms", "1m" or 0, within MaxDuration.
func (d *decoder) duration(n *yaml.Node, v reflect.Value, path, label, name string) {
	if n.Kind != yaml.ScalarNode {
		d.fail(path, n, "%swant a duration such as 3s, got %s", label, describe(n))
		return
	}
	x, err := parseDuration(n.Value)
	if err != nil {
		d.fail(path, n, "%s%v", label, err)
		return
	}
	if x < 0 && !signedDurations[name] {
		d.fail(path, n, "%sa duration cannot be negative here, got %s", label, n.Value)
		return
	}
	if x.D() > MaxDuration || x.D() < -MaxDuration {
		d.fail(path, n, "%s%s is longer than the limit of %s", label, n.Value, fmtDuration(MaxDuration))
		return
	}
	v.Set(reflect.ValueOf(x))
}

// fmtDuration writes a duration in its shortest exact form: 10m, 3s,
// 2500ms, 1.5µs.
func fmtDuration(d time.Duration) string {
	switch {
	case d == 0:
		return "0s"
	case d%time.Hour == 0:
		return strconv.FormatInt(int64(d/time.Hour), 10) + "h"
	case d%time.Minute == 0:
		return strconv.FormatInt(int64(d/time.Minute), 10) + "m"
	case d%time.Second == 0:
		return strconv.FormatInt(int64(d/time.Second), 10) + "s"
	case d%time.Millisecond == 0:
		return strconv.FormatInt(int64(d/time.Millisecond), 10) + "ms"
	}
	return d.String()
}

// sortedKeys gives a map's string keys in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
