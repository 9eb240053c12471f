package scenario

import (
	"math"
	"reflect"

	"go.yaml.in/yaml/v4"
)

// signedDurations are the duration fields that may be negative: a clock
// may be set back as well as forward.
var signedDurations = map[string]bool{"by": true, "clock_offset": true, "clock_skew": true}

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
		d.fail(path, n, "%swant %s, got %s", label, describeText(want), describe(n))
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
