//go:build !unix

package sim_test

import "time"

// processCPU is not measured here: the benchmarks report no cpu-ns/op.
func processCPU() (time.Duration, bool) { return 0, false }
