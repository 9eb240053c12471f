package server

import (
	"fmt"
	"testing"
	"time"
)

func TestZZFirstStepTime(t *testing.T) {
	_, url := newTestServer(t, Limits{})
	teacher, code, _ := startClass(t, url, "blind-del-slow-release")
	ann := join(t, url, code, "Ann")
	for pass := 0; pass < 2; pass++ {
		for i := 1; i <= 6; i++ {
			start := time.Now()
			teacher.ask(map[string]any{"op": "step"})
			a := time.Since(start)
			ann.follows(teacher)
			fmt.Printf("pass %d step %d teacher %v ann %v\n", pass, i, a, time.Since(start))
		}
		teacher.ask(map[string]any{"op": "seek", "step": 0})
		ann.follows(teacher)
	}
}
