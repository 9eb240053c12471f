package scenario

import (
	"strings"
	"testing"
)

// Each warning is at the line and column of what it is about, in both
// languages; a file with problems gives no warnings (it does not run).
func TestWarnings(t *testing.T) {
	text := `scenarios:
  - id: w
    title: {en: "w"}
    storage: {fencing: true}
    clients:
      - {name: A, algorithm: reentrant-hash, params: {ttl: 2500ms}, task: write, work: 100ms}
      - {name: B, algorithm: reentrant-hash, params: {ttl: 2500ms, script: "002"}, task: none, work: 100ms}
      - {name: C, algorithm: fencing-token, task: write, work: 100ms}
`
	ws := Warnings("w.yaml", []byte(text))
	if len(ws) != 2 {
		t.Fatalf("%d warnings, want 2 (A's rounded ttl, A's token-less write): %v", len(ws), ws)
	}
	if w := ws[0]; w.Line != 6 || w.Col != 60 || w.Msg != "ttl 2.5s runs as 3s: reentrant-hash sets its TTL with EXPIRE, in whole seconds" || !strings.Contains(w.Zh, "整秒") {
		t.Errorf("first warning %+v", *w)
	}
	if w := ws[1]; w.Line != 6 || w.Col != 75 || !strings.Contains(w.Msg, "every write of client A will be refused") || !strings.Contains(w.Zh, "客户端 A 的每次写入都会被拒绝") {
		t.Errorf("second warning %+v", *w)
	}
	if ws := Warnings("bad.yaml", []byte(strings.Replace(text, "reentrant-hash", "reentrant-hashh", 1))); ws != nil {
		t.Errorf("a file with a problem warns %v", ws)
	}
}
