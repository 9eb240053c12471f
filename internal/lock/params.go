package lock

import (
	"fmt"
	"sort"
	"time"
)

// ParamKind is the type of an algorithm parameter.
type ParamKind string

// Parameter types.
const (
	Dur   ParamKind = "duration"
	Int   ParamKind = "int"
	Float ParamKind = "float"
	Bool  ParamKind = "bool"
	Str   ParamKind = "string"
)

// Param describes one parameter a scenario may set.
type Param struct {
	Name    string
	Kind    ParamKind
	Default any // time.Duration, int, float64, bool or string
	Doc     string
}

// Params are parameter values by name, already of their Param's Go type.
type Params map[string]any

// Duration returns a duration parameter (0 if unset).
func (p Params) Duration(name string) time.Duration { d, _ := p[name].(time.Duration); return d }

// Int returns an int parameter (0 if unset).
func (p Params) Int(name string) int { n, _ := p[name].(int); return n }

// Float returns a float parameter (0 if unset).
func (p Params) Float(name string) float64 { f, _ := p[name].(float64); return f }

// Bool returns a bool parameter (false if unset).
func (p Params) Bool(name string) bool { b, _ := p[name].(bool); return b }

// String returns a string parameter ("" if unset).
func (p Params) String(name string) string { s, _ := p[name].(string); return s }

// Info describes one algorithm of the catalog.
type Info struct {
	ID        string
	Row       int    // the row of the lesson catalog
	Title     string // short English title
	Seed      string // source document and section
	Flaw      string // the lesson, in one sentence
	Params    []Param
	Nodes     int  // masters it needs (0: one)
	Unguarded bool // no lock at all: the workload runs without a critical section
	New       func(c Config) Locker

	// defaults gives a fresh copy of the algorithm's typed options with
	// its row's defaults (nil: not typed, or no parameters).
	defaults func() Options
}

// Param returns the named parameter's description.
func (a *Info) Param(name string) (Param, bool) {
	for _, p := range a.Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// Resolve fills defaults into raw parameter values and checks their types.
// Raw values come from YAML or JSON: durations as strings ("3s") or
// time.Duration, numbers as int or float64.
func (a *Info) Resolve(raw map[string]any) (Params, error) {
	if a.defaults == nil {
		return a.resolveParams(raw)
	}
	o, err := a.Decode(raw)
	if err != nil {
		return nil, err
	}
	return ParamsOf(o), nil
}

// resolveParams is Resolve for an algorithm whose parameters are not yet
// typed.
func (a *Info) resolveParams(raw map[string]any) (Params, error) {
	out := Params{}
	for _, p := range a.Params {
		out[p.Name] = p.Default
	}
	names := make([]string, 0, len(raw))
	for k := range raw {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		p, ok := a.Param(k)
		if !ok {
			return nil, fmt.Errorf("unknown parameter %q for algorithm %s", k, a.ID)
		}
		v, err := convert(p.Kind, raw[k])
		if err != nil {
			return nil, fmt.Errorf("parameter %q: %w", k, err)
		}
		out[k] = v
	}
	return out, nil
}

func convert(kind ParamKind, v any) (any, error) {
	switch kind {
	case Dur:
		switch x := v.(type) {
		case time.Duration:
			return x, nil
		case string:
			d, err := time.ParseDuration(x)
			if err != nil {
				return nil, fmt.Errorf("bad duration %q (write e.g. 3s or 150ms)", x)
			}
			if d < 0 {
				return nil, fmt.Errorf("negative duration %q", x)
			}
			return d, nil
		}
	case Int:
		switch x := v.(type) {
		case int:
			return x, nil
		case int64:
			return int(x), nil
		case uint64:
			return int(x), nil
		case float64:
			if x == float64(int(x)) {
				return int(x), nil
			}
		}
	case Float:
		switch x := v.(type) {
		case float64:
			return x, nil
		case int:
			return float64(x), nil
		case int64:
			return float64(x), nil
		}
	case Bool:
		if b, ok := v.(bool); ok {
			return b, nil
		}
	case Str:
		if s, ok := v.(string); ok {
			return s, nil
		}
	}
	return nil, fmt.Errorf("want a %s, got %v", kind, v)
}
