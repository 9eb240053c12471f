// Package check watches a world's events and proves or refutes the
// invariants a lock must keep: mutual exclusion, no foreign unlock, no
// deadlock, no starvation, no stale write, and no oversell or lost update
// of the stock it guards. It keeps a model of the run (model.go): who
// holds which lock key on which node, from what each client's command did
// to the key; what each client thread believes it holds, from its marks;
// which clients are alive, in which incarnation. Every rule is stated on
// that model, as docs/verdicts.md defines it, and each violation is a
// verdict event that names the events proving it, in English and Chinese.
//
// Package reference checks the same definitions a second, independent
// way, over finished logs; the test suite requires both to agree.
package check
