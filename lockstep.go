// Package lockstep embeds the built-in lesson catalog (scenarios.yaml),
// the labs (labs/*.yaml) and the report card computed for this build
// (docs/choosing-a-lock.json) so that the binary carries them.
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

// Card is the whole report card as this build computes it,
// docs/choosing-a-lock.json (report.Decode reads it; a test in
// internal/report fails when it is not what the code computes).
//
//go:embed docs/choosing-a-lock.json
var Card []byte

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
