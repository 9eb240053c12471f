package realredis

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// ErrSharedDB refuses a server that already holds keys, without
// AllowSharedDB.
var ErrSharedDB = errors.New("realredis: the server's keyspace is not empty (use --allow-shared-db to share it; Lockstep touches only keys under " + PrefixRoot + ")")

// ConcurrentRuns is how many lessons to run on real servers at once (the
// CLI's and the tests' catalog runs). They run in real time and mostly wait
// on the wall clock, but their margins are tens of milliseconds: more at
// once on a small machine (and under the race detector) makes the engine
// fall behind Redis' clock.
const ConcurrentRuns = 6

// Servers places runs on real servers, one URL per node in order: a
// scenario's first node on the first server, and so on. Every run gets a
// fresh key prefix and a wall clock that starts with its first move. It
// implements lesson.Servers (checked in its tests, so that this backend
// depends on the scenario format and the engine, not on the lessons).
type Servers struct {
	targets  []Target
	instance string // names this server process's keys (see NewServersFor); "" for none
	swept    int
}

// NewServers checks that every server answers and, unless allowSharedDB,
// that its keyspace is empty.
func NewServers(targets []Target, allowSharedDB bool) (*Servers, error) {
	return NewServersFor(targets, allowSharedDB, "")
}

// NewServersFor is NewServers for a long-lived process named instance (the
// app server: its host and port). Every run it places keeps its keys under
// lockstep:INSTANCE.<random>:, and it first removes what an earlier process
// of the same instance left behind when it ended without cleaning up (a
// crash, a kill): a restart leaves nothing of a crash. It deletes the keys
// the instance's registry names (see Registry), which the minimal ACL user
// of docs/real-redis.md may do, then, if the URL's user may run SCAN, any
// other key under the instance's prefix.
func NewServersFor(targets []Target, allowSharedDB bool, instance string) (*Servers, error) {
	if len(targets) == 0 {
		return nil, errors.New("realredis: no servers")
	}
	out := &Servers{targets: targets, instance: sanitize(instance)}
	for _, t := range targets {
		b, err := Open(t, NewPrefix())
		if err != nil {
			return nil, err
		}
		if out.instance != "" {
			under := PrefixRoot + out.instance + "."
			n, err := b.sweepRegistry(out.registry(), under)
			if err != nil {
				b.release()
				return nil, fmt.Errorf("realredis: %s: removing what an earlier run left: %w", t.URL, err)
			}
			if more, err := b.sweep(under); err == nil {
				n += more
			} // else: SCAN refused (the minimal ACL user); the registry had what a run wrote
			out.swept += n
		}
		ctx, cancel := b.ctx()
		n, err := b.admin.DBSize(ctx).Result()
		cancel()
		b.release()
		if err != nil {
			return nil, fmt.Errorf("realredis: %s: DBSIZE: %w", t.URL, err)
		}
		if n > 0 && !allowSharedDB {
			return nil, fmt.Errorf("%w: %s holds %d keys", ErrSharedDB, t.URL, n)
		}
	}
	return out, nil
}

// Swept is how many keys NewServersFor removed that an earlier process of
// the same instance left behind.
func (s *Servers) Swept() int { return s.swept }

// sanitize keeps an instance name to letters, digits, dots and dashes, so
// that it cannot reach outside its own prefix (no * or : in it).
func sanitize(name string) string {
	b := []byte(name)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.') {
			b[i] = '-'
		}
	}
	return string(b)
}

// Registry is the hash that names every key the runs of an instance may
// have left on a server (lockstep:INSTANCE.registry): each run's backend
// adds a key's full name before its first command and removes it when
// the run ends and deletes its keys. "" without an instance.
func (s *Servers) Registry() string { return s.registry() }

func (s *Servers) registry() string {
	if s.instance == "" {
		return ""
	}
	return PrefixRoot + s.instance + ".registry"
}

// newPrefix is a fresh prefix for one run: under the instance, if any.
func (s *Servers) newPrefix() string {
	if s.instance == "" {
		return NewPrefix()
	}
	return strings.Replace(NewPrefix(), PrefixRoot, PrefixRoot+s.instance+".", 1)
}

// Targets are the servers, in node order.
func (s *Servers) Targets() []Target { return s.targets }

// Place opens one backend per node under a fresh prefix and gives the
// run's clock (started by the run's first move). The scenario's plain
// nodes take the servers in order. A
// master and its replica (a node with replica_of) run on a Pair of
// redis-server processes started for this run, so that real replication
// and a real failover touch nothing but the run's own servers.
func (s *Servers) Place(sc *scenario.Scenario, nodes []string, _ int64) ([]sim.Backend, sim.Pacer, error) {
	replicaOf := map[string]string{} // replica -> master
	inPair := map[string]bool{}
	for _, n := range sc.Nodes {
		if n.ReplicaOf != "" {
			replicaOf[n.Name] = n.ReplicaOf
			inPair[n.Name], inPair[n.ReplicaOf] = true, true
		}
	}
	if plain := len(nodes) - len(inPair); plain > len(s.targets) {
		return nil, nil, fmt.Errorf("scenario %s has %d nodes, --redis gives %d servers (one URL per node)",
			sc.ID, plain, len(s.targets))
	}
	prefix := s.newPrefix()
	byName := map[string]*Backend{}
	var out []sim.Backend
	fail := func(err error) ([]sim.Backend, sim.Pacer, error) {
		for _, o := range out {
			o.Close()
		}
		for _, b := range byName {
			b.Close()
		}
		return nil, nil, err
	}
	for replica, master := range replicaOf {
		p, err := StartPair()
		if err != nil {
			return fail(fmt.Errorf("scenario %s: %w: %w", sc.ID, errNoPair, err))
		}
		for name, srv := range map[string]*Server{master: p.Master, replica: p.Replica} {
			b, err := Open(Target{URL: srv.URL(), Addr: srv.Addr}, prefix)
			if err != nil {
				p.Close()
				return fail(err)
			}
			b.pair = p
			byName[name] = b
		}
	}
	next := 0
	for _, n := range nodes {
		if b, ok := byName[n]; ok {
			out = append(out, b)
			delete(byName, n)
			continue
		}
		b, err := Open(s.targets[next], prefix)
		if err != nil {
			return fail(err)
		}
		b.registry = s.registry()
		next++
		out = append(out, b)
	}
	for _, b := range out {
		// one connection per client, made before the clock starts
		if err := b.(*Backend).Warm(len(sc.Clients)); err != nil {
			return fail(err)
		}
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
	defer b.release()
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	keys, err := b.admin.Keys(ctx, PrefixRoot+"*").Result()
	return len(keys), err
}
