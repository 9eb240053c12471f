package sim

import "github.com/redis/go-redis/v9"

// addPrefix puts prefix before every key argument of cmds (whose text
// forms, from cmdArgs, are text), in place, right before they go to the
// server, and gives the function that takes it off again (a KeyRecorder
// hears of each key): events, replies and the clients' own view of their
// commands never show it. An empty prefix changes nothing.
func addPrefix(b Backend, cmds []redis.Cmder, text [][]string) (restore func()) {
	rec, _ := b.(KeyRecorder)
	prefix := b.Prefix()
	if prefix == "" && rec == nil {
		return func() {}
	}
	type saved struct {
		args []any
		i    int
		v    any
	}
	var undo []saved
	for j, c := range cmds {
		args, text := c.Args(), text[j]
		r := keyPositions(text)
		for i := r.from; i < r.to; i += r.step {
			if rec != nil {
				rec.Record(text[i])
			}
			if prefix == "" {
				continue
			}
			undo = append(undo, saved{args, i, args[i]})
			args[i] = prefix + text[i]
		}
	}
	return func() {
		for _, u := range undo {
			u.args[u.i] = u.v
		}
	}
}
