package realredis_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/realredis"
	"github.com/lockstep/lockstep/internal/realredis/redistest"
)

// Servers is what the lessons place runs on.
var _ lesson.Servers = (*realredis.Servers)(nil)

// Checking the servers and counting what is left open nothing on them:
// each backend they open to look (its admin connection and its expiry
// subscriber) is closed again.
func TestCheckingTheServersLeavesNoConnection(t *testing.T) {
	s := redistest.Start(t)
	ctx := context.Background()
	admin := s.Client()
	defer admin.Close()
	targets, err := realredis.ParseURLs("redis://"+s.Addr, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := realredis.NewServersFor(targets, false, "host-8080"); err != nil {
		t.Fatal(err)
	}
	if _, err := realredis.Leftover(targets[0]); err != nil {
		t.Fatal(err)
	}
	var list string
	for range 100 { // the server hears of a close a moment later
		if list, err = admin.ClientList(ctx).Result(); err != nil {
			t.Fatal(err)
		}
		if strings.Count(list, "\n") == 1 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("connections left open besides the test's own:\n%s", list)
}
