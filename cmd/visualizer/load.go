package main

import (
	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/scenario"
)

// loadFile reads --file, or the built-in catalog when it is empty.
func loadFile(path string) (*scenario.File, error) {
	if path == "" {
		return scenario.ParseBuiltin("scenarios.yaml", lockstep.Scenarios)
	}
	return scenario.Load(path)
}

// loadLabs reads the embedded labs (labs/*.yaml) into one file of scenarios.
func loadLabs() (*scenario.File, error) {
	out := &scenario.File{}
	names, files := lockstep.Labs()
	for i, n := range names {
		f, err := scenario.ParseBuiltin(n, files[i])
		if err != nil {
			return nil, err
		}
		out.Scenarios = append(out.Scenarios, f.Scenarios...)
	}
	return out, nil
}
