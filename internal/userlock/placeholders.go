package userlock

import (
	"regexp"
	"slices"
	"strconv"
	"time"

	"github.com/lockstep/lockstep/internal/lock"
)

// Placeholders are the words a step's arguments, keys and expected replies
// may hold, each replaced when the step runs: the lock key, the client's
// token (its owner identity), the TTL in milliseconds (as PX and PEXPIRE
// take it) and in whole seconds, rounded up (EX, EXPIRE). A lock's own
// parameters are written the same way: $name.
var Placeholders = []string{"$key", "$token", "$ttl", "$ttl_s"}

// placeholder finds $name in an argument.
var placeholder = regexp.MustCompile(`\$[a-z_][a-z0-9_]*`)

// Unknown lists the placeholders in s that are neither Placeholders nor
// $name of one of params.
func Unknown(s string, params []lock.Param) []string {
	var out []string
	for _, p := range placeholder.FindAllString(s, -1) {
		if !slices.Contains(Placeholders, p) && !slices.ContainsFunc(params, func(x lock.Param) bool { return "$"+x.Name == p }) {
			out = append(out, p)
		}
	}
	return out
}

// expander replaces the placeholders of one request.
type expander struct {
	token string
	v     *lock.Values
}

// expand replaces every placeholder in s.
func (x expander) expand(s string) string {
	return placeholder.ReplaceAllStringFunc(s, func(p string) string {
		switch p {
		case "$token":
			return x.token
		case "$ttl_s":
			ttl := x.v.Duration("ttl")
			return strconv.FormatInt(int64(max((ttl+time.Second-1)/time.Second, 1)), 10)
		}
		if v, ok := x.v.Format(p[1:]); ok {
			return v
		}
		return p
	})
}

// all expands every string of ss.
func (x expander) all(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = x.expand(s)
	}
	return out
}
