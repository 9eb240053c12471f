// Package check watches a world's events and proves or refutes the
// invariants of the lesson catalog: mutual exclusion, no oversell or lost
// update, no foreign unlock (and, as the catalog grows, deadlock,
// starvation and stale writes). Each violation is an event that names the
// events that caused it, explained in English and Chinese.
package check
