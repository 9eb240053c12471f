// Package sim is Lockstep's deterministic discrete-event simulator.
//
// A World holds Redis nodes (embedded miniredis instances reached over
// in-memory connections), simulated client processes, the network between
// them, one virtual clock and one random source seeded from the scenario.
//
// Client processes run ordinary Go code against go-redis v9. Exactly one
// client thread runs at a time: every Redis command is a scheduling point
// (its request and its reply are separate events), every sleep is a timer
// on the virtual clock, and a key's expiry is an event of its own. The
// engine never reads the wall clock or the global random source and never
// starts a goroutine it does not schedule, so the same setup and seed give
// the same event log, byte for byte.
//
// The package owns the event record (Event) and its two forms: one text
// line (Event.String) for the CLI and golden tests, and JSON for the wire.
package sim
