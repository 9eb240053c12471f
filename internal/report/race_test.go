//go:build race

package report

// raceEnabled: the tests run under the race detector, which makes the
// engine some ten times slower.
const raceEnabled = true
