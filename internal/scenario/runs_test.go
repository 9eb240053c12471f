package scenario

import (
	"reflect"
	"strings"
	"testing"
)

const runsBase = `scenarios:
  - id: runs
    title: {en: runs}
    clients:
      - {name: A, algorithm: lua-compare-delete}
      - {name: B, algorithm: lua-compare-delete}
      - {name: "C D", algorithm: lua-compare-delete}
`

// Consecutive hand steps are written as one run and read back as one
// action a step: a fault, a gap in the steps, a run too short and a
// client whose name has a blank all break runs, and the schedule comes
// back as it was.
func TestRunsOfHandStepsRoundTrip(t *testing.T) {
	f, err := Parse("runs.yaml", []byte(runsBase+"    expect: [safe]\n"))
	if err != nil {
		t.Fatal(err)
	}
	sc := &f.Scenarios[0]
	step := func(at int, c string) Action { return Action{Step: at, Fault: Fault{Do: StepAction, Client: c}} }
	sc.Schedule = []Action{step(0, "A"), step(1, "B"), step(2, "A"), step(3, "A"),
		{Step: 3, Fault: Fault{Do: "crash", Client: "B"}},
		step(4, "A"), step(5, "A"), // two: not a run
		step(7, "B"), step(8, "A"), step(9, "C D"), step(10, "B"), step(11, "A"), step(12, "B")}
	b, err := MarshalScenario(sc)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	for _, want := range []string{"{do: step, clients: A B A A}", "{step: 4, do: step, client: A}", "{step: 7, do: step, client: B}", "{step: 9, do: step, client: C D}", "{step: 10, do: step, clients: B A B}"} {
		if !strings.Contains(text, want) {
			t.Errorf("the file lacks %q:\n%s", want, text)
		}
	}
	back, err := Parse("back.yaml", b)
	if err != nil {
		t.Fatalf("the written file does not parse: %v\n%s", err, text)
	}
	if got := back.Scenarios[0].Schedule; !reflect.DeepEqual(got, sc.Schedule) {
		t.Fatalf("read back:\n%v\nwant\n%v", got, sc.Schedule)
	}
}

// A run's problems are reported at the run: an undeclared client at its
// clients, a run of faults, a run with a client too; and a run counts a
// schedule entry a step against the file's limit.
func TestRunsOfHandStepsErrors(t *testing.T) {
	for _, c := range []struct{ schedule, want string }{
		{"      - {step: 0, do: step, clients: A Z B}\n", `runs.yaml:9:38: no client "Z"`},
		{"      - {step: 0, do: crash, clients: A B}\n", "runs.yaml:9:9: a run of hand steps (clients:) takes do: step"},
		{"      - {step: 0, do: step, client: A, clients: A B}\n", "runs.yaml:9:37: a schedule entry takes client: (one step) or clients: (a run of steps), not both"},
		{"      - {step: 5, do: step, clients: " + strings.Repeat("A ", MaxSchedule+1) + "}\n", "10001 schedule entries; the limit is 10000"},
	} {
		_, err := Parse("runs.yaml", []byte(runsBase+"    schedule:\n"+c.schedule+"    expect: [safe]\n"))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("schedule %q: got %v, want %q", c.schedule, err, c.want)
		}
	}
}
