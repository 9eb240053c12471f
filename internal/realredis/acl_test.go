package realredis_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/lockstep/lockstep/internal/realredis"
	"github.com/lockstep/lockstep/internal/realredis/redistest"
)

// addACLUser creates, through an administrator's connection, the minimal
// ACL user of docs/real-redis.md: lockstep, with the password secret.
func addACLUser(t *testing.T, admin *redis.Client) {
	t.Helper()
	args := []any{"ACL", "SETUSER", "lockstep", "on", ">secret"}
	for _, r := range strings.Fields(realredis.ACLRules) {
		args = append(args, r)
	}
	if err := admin.Do(context.Background(), args...).Err(); err != nil {
		t.Fatalf("ACL SETUSER: %v", err)
	}
}

// notifyExpiries is the administrator's part of docs/real-redis.md that
// the lockstep user may not do (no CONFIG): turn on the keyspace
// notifications of expired keys.
func notifyExpiries(t *testing.T, admin *redis.Client) {
	t.Helper()
	if err := admin.ConfigSet(context.Background(), "notify-keyspace-events", realredis.NotifyFlags).Err(); err != nil {
		t.Fatalf("CONFIG SET notify-keyspace-events: %v", err)
	}
}

// The ACL user of docs/real-redis.md reaches its own keys and nothing
// else: no other key, no key listing, no flush, no config. (The catalog
// test runs every lesson as this user: the rules are enough.)
func TestACLUserSeesOnlyItsPrefix(t *testing.T) {
	s := redistest.Start(t)
	ctx := context.Background()
	admin := s.Client()
	defer admin.Close()
	addACLUser(t, admin)
	if err := admin.Set(ctx, "other", "secret data", 0).Err(); err != nil {
		t.Fatal(err)
	}
	targets, err := realredis.ParseURLs("redis://lockstep:secret@"+s.Addr, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := realredis.NewServers(targets, false); err == nil {
		t.Fatal("a server holding a key was accepted without --allow-shared-db")
	}
	// the lockstep user may not turn on the expiry reports the engine
	// needs: it is refused, with what the administrator must do
	if _, err := realredis.Open(targets[0], realredis.NewPrefix()); !errors.Is(err, realredis.ErrNoNotifications) {
		t.Fatalf("Open without keyspace notifications: %v, want %v", err, realredis.ErrNoNotifications)
	}
	notifyExpiries(t, admin)
	b, err := realredis.Open(targets[0], realredis.NewPrefix())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := b.Set("mine", "1"); err != nil {
		t.Fatalf("SET under the prefix: %v", err)
	}
	user := s.Client()
	user.Options().Username, user.Options().Password = "lockstep", "secret"
	defer user.Close()
	for _, cmd := range [][]any{{"GET", "other"}, {"SET", "other", "x"}, {"KEYS", "*"}, {"SCAN", "0"},
		{"FLUSHALL"}, {"CONFIG", "GET", "*"}, {"EVAL", "return redis.call('get','other')", "0"}} {
		err := user.Do(ctx, cmd...).Err()
		if err == nil || !strings.Contains(err.Error(), "NOPERM") && !strings.Contains(err.Error(), "permission") && !strings.Contains(err.Error(), "can't access") {
			t.Errorf("%v as the lockstep user: %v, want a permission error", cmd, err)
		}
	}
	if v, _ := admin.Get(ctx, "other").Result(); v != "secret data" {
		t.Fatalf("other key = %q, want it untouched", v)
	}
}

// docs/real-redis.md gives the exact ACL rules the tests use.
func TestDocsGiveTheACLRules(t *testing.T) {
	doc, err := os.ReadFile("../../docs/real-redis.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), realredis.ACLRules) {
		t.Fatalf("docs/real-redis.md does not contain the ACL rules:\n%s", realredis.ACLRules)
	}
}
