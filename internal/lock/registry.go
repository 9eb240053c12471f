package lock

import "sort"

// Algorithms is the lesson catalog, in catalog order. Each algorithm's file
// adds itself with register.
var Algorithms []*Info

// register adds an algorithm to the catalog, keeping catalog order.
func register(a *Info) {
	if a.Marks == nil {
		a.Marks = ownMarks[a.ID]
	}
	Algorithms = append(Algorithms, a)
	sort.SliceStable(Algorithms, func(i, j int) bool { return Algorithms[i].Row < Algorithms[j].Row })
}

// Lookup finds an algorithm by id.
func Lookup(id string) (*Info, bool) {
	for _, a := range Algorithms {
		if a.ID == id {
			return a, true
		}
	}
	return nil, false
}

// IDs lists the algorithm ids in catalog order.
func IDs() []string {
	out := make([]string, len(Algorithms))
	for i, a := range Algorithms {
		out[i] = a.ID
	}
	return out
}

// Rows lists the catalog rows the algorithms show, in order.
func Rows() []int {
	var out []int
	for _, a := range Algorithms {
		if len(out) == 0 || out[len(out)-1] != a.Row {
			out = append(out, a.Row)
		}
	}
	return out
}
