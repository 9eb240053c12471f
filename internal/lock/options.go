package lock

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Options are an algorithm's typed options: a pointer to one of the
// package's options structs (SetNXOptions, RedlockOptions, ...). Each
// struct binds its fields to parameter names in one table, from which the
// registry derives the algorithm's Params (what a scenario may set) and
// the decoding of a scenario's params: map (Info.Decode). The algorithm
// itself reads only the fields.
type Options interface {
	// fields binds each parameter name to a field of the struct.
	fields() []field
}

// field binds a parameter name to a field of an options struct.
type field struct {
	name string
	ptr  any // *string, *time.Duration, *int, *float64 or *bool
	doc  string
}

// kind is the parameter type of the field.
func (f field) kind() ParamKind {
	switch f.ptr.(type) {
	case *time.Duration:
		return Dur
	case *int:
		return Int
	case *float64:
		return Float
	case *bool:
		return Bool
	case *string:
		return Str
	}
	panic(fmt.Sprintf("lock: parameter %q binds a field of type %T", f.name, f.ptr))
}

// value is the field's current value.
func (f field) value() any {
	switch p := f.ptr.(type) {
	case *time.Duration:
		return *p
	case *int:
		return *p
	case *float64:
		return *p
	case *bool:
		return *p
	case *string:
		return *p
	}
	panic(fmt.Sprintf("lock: parameter %q binds a field of type %T", f.name, f.ptr))
}

// set stores v, already converted to the field's kind, in the field.
func (f field) set(v any) {
	switch p := f.ptr.(type) {
	case *time.Duration:
		*p = v.(time.Duration)
	case *int:
		*p = v.(int)
	case *float64:
		*p = v.(float64)
	case *bool:
		*p = v.(bool)
	case *string:
		*p = v.(string)
	}
}

// paramsOf describes the parameters of an options struct, with its
// current values as their defaults.
func paramsOf(o Options) []Param {
	fs := o.fields()
	out := make([]Param, len(fs))
	for i, f := range fs {
		out[i] = Param{Name: f.name, Kind: f.kind(), Default: f.value(), Doc: f.doc, OneOf: choices[f.name]}
	}
	return out
}

// choices are the only values of the string parameters that name a mode:
// any other would quietly run the default.
var choices = map[string][]string{
	"recover": {RecoverGetSet, RecoverDel},
	"script":  {Script000, Script002},
	"owner":   {OwnerUUIDThread, OwnerThread, OwnerUUID},

	"retry_strategy": {RetryNone, RetryLinear, RetryExponential},
}

// Decode is the one decoder of a scenario's parameters: it checks raw
// values (from YAML or JSON: durations as strings such as "3s" or as
// time.Duration, numbers as int or float64) against the algorithm's
// options and sets them over a fresh copy of its defaults. An algorithm
// without options decodes to nil.
func (a *Info) Decode(raw map[string]any) (Options, error) {
	var o Options
	var fs []field
	if a.defaults != nil {
		o = a.defaults()
		fs = o.fields()
	}
	names := make([]string, 0, len(raw))
	for k := range raw {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		i := slices.IndexFunc(fs, func(f field) bool { return f.name == k })
		if i < 0 {
			return nil, fmt.Errorf("unknown parameter %q for algorithm %s", k, a.ID)
		}
		v, err := convert(fs[i].kind(), raw[k])
		if err != nil {
			return nil, fmt.Errorf("parameter %q: %w", k, err)
		}
		if s, ok := v.(string); ok && choices[k] != nil && !slices.Contains(choices[k], s) {
			return nil, fmt.Errorf("parameter %q: %q is none of %s", k, s, strings.Join(choices[k], ", "))
		}
		fs[i].set(v)
	}
	return o, nil
}

// Duration is the duration parameter name of a client with raw parameters
// raw: the value set there, else the algorithm's default. ok is false when
// the algorithm has no such duration parameter or raw does not decode.
func (a *Info) Duration(raw map[string]any, name string) (d time.Duration, ok bool) {
	o, err := a.Decode(raw)
	if err != nil || o == nil {
		return 0, false
	}
	for _, f := range o.fields() {
		if f.name == name && f.kind() == Dur {
			return f.value().(time.Duration), true
		}
	}
	return 0, false
}

// typed registers an algorithm with typed options: defaults gives a fresh
// copy of its row's defaults, from which its Params are described, and
// build makes the lock over the options a Config carries (the defaults
// when it carries none of this type).
func typed[O Options](a *Info, defaults func() O, build func(c Config, o O) Locker) *Info {
	a.defaults = func() Options { return defaults() }
	a.Params = paramsOf(defaults())
	a.New = func(c Config) Locker { return build(c, optionsOr(c, defaults)) }
	return a
}

// optionsOr gives the options c carries if they are of type O, else
// defaults'.
func optionsOr[O Options](c Config, defaults func() O) O {
	if o, ok := c.Options.(O); ok {
		return o
	}
	return defaults()
}

// Backoff is how an algorithm waits between acquire attempts. Its zero
// value retries at once, for ever.
type Backoff struct {
	// Retry is the wait between attempts.
	Retry time.Duration
	// RetryJitter adds a random wait in [0, RetryJitter) to each (0: none).
	RetryJitter time.Duration
	// AcquireTimeout gives up acquiring with ErrNotAcquired once another
	// wait would take the attempt past it (0: never).
	AcquireTimeout time.Duration
}

// OwnerModeOf is the owner mode options set (ReentrantOptions.OwnerMode:
// the field bound to the owner parameter), "" for locks without one.
func OwnerModeOf(o Options) string { return fieldString(o, "owner") }

// KeyOf is the lock key options set: the field bound to the key parameter,
// which every algorithm with a lock key has ("" for the others and for nil
// options).
func KeyOf(o Options) string { return fieldString(o, "key") }

// fieldString is the string field of o bound to parameter name ("" when
// o is nil or has none).
func fieldString(o Options, name string) string {
	if o == nil {
		return ""
	}
	for _, f := range o.fields() {
		if f.name == name {
			return f.value().(string)
		}
	}
	return ""
}
