// Package scenario owns the scenario format: the schema (File, Scenario,
// Client, Fault, ...), its YAML parser with errors that name file, line and
// column, and the limits that keep hostile input harmless.
package scenario
