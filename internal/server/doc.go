// Package server is Lockstep's browser app on the server side: the HTTP
// routes (the page, its static files, the scenario catalog), the WebSocket
// protocol of docs/protocol.md, and the viewing sessions it drives.
//
// Each session owns one lesson.Session (one simulated world) and runs every
// engine call on its own goroutine, so a world is only ever used from one
// goroutine. Each WebSocket connection has exactly one reading and one
// writing goroutine, a read limit, write deadlines, ping/pong and a bounded
// send queue; a client too slow to drain it is dropped, never waited for.
package server
