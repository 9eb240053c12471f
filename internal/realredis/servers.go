package realredis

import (
	"context"
	"errors"
	"fmt"

	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// ErrSharedDB refuses a server that already holds keys, without
// AllowSharedDB.
var ErrSharedDB = errors.New("realredis: the server's keyspace is not empty (use --allow-shared-db to share it; Lockstep touches only keys under " + PrefixRoot + ")")

// Servers places runs on real servers, one URL per node in order: a
// scenario's first node on the first server, and so on. Every run gets a
// fresh key prefix and a wall clock started when it is placed. It is
// lesson.Servers.
type Servers struct {
	targets []Target
}

var _ lesson.Servers = (*Servers)(nil)

// NewServers checks that every server answers and, unless allowSharedDB,
// that its keyspace is empty.
func NewServers(targets []Target, allowSharedDB bool) (*Servers, error) {
	if len(targets) == 0 {
		return nil, errors.New("realredis: no servers")
	}
	for _, t := range targets {
		b, err := Open(t, NewPrefix())
		if err != nil {
			return nil, err
		}
		ctx, cancel := b.ctx()
		n, err := b.admin.DBSize(ctx).Result()
		cancel()
		b.admin.Close()
		if err != nil {
			return nil, fmt.Errorf("realredis: %s: DBSIZE: %w", t.URL, err)
		}
		if n > 0 && !allowSharedDB {
			return nil, fmt.Errorf("%w: %s holds %d keys", ErrSharedDB, t.URL, n)
		}
	}
	return &Servers{targets: targets}, nil
}

// Targets are the servers, in node order.
func (s *Servers) Targets() []Target { return s.targets }

// Place opens one backend per node under a fresh prefix and starts the
// run's clock.
func (s *Servers) Place(sc *scenario.Scenario, nodes []string) ([]sim.Backend, lesson.Clock, error) {
	if len(nodes) > len(s.targets) {
		return nil, nil, fmt.Errorf("scenario %s has %d nodes, --redis gives %d servers (one URL per node)",
			sc.ID, len(nodes), len(s.targets))
	}
	prefix := NewPrefix()
	var out []sim.Backend
	for i := range nodes {
		b, err := Open(s.targets[i], prefix)
		if err != nil {
			for _, o := range out {
				o.Close()
			}
			return nil, nil, err
		}
		out = append(out, b)
	}
	return out, NewClock(), nil
}

// Leftover counts the keys under PrefixRoot on a server: what sessions that
// did not end cleanly left behind (0 after clean runs).
func Leftover(t Target) (int, error) {
	b, err := Open(t, "")
	if err != nil {
		return 0, err
	}
	defer b.admin.Close()
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	keys, err := b.admin.Keys(ctx, PrefixRoot+"*").Result()
	return len(keys), err
}
