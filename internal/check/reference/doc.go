// Package reference is a second, independent checker of a finished event
// log: small, slow and written to be read beside docs/verdicts.md. It
// replays the whole log into an explicit model — every key on every node
// with the threads that hold it and the event at which each came to hold it,
// every client's incarnations, every thread's beliefs, and the versions of
// the stock on every node — and then evaluates each verdict's definition
// from first principles, naming the same proving events the spec names.
//
// It shares nothing with the production checker (package check) except its
// Options, so that a test can run both over the same logs and require the
// same verdicts: two implementations of one definition that agree are far
// more likely to be right than either alone. Subpackage gen makes the
// random scenarios that test runs.
//
// The differential tests (diff_test.go, golden_test.go) run both checkers
// over every built-in lesson, every golden log and a generated corpus, and
// print, for each run they disagree on, the scenario's YAML, its seed, its
// log and both verdict lists, then a summary by cause:
//
//	go test ./internal/check/reference -run Differential
//	LOCKSTEP_GEN=5000 LOCKSTEP_GEN_SEED=7 go test ./internal/check/reference -run DifferentialGenerated
//	LOCKSTEP_DIFF_CAUSE="deadlock: only reference" go test ./internal/check/reference -run Differential -v
package reference
