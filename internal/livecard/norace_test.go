//go:build !race

package livecard

const raceEnabled = false
