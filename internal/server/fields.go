package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"
)

// exactFields refuses a request whose field names are not exactly the
// protocol's: encoding/json matches a key to a field ignoring case, so
// {"Op":"step"} would run as {"op":"step"}, and it drops a key it does not
// know. Both are refused here, before decoding, with the key's place in
// the message: a miscased key with code field-case (and the name to
// write), an unknown one with unknown-field. Keys are checked at every
// depth the Request type declares (fault, actions, ask); a field that
// decodes itself (json.Unmarshaler, json.RawMessage) is left to its own
// decoder. A message that is not JSON is left to json.Unmarshal, which
// says why.
func exactFields(data []byte) error {
	var v any
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	if d.Decode(&v) != nil {
		return nil
	}
	return checkKeys(v, requestType, "")
}

var requestType = reflect.TypeFor[Request]()

// checkKeys compares the keys of the decoded value v with the fields of t,
// at the place path.
func checkKeys(v any, t reflect.Type, path string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if decodesItself(t) {
		return nil
	}
	switch t.Kind() {
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			return nil // a type mismatch: json.Unmarshal says so
		}
		fields := jsonFields(t)
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys) // the first bad key in a stable order
		for _, k := range keys {
			at := fieldPath(path, k)
			ft, ok := fields[k]
			if !ok {
				for name := range fields {
					if strings.EqualFold(name, k) {
						return coded("field-case", map[string]any{"field": at, "want": fieldPath(path, name)},
							"field %q: field names are matched exactly: write %q", at, fieldPath(path, name))
					}
				}
				return coded("unknown-field", map[string]any{"field": at},
					"field %q is not in the protocol (docs/protocol.md)", at)
			}
			if err := checkKeys(obj[k], ft, at); err != nil {
				return err
			}
		}
	case reflect.Slice, reflect.Array:
		list, ok := v.([]any)
		if !ok {
			return nil
		}
		for i, e := range list {
			if err := checkKeys(e, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	case reflect.Map:
		obj, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		for k, e := range obj {
			if err := checkKeys(e, t.Elem(), fieldPath(path, k)); err != nil {
				return err
			}
		}
	}
	return nil
}

func fieldPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

var unmarshaler = reflect.TypeFor[json.Unmarshaler]()

// decodesItself tells a type that reads its own JSON (json.RawMessage is
// one).
func decodesItself(t reflect.Type) bool {
	return t.Implements(unmarshaler) || reflect.PointerTo(t).Implements(unmarshaler)
}

var fieldCache sync.Map // reflect.Type -> map[string]reflect.Type

// jsonFields are the JSON names of a struct's fields, with their types, as
// encoding/json reads them: a tag's name or the Go name, embedded structs
// without a name promoted, "-" and unexported fields left out.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	if m, ok := fieldCache.Load(t); ok {
		return m.(map[string]reflect.Type)
	}
	m := map[string]reflect.Type{}
	addFields(t, m)
	fieldCache.Store(t, m)
	return m
}

func addFields(t reflect.Type, m map[string]reflect.Type) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			et := f.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				addFields(et, m)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if _, ok := m[name]; !ok { // the shallower field wins, as in encoding/json
			m[name] = f.Type
		}
	}
}
