package lock

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// For every algorithm with typed options, the parameters a scenario may set
// are exactly the fields its options bind, Resolve is the view of Decode,
// and a value set by name lands in its field.
func TestOptionsAgreeWithParams(t *testing.T) {
	for _, a := range Algorithms {
		if a.defaults == nil {
			continue
		}
		o, err := a.Decode(nil)
		if err != nil {
			t.Fatalf("%s: decode nothing: %v", a.ID, err)
		}
		if got, want := paramsOf(o), a.Params; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: params of the defaults\n got %v\nwant %v", a.ID, got, want)
		}
		p, err := a.Resolve(nil)
		if err != nil {
			t.Fatalf("%s: resolve nothing: %v", a.ID, err)
		}
		if got := ParamsOf(o); !reflect.DeepEqual(got, p) {
			t.Errorf("%s: ParamsOf(Decode) = %v, Resolve = %v", a.ID, got, p)
		}
		if _, err := a.Decode(map[string]any{"retyr": "1s"}); err == nil || !strings.Contains(err.Error(), `unknown parameter "retyr"`) {
			t.Errorf("%s: a misspelt parameter gave %v, want unknown parameter", a.ID, err)
		}
		if _, ok := a.Param("retry"); ok {
			o, err := a.Decode(map[string]any{"retry": "7ms"})
			if err != nil {
				t.Fatal(err)
			}
			if got := ParamsOf(o)["retry"]; got != 7*time.Millisecond {
				t.Errorf("%s: retry 7ms decoded to %v", a.ID, got)
			}
		}
	}
}

// Nil options are the documented defaults.
func TestNilOptionsAreDefaults(t *testing.T) {
	l := NewLuaCompareDelete(Config{}, nil).(*LuaCompareDelete)
	if !reflect.DeepEqual(l.o, DefaultSetNXOptions()) {
		t.Errorf("nil options gave %+v, want %+v", l.o, DefaultSetNXOptions())
	}
}
