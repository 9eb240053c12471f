package scenario

import "strings"

// suggest picks the known name closest to a misspelt one, or "" when none
// is close enough to be a likely typo. Closeness is the edit distance with
// transpositions (clinets -> clients is one edit), ignoring case; a name
// that the input starts (algo -> algorithm) also counts.
func suggest(got string, known []string) string {
	g := strings.ToLower(got)
	best, bestD := "", 1<<30
	for _, k := range known {
		d := distance(g, strings.ToLower(k))
		if d < bestD {
			best, bestD = k, d
		}
	}
	limit := 0 // a one- or two-letter name is only matched ignoring case
	switch {
	case len(g) > 8:
		limit = 3
	case len(g) > 4:
		limit = 2
	case len(g) > 2:
		limit = 1
	}
	if best != "" && bestD <= limit {
		return best
	}
	if len(g) >= 3 {
		for _, k := range known {
			if strings.HasPrefix(strings.ToLower(k), g) {
				return k
			}
		}
	}
	return ""
}

// distance is the optimal string alignment distance between a and b:
// insertions, deletions, substitutions and swaps of neighbours, by rune.
// Inputs longer than 64 runes are compared by their first 64.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if len(ra) > 64 {
		ra = ra[:64]
	}
	if len(rb) > 64 {
		rb = rb[:64]
	}
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
