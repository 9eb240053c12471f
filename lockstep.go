// Package lockstep embeds the built-in lesson catalog (scenarios.yaml) and
// the labs (labs/*.yaml) so that the binary carries them.
package lockstep

import (
	"embed"
	"io/fs"
	"sort"
)

// Scenarios is the built-in catalog, scenarios.yaml.
//
//go:embed scenarios.yaml
var Scenarios []byte

//go:embed labs/*.yaml
var labs embed.FS

// Labs returns the lab files (labs/*.yaml) by name, in name order.
func Labs() (names []string, files [][]byte) {
	entries, _ := fs.Glob(labs, "labs/*.yaml")
	sort.Strings(entries)
	for _, n := range entries {
		b, err := labs.ReadFile(n)
		if err != nil {
			continue
		}
		names = append(names, n)
		files = append(files, b)
	}
	return names, files
}
