package scenario

import (
	"fmt"
	"os"

	"go.yaml.in/yaml/v4"
)

// Parse reads a scenario file. name is used in error messages.
func Parse(name string, data []byte) (*File, error) {
	var f File
	if err := yaml.Load(data, &f, yaml.WithKnownFields()); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &f, nil
}

// Load reads and parses a scenario file from disk.
func Load(path string) (*File, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, b)
}

// Find returns the scenario with the given id.
func (f *File) Find(id string) (*Scenario, bool) {
	for i := range f.Scenarios {
		if f.Scenarios[i].ID == id {
			return &f.Scenarios[i], true
		}
	}
	return nil, false
}
