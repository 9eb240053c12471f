package scenario

import (
	"reflect"
	"testing"

	"github.com/lockstep/lockstep"
)

// builtin parses the built-in catalog, failing the test on any error.
func builtin(t testing.TB) *File {
	t.Helper()
	f, err := ParseBuiltin("scenarios.yaml", lockstep.Scenarios)
	if err != nil {
		t.Fatalf("the built-in scenarios.yaml must parse without errors, got:\n%v", err)
	}
	return f
}

// The built-in catalog is valid under the strict parser.
func TestBuiltinParses(t *testing.T) {
	f := builtin(t)
	if len(f.Scenarios) < 5 {
		t.Fatalf("want at least the 5 first lessons, got %d scenarios", len(f.Scenarios))
	}
}

// Marshal writes the built-in catalog so that Parse reads back the same
// scenarios, and marshalling again gives the same bytes.
func TestBuiltinRoundTrips(t *testing.T) {
	f := builtin(t)
	out, err := Marshal(f)
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	back, err := ParseBuiltin("marshalled.yaml", out)
	if err != nil {
		t.Fatalf("the marshalled catalog does not parse:\n%v\n--- yaml:\n%s", err, out)
	}
	if !reflect.DeepEqual(f, back) {
		for i := range f.Scenarios {
			if !reflect.DeepEqual(f.Scenarios[i], back.Scenarios[i]) {
				t.Fatalf("scenario %s changed in the round trip:\nwant %+v\ngot  %+v", f.Scenarios[i].ID, f.Scenarios[i], back.Scenarios[i])
			}
		}
		t.Fatalf("the file changed in the round trip")
	}
	again, err := Marshal(back)
	if err != nil || string(again) != string(out) {
		t.Fatalf("marshalling twice differs (err %v)", err)
	}
	if testing.Verbose() {
		t.Logf("%s", out[:min(len(out), 3000)])
	}
}
