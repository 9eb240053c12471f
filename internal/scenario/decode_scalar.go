package scenario

import (
	"math"
	"reflect"

	"go.yaml.in/yaml/v4"

	"github.com/lockstep/lockstep/internal/fact"
)

// signedDurations are the duration fields that may be negative: a clock
// may be set back as well as forward.
var signedDurations = map[string]bool{"by": true, "clock_offset": true, "clock_skew": true}

// any decodes a single value of a free-form field (an algorithm
// parameter): a string, an integer, a number or true/false.
func (d *decoder) any(n *yaml.Node, v reflect.Value, path, label string) {
	if n.Kind != yaml.ScalarNode {
		d.fail(path, n, fact.Say("scenario.want-a-single-value-got", label, describe(n)))
		return
	}
	var x any
	switch n.ShortTag() {
	case "!!null":
		return
	case "!!int":
		var i int
		if err := n.Decode(&i); err != nil {
			d.fail(path, n, fact.Say("scenario.the-integer-is-out-of", label, short(n.Value)))
			return
		}
		x = i
	case "!!float":
		var f float64
		if err := n.Decode(&f); err != nil {
			d.fail(path, n, fact.Say("scenario.bad-number", label, short(n.Value)))
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
		d.fail(path, n, fact.Say("scenario.want-got", label, describeText(want), describe(n)))
		return
	}
	tag := n.ShortTag()
	switch v.Kind() {
	case reflect.String:
		if tag == "!!binary" { // custom tags (!x) are refused before decoding, by limits
			d.fail(path, n, fact.Say("scenario.want-a-string-got-a", label, tag))
			return
		}
		v.SetString(n.Value)
	case reflect.Bool:
		if tag != "!!bool" {
			d.fail(path, n, fact.Say("scenario.want-true-or-false-got", label, describe(n)))
			return
		}
		v.SetBool(n.Value == "true")
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		var i int64
		if tag != "!!int" || n.Decode(&i) != nil || v.OverflowInt(i) {
			d.fail(path, n, fact.Say("scenario.want-an-integer-got", label, describe(n)))
			return
		}
		v.SetInt(i)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		var i uint64
		if tag != "!!int" || n.Decode(&i) != nil || v.OverflowUint(i) {
			d.fail(path, n, fact.Say("scenario.want-a-whole-number-of", label, describe(n)))
			return
		}
		v.SetUint(i)
	case reflect.Float32, reflect.Float64:
		var f float64
		if tag != "!!int" && tag != "!!float" || n.Decode(&f) != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			d.fail(path, n, fact.Say("scenario.want-a-number-got", label, describe(n)))
			return
		}
		v.SetFloat(f)
	default:
		d.fail(path, n, fact.Say("scenario.cannot-be-read-type", label, v.Type()))
	}
}

// duration decodes "3s", "150ms", "1m" or 0, within MaxDuration.
func (d *decoder) duration(n *yaml.Node, v reflect.Value, path, label, name string) {
	if n.Kind != yaml.ScalarNode {
		d.fail(path, n, fact.Say("scenario.want-duration-got", label, describe(n)))
		return
	}
	x, err := parseDuration(n.Value)
	if err != nil {
		d.fail(path, n, fact.Say("scenario.prefixed", label, words(err)))
		return
	}
	if x < 0 && !signedDurations[name] {
		d.fail(path, n, fact.Say("scenario.negative-duration", label, n.Value))
		return
	}
	if x.D() > MaxDuration || x.D() < -MaxDuration {
		d.fail(path, n, fact.Say("scenario.value-over-limit", label, n.Value, fmtDuration(MaxDuration)))
		return
	}
	v.Set(reflect.ValueOf(x))
}
