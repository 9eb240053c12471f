// Package compare runs two lock scenarios under one schedule and lines
// their event logs up row by row: the same clients, the same order of
// client moves, the same faults, two algorithms (or two lessons). It finds
// the first row where the two runs part and reports each side's verdicts,
// as the checker (internal/check) gives them.
//
// # What "the same schedule" means
//
// The engine steps clients one move at a time: a move is one item of a
// client's (its code runs, its request reaches its node, its reply comes
// back). Two algorithms rarely make the same number of moves: Lua
// compare-and-delete releases in one EVAL where GET-then-DEL takes two
// round trips. So the schedule is not a list of commands. It is:
//
//  1. The order of client moves of the left run (the first scenario, run
//     as it is, with its recorded schedule if it has one): entry i names a
//     client (and its thread), and on the right that client makes its next
//     move (that thread's, else the client's earliest). The k-th entry
//     naming A is A's k-th move on both sides, whatever that move is on
//     each side. A request reaching its node is a move of the client that
//     sent it: a request in flight on the right lands at its client's next
//     entry, so the order, not the clock, says when (a network that holds
//     it that long); time never runs back, a move due earlier runs late.
//     The world's own steps of the left (an expiry, a timed fault) are
//     entries too, so that at one instant the right takes them in the
//     left's order.
//  2. Before each move, each side does its own world steps (key expiries,
//     replication, resumes, timed faults) that are due no later than that
//     move, in virtual time, as the engine would.
//  3. A fault the left run took at a virtual moment (an at: fault) is taken
//     on the right at the same virtual moment. A fault the left took during
//     a move (an on: trigger) is taken on the right during the same entry,
//     after as many of the move's events (narration and verdicts not
//     counted) as on the left, or when the move ends if it has fewer: a
//     pause on A's "leave" mark stops A before its release on both sides.
//     A fault recorded at a step (a user's action) is taken right after the
//     same entry. The right scenario's own faults, recorded schedule and
//     narration are dropped: the left's are the schedule.
//  4. An entry whose client has no move to make on the right (its program
//     is over, it crashed, it is paused) is void there: the right has run
//     out of moves for that client, for now or for good. A fault anchored
//     to a void entry is still taken there.
//  5. When the entries are used up, the right runs on by the engine's own
//     choices until it ends (its horizon, or nothing left to do). A right
//     side that needs more moves than the left made (a lock that retries)
//     makes them there.
//
// Both sides use the left's seed, so clients draw the same tokens. Compare
// a scenario with itself and the two logs are the same, row for row.
//
// # Rows
//
// A row is one event of a log, narration left out (it tells a story, it
// does not happen). Rows are compared by their canonical text (sim.Event's
// String) without the sequence numbers, which differ as soon as one side
// has more events. The first row whose text differs, or the first row one
// side lacks, is the divergence.
package compare
