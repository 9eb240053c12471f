//go:build race

package server

// raceDetector is true when the tests run under -race, whose slowdown
// makes timing goals meaningless.
const raceDetector = true
