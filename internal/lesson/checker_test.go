package lesson

import (
	"os"
	"testing"

	"github.com/lockstep/lockstep/internal/scenario"
)

// The checker on scenarios written outside the catalog: each of
// testdata/checker/defects.yaml's scenarios is a case an earlier checker
// misjudged (locks on other keys taken for one critical section, owners
// that are bare thread ids, a lock nobody can ever release called safe, a
// long lease called a deadlock, a crashed holder's lock cleared by
// recovery called a foreign unlock, lost updates judged by the final count
// alone, stale writes that ignore Redlock's quorum), with the verdict
// argued in a comment above it.
func TestCheckerOnScenariosOutsideTheCatalog(t *testing.T) {
	const path = "testdata/checker/defects.yaml"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := scenario.Parse(path, data)
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range f.Scenarios {
		t.Run(sc.ID, func(t *testing.T) {
			txt, _ := runLog(t, &sc, sc.Seed)
			r, err := Build(&sc, sc.Seed)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			r.RunToEnd()
			if got := r.Verdicts(); !SameVerdicts(got, sc.Expect) {
				t.Errorf("verdicts = %v, want %v\n%s", got, sc.Expect, txt)
			}
		})
	}
}
