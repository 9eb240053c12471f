package server

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// BenchmarkRequests is one browser taking the load test's mix of requests
// (internal/loadtest) through the built-in lessons over a real socket: a
// step most of the time, with seeks, steps back and faults mixed in, and
// the next lesson when one ends. b.N counts requests; the browser reads
// each answer's bytes without decoding them, so that a CPU profile shows
// the server's work per request. Beside it, 100 other sessions hold their
// worlds (each a lesson 60 steps in), so that the collector has what a
// busy server holds to mark:
//
//	go test ./internal/server -run '^$' -bench Requests -benchmem -cpuprofile cpu.out
func BenchmarkRequests(b *testing.B) {
	srv, url := newTestServer(b, Limits{})
	dial := func() *websocket.Conn {
		ws, _, err := websocket.DefaultDialer.Dial("ws"+url[len("http"):]+"/ws", nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { ws.Close() })
		return ws
	}
	for i := range 100 {
		ws := dial()
		for _, req := range []string{`{"id":1,"op":"hello"}`, fmt.Sprintf(`{"id":2,"op":"load","scenario":%q,"step":60}`, srv.catalog[i%len(srv.catalog)].ID)} {
			if err := ws.WriteMessage(websocket.TextMessage, []byte(req)); err != nil {
				b.Fatal(err)
			}
			if _, _, err := ws.ReadMessage(); err != nil {
				b.Fatal(err)
			}
		}
	}
	ws := dial()
	id := 0
	var sent int64                   // bytes of the answers
	ask := func(req string) []byte { // the answer to req: the message with its id as re, or a welcome
		id++
		if err := ws.WriteMessage(websocket.TextMessage, []byte(fmt.Sprintf(`{"id":%d,%s}`, id, req))); err != nil {
			b.Fatal(err)
		}
		re := []byte(fmt.Sprintf(`"re":%d,`, id))
		_ = ws.SetReadDeadline(time.Now().Add(10 * time.Second))
		for {
			_, raw, err := ws.ReadMessage()
			if err != nil {
				b.Fatal(err)
			}
			if head := raw[:min(len(raw), 40)]; bytes.Contains(head, re) || bytes.Contains(head, []byte(`"welcome"`)) {
				sent += int64(len(raw))
				return raw
			}
		}
	}
	ask(`"op":"hello"`)
	cat := srv.catalog
	rng := rand.New(rand.NewPCG(1, 7))
	lesson := 0
	load := func() []byte {
		lesson = (lesson + 1) % len(cat)
		return ask(fmt.Sprintf(`"op":"load","scenario":%q`, cat[lesson].ID))
	}
	step := 0
	last := load()
	b.ReportAllocs()
	b.ResetTimer()
	sent = 0
	for i := 0; i < b.N; i++ {
		switch r := rng.IntN(100); {
		case bytes.Contains(last, []byte(`"ended":true`)):
			last, step = load(), 0
			continue
		case r < 6:
			step = rng.IntN(step + 20)
			last = ask(fmt.Sprintf(`"op":"seek","step":%d`, step))
		case r < 10:
			step = max(step-1, 0)
			last = ask(`"op":"back"`)
		case r < 13:
			c := cat[lesson].Clients[rng.IntN(len(cat[lesson].Clients))]
			last = ask(fmt.Sprintf(`"op":"inject","fault":{"do":"pause","client":%q,"for":"300ms"}`, c))
		default:
			step++
			last = ask(`"op":"step"`)
		}
	}
	b.ReportMetric(float64(sent)/float64(b.N), "answer-bytes/op")
}
