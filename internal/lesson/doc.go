// Package lesson turns a scenario into a running world: it builds the
// nodes, the initial data and the client programs (a lock algorithm from
// the catalog around a workload), wires faults, narration and the checker,
// and drives the world step by step. Session adds what a viewer needs:
// seek backwards and forwards, manual steps and faults injected at the
// cursor, all recorded so the same seed and actions replay byte for byte.
package lesson
