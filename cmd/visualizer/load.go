package main

import (
	"fmt"

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

// findScenario is the scenario id of f, the file at path (""; the
// built-in catalog); when there is none, an error that says where to list
// the ids.
func findScenario(f *scenario.File, id, path string) (*scenario.Scenario, error) {
	if sc, ok := f.Find(id); ok {
		return sc, nil
	}
	if path == "" {
		return nil, fmt.Errorf("no scenario %q (see visualizer list)", id)
	}
	return nil, fmt.Errorf("no scenario %q in %s (see visualizer list --file %s)", id, path, path)
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
