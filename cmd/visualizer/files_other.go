//go:build !unix

package main

// openFileLimit is unknown here: serve keeps no reserve of descriptors but
// the per-address limits.
func openFileLimit() int { return 0 }
