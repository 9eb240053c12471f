// Package class is the classroom: a room that a teacher's run drives and
// students' runs follow, its join code and teacher key, its members and
// their nicknames, the questions a teacher asks and their tallies, and the
// teacher's view choices as the students see them (docs/protocol.md,
// Classes).
//
// The package holds the rules and the state as plain Go values; it speaks
// no protocol. internal/server reads requests off the socket, calls the
// methods here and writes what they return to the browsers. A room holds
// no world of its own: it holds the teacher's position (scenario, seed,
// recorded actions, cursor, and what the server carries with it: the run
// as the page gets it), which every following student is sent: one run
// per class. Runs are deterministic, so a student can leave the class to
// roam in a private copy made from the position, and come back. The room
// keeps the nicknames, the answers and the tallies while it lives and
// nothing after.
//
// A question's choices and truth are computed from the teacher's run
// (Compute): the truth is what a copy of the run does next, stepped as the
// teacher's Step takes it.
package class
