// Package narrate tells what happened in a run from the checker's model of
// it and the facts its events carry: who acquired a lock, whose lease ran
// out under whom, whose command removed whose lock, what a release really
// removed, which request was lost, who is inside with whom, what a fault
// did, what the checker found. It keeps no model of its own: it reads
// check.View and check.Changes (the checker's account of who holds which
// key and who is inside), and the events' facts (package fact), never
// their words. It writes short sentences in English and Chinese, each with
// the seqs of the events it describes and its claim as data (Claim), which
// the tests check against the model and the log.
package narrate
