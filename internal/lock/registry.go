package lock

// Algorithms is the lesson catalog, in catalog order.
var Algorithms = []*Info{
	{ID: "no-lock", Row: 1, Title: "No lock: GET then SET", Seed: "000 intro, 001 §2",
		Flaw: "two clients read the same stock before either writes: oversell",
		New:  func(Config) Locker { return NoLock{} }},
	{ID: "set-nx-ex-blind-del", Row: 7, Title: "SET NX PX, released by a blind DEL", Seed: "000 ②",
		Flaw:   "work longer than the TTL: the DEL frees the next owner's lock",
		Params: setNXParams(), New: NewSetNXBlindDel},
	{ID: "lua-compare-delete", Row: 9, Title: "SET NX PX, released by Lua compare-and-delete", Seed: "000 ④, 004 正确姿势",
		Flaw:   "safe release; a pause past the TTL still overlaps the next holder",
		Params: setNXParams(), New: NewLuaCompareDelete},
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
