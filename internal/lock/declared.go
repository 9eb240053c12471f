package lock

import (
	"context"
	"fmt"
	"time"
)

// Values are the options of a lock declared outside the catalog (a
// scenario's own lock): one value a parameter, by name, each of its
// Param's kind. A Values from Info.Decode holds every parameter, set or
// defaulted.
type Values struct {
	params []Param
	vals   []any // pointers: *time.Duration, *int, *float64, *bool or *string
}

// fields binds each parameter to its value.
func (v *Values) fields() []field {
	out := make([]field, len(v.params))
	for i, p := range v.params {
		out[i] = field{name: p.Name, ptr: v.vals[i], doc: p.Doc}
	}
	return out
}

// Get is parameter name's value (nil when there is none).
func (v *Values) Get(name string) any {
	for i, p := range v.params {
		if p.Name == name {
			return field{ptr: v.vals[i]}.value()
		}
	}
	return nil
}

// Duration is the duration parameter name's value (0 when there is none).
func (v *Values) Duration(name string) time.Duration {
	d, _ := v.Get(name).(time.Duration)
	return d
}

// Format writes parameter name's value as a command argument: a duration
// in milliseconds (as PX and PEXPIRE take it), a number or a string as
// it is.
func (v *Values) Format(name string) (string, bool) {
	switch x := v.Get(name).(type) {
	case nil:
		return "", false
	case time.Duration:
		return fmt.Sprint(x.Milliseconds()), true
	default:
		return fmt.Sprint(x), true
	}
}

// newValues makes Values holding params' defaults.
func newValues(params []Param) *Values {
	v := &Values{params: params, vals: make([]any, len(params))}
	for i, p := range params {
		switch p.Kind {
		case Dur:
			d, _ := p.Default.(time.Duration)
			v.vals[i] = &d
		case Int:
			n, _ := p.Default.(int)
			v.vals[i] = &n
		case Float:
			f, _ := p.Default.(float64)
			v.vals[i] = &f
		case Bool:
			b, _ := p.Default.(bool)
			v.vals[i] = &b
		default:
			s, _ := p.Default.(string)
			v.vals[i] = &s
		}
	}
	return v
}

// Declare makes the Info of a lock declared outside the catalog: its
// parameters, with their defaults, are params (a "key" parameter names its
// lock key, as the catalog's do), and build makes it over the Values a
// client's params decode to. It is not registered in Algorithms: whoever
// declared it resolves its name (a scenario's own locks).
func Declare(a *Info, params []Param, build func(c Config, v *Values) Locker) *Info {
	a.Params = params
	a.defaults = func() Options { return newValues(params) }
	a.New = func(c Config) Locker {
		v, ok := c.Options.(*Values)
		if !ok {
			v = newValues(params)
		}
		return build(c, v)
	}
	return a
}

// Retry calls try until it reports the lock taken, waiting b's retry
// interval (and jitter, from c) after each miss and giving up with
// ErrNotAcquired once b's acquire timeout would pass: the catalog's retry
// loop, for a declared lock's acquire.
func Retry(ctx context.Context, c *Config, b Backoff, try func() (bool, error)) error {
	return retry(ctx, c, b, try)
}
