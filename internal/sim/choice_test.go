package sim

import "testing"

// Commands due at the same instant commute when they run on different
// nodes or on disjoint keys of one node; a client's own code and a keyless
// command commute with nothing.
func TestMoveCommutes(t *testing.T) {
	exec := func(client, node string, keys ...string) Move {
		return Move{Client: client, T: 5, Exec: true, Node: node, Keys: keys}
	}
	cases := []struct {
		a, b Move
		want bool
	}{
		{exec("A", "r1", "lock"), exec("B", "r2", "lock"), true},
		{exec("A", "r1", "lock"), exec("B", "r1", "stock"), true},
		{exec("A", "r1", "lock"), exec("B", "r1", "lock", "x"), false},
		{exec("A", "r1"), exec("B", "r1", "lock"), false},
		{exec("A", "r1", "lock"), exec("A", "r2", "lock"), false},
		{exec("A", "r1", "lock"), Move{Client: "B", T: 5}, false},
		{exec("A", "r1", "lock"), Move{Client: "B", T: 6, Exec: true, Node: "r2", Keys: []string{"lock"}}, false},
	}
	for i, c := range cases {
		if got := c.a.Commutes(c.b); got != c.want || c.b.Commutes(c.a) != got {
			t.Errorf("case %d: %+v and %+v commute: got %v, want %v (either way round)", i, c.a, c.b, got, c.want)
		}
	}
}
