// Package narrate tells what happened in a run from its events alone: who
// acquired a lock, whose lease ran out under whom, whose command removed
// whose lock, which request was lost, who is inside with whom, what a fault
// did, what the checker found. It reads only sim.Events (the marks the lock
// code reports, the key states Redis holds after each command, expiries,
// faults and verdicts) and writes short sentences in English and Chinese,
// each with the seqs of the events it describes.
//
// A Model keeps the state of the run the events describe (who is inside,
// which client each key's value belongs to); lesson runs use it both to
// narrate runs that have left their lesson's script and to check the
// claims of scripted lines before saying them.
package narrate
