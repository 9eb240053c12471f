package realredis

import (
	"reflect"
	"testing"
)

// The replication stream is cut into chunks wherever TCP pleases: a
// command split across two chunks is read whole from the second.
func TestRespCommandsAcrossChunks(t *testing.T) {
	stream := "*1\r\n$4\r\nPING\r\n*3\r\n$3\r\nSET\r\n$4\r\nlock\r\n$2\r\nab\r\n"
	for cut := 0; cut <= len(stream); cut++ {
		first, rest := respCommands(nil, []byte(stream[:cut]))
		second, left := respCommands(rest, []byte(stream[cut:]))
		got := append(first, second...)
		want := [][]string{{"PING"}, {"SET", "lock", "ab"}}
		if !reflect.DeepEqual(got, want) || len(left) != 0 {
			t.Fatalf("cut at %d: got %q (left %q), want %q", cut, got, left, want)
		}
	}
	keepalives := "*1\r\n$4\r\nPING\r\n*3\r\n$8\r\nREPLCONF\r\n$6\r\nGETACK\r\n$1\r\n*\r\n*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1\r\nv\r\n"
	if got, _ := dataCommands(nil, []byte(keepalives)); !reflect.DeepEqual(got, [][]string{{"SET", "k", "v"}}) {
		t.Fatalf("keepalives should be left out, got %q", got)
	}
}
