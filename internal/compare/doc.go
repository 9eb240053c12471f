// Package compare runs two lock scenarios against the same faults and lines
// their event logs up row by row: the same clients, the same seed, the same
// faults placed where they mean the same, two algorithms (or two lessons).
// It finds the first row where the two runs part, reports each side's
// verdicts as the checker (internal/check) gives them, and says in words
// (in English and Chinese) what the right could not face as the left did.
//
// # Faults placed by meaning
//
// Two algorithms rarely send the same commands: Lua compare-and-delete
// releases in one EVAL where GET-then-DEL takes two round trips, a fencing
// lock INCRs a counter, Redlock asks five nodes. So a fault is not replayed
// at the same step or after the same command. The left run is the scenario
// as it is (with its recorded schedule, if it has one, as the session
// replays it); each fault it takes is placed on the right at the point
// that means the same for the right's own lock (every algorithm reports
// the same marks: acquired, enter, leave, released):
//
//  1. A fault at an instant (at:) is taken at the same virtual moment.
//  2. A trigger on a mark, an expiry, a start, an end or another fault
//     (on: {kind: mark, name: enter, client: W1}) is kept: the right's own
//     event fires it, so a pause as W1 enters its critical section stops
//     W1 as it enters there too, whatever W1 did to get in.
//  3. A trigger on the wire (a command, an exec, a reply) is taken at the
//     same point of the client's progress (Place): its K-th event of that
//     kind after its N-th report of the same mark, before its next mark.
//     A lost reply on the GET of a GET-then-DEL release (the 1st command
//     executed after A leaves its critical section) loses the reply to the
//     Lua release script on the right.
//  4. A fault recorded at a step (a user's action): a client's, at that
//     client's point of progress at the time; a node's or the network's,
//     at its instant.
//
// A point the right never reaches (W1 never enters, the lock has no such
// mark, the release has one command where the left's had two) is said in
// a note: the right did not face that fault, so its verdict does not
// answer the left's question (Result.Fair is false and the views say so
// beside the verdict). A fault the right's engine refuses is noted too.
//
// # Order
//
// The right moves in the engine's own order (virtual time), as its lock
// makes it: a lock that retries or waits for a reply takes the time it
// takes. Where several clients are due at one instant (a race), they go in
// the order the left granted the lock (the client that acquired first on
// the left first), so the same client wins the same race where the timing
// allows. The left's moves made by hand are not carried over to other code
// (a note says how many). When both sides run the same code (the same
// clients, parameters, nodes and data: a scenario compared with itself),
// every step means the same on both sides and the right replays the left's
// recording as it is: the two logs are the same, row for row.
//
// # Rows
//
// A row is one event of a log, narration left out (it tells a story, it
// does not happen). Rows are compared by their canonical text (sim.Event's
// String) without the sequence numbers, which differ as soon as one side
// has more events. The first row whose text differs, or the first row one
// side lacks, is the divergence. A note or a verdict that cites other
// events ("B entered at #23") carries its citations as data (fact.Seq,
// Text.Cites): the row texts and the views name those events by their rows
// (Cite), never by reading the sentence. A viewer stepping through the left
// reaches a right row once the left has reached its virtual time (with the
// same code, the same step).
package compare
