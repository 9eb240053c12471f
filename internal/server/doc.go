// Package server is Lockstep's browser app on the server side: the HTTP
// routes (the page, its static files, the scenario catalog), the WebSocket
// protocol of docs/protocol.md, and the viewing sessions it drives.
//
// Each session owns one lesson.Session (one simulated world) and runs every
// engine call on its own goroutine, so a world is only ever used from one
// goroutine. Each WebSocket connection has exactly one reading and one
// writing goroutine, a read limit, write deadlines, ping/pong and a bounded
// send queue; a client too slow to drain it is dropped, never waited for.
//
// The files, by what they hold:
//
//   - server.go: the Server and its options; routes.go: the HTTP routes;
//     http.go: the security headers and the Host check.
//   - socket.go: a WebSocket's reading goroutine and the origin check;
//     conn.go: its writing goroutine and send queue.
//   - sessions.go: the table of sessions: opening, idle eviction, shutdown.
//   - session.go: one session's goroutine, which owns its world;
//     requests.go: the ops of docs/protocol.md, applied on it;
//     load.go: loading a scenario; cursor.go: steps, seeks and play, in
//     the engine's slices; push.go: what the browser is sent after each.
//   - budget.go and limits.go: the memory and CPU budgets and the caps;
//     validate.go and parse.go: requests and YAML checked at the edge.
//   - explore.go: the schedule search started from the page.
//   - class.go, classjoin.go, classfollow.go, question.go: a session's part
//     in a class, the socket edge of internal/class (which holds the rooms,
//     questions and tallies): the class requests read and applied, the
//     teacher's run published and replayed, the class messages sent.
package server
