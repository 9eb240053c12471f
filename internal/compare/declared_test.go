package compare

import (
	"os"
	"testing"

	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
)

// A scenario's own lock set beside a catalog lock hands it the key, lease
// and retry it declares (what its clients' params leave to the lock):
// labs/your-lock.yaml's plain-DEL lock leases 1s and retries every 100ms,
// so lua-compare-delete in its place does too, not its own 3s. Argued:
// with the same 1s lease the compare-and-delete release no longer frees
// B's key (no foreign-unlock), but A still outlives its lease
// (mutual-exclusion stays).
func TestADeclaredLockHandsItsLeaseToTheOtherSide(t *testing.T) {
	text, err := os.ReadFile("../../labs/your-lock.yaml")
	if err != nil {
		t.Fatal(err)
	}
	f, err := scenario.Parse("your-lock.yaml", text)
	if err != nil {
		t.Fatal(err)
	}
	sc, _ := f.Find("your-lock-unconditional-del")
	right, err := Against(sc, "lua-compare-delete", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range right.Clients {
		if c.Params["ttl"] != "1s" || c.Params["retry"] != "100ms" || c.Params["key"] != "lock" {
			t.Errorf("client %s runs %s with %v, want the declared ttl 1s, retry 100ms, key lock", c.Name, c.Algorithm, c.Params)
		}
	}
	res, err := Compare(sc, right, sc.Seed)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := res.Right.Verdicts, []string{"mutual-exclusion", "lost-update"}; !lesson.SameVerdicts(got, want) {
		t.Errorf("lua-compare-delete on the declared lease: %v, want %v (left: %v)", got, want, res.Left.Verdicts)
	}
}
