package scenario

import (
	"reflect"
	"strings"
	"sync"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/sim"
)

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
func what(t reflect.Type) sim.Text {
	n := strings.ToLower(t.Name())
	switch n {
	case "":
		return fact.Say("scenario.what.this-map")
	case "file":
		return fact.Say("scenario.what.file")
	case "text":
		return fact.Say("scenario.what.text")
	case "action":
		return fact.Say("scenario.what.action")
	case "match":
		return fact.Say("scenario.what.match")
	case "lockstep":
		return fact.Say("scenario.what.lockstep")
	case "lockcommand":
		return fact.Say("scenario.what.lockcommand")
	}
	return aThing(n)
}
