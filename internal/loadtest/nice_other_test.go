//go:build !linux

package loadtest

import "errors"

// lowerPriority is Linux-only: elsewhere the browsers keep the server's
// priority.
func lowerPriority(int) error { return errors.New("browser priority: Linux only") }
