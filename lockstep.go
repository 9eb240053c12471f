// Package lockstep embeds the built-in lesson catalog (scenarios.yaml) so
// that the binary carries it.
package lockstep

import _ "embed"

// Scenarios is the built-in catalog, scenarios.yaml.
//
//go:embed scenarios.yaml
var Scenarios []byte
