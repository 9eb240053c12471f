package realredis

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockstep/lockstep/internal/sim"
)

// Pair is a master and its replica for one run: two redis-server processes
// this program starts on loopback, the replica under --replicaof, with a
// Relay on the link between them. Replication is Redis' own: the master
// streams its writes (as Redis propagates them) and the replica applies
// them. The engine decides only when the stream reaches the replica, and a
// failover kills the master process and promotes the replica with
// REPLICAOF NO ONE. It is the engine's sim.ReplicaLink for the pair.
type Pair struct {
	Master, Replica *Server
	relay           *Relay
	m, r            *redis.Client // plain admin clients: INFO, REPLICAOF
	rest            []byte        // the start of a command split across chunks
	promoted        atomic.Bool   // the replica is a master now (after Failover)
	once            sync.Once
}

var _ sim.ReplicaLink = (*Pair)(nil)

// StartPair starts a master, a relay and a replica of the master through
// the relay, and waits until the replica's link is up and the master
// counts it online. The full sync goes through a file on disk: after a
// diskless one, Redis 7 holds the master's stream back until the replica's
// first REPLCONF ACK, which a replica sends once a second, so the run's
// first writes would reach the replica up to a second late.
func StartPair() (*Pair, error) {
	master, err := StartServer("--repl-ping-replica-period", "3600", "--repl-diskless-sync", "no")
	if err != nil {
		return nil, err
	}
	relay, err := NewRelay(master.Addr)
	if err != nil {
		master.Kill()
		return nil, err
	}
	replica, err := StartServer("--replicaof", "127.0.0.1", strconv.Itoa(relay.Port()), "--repl-timeout", "600")
	if err != nil {
		relay.Close()
		master.Kill()
		return nil, err
	}
	p := &Pair{Master: master, Replica: replica, relay: relay, m: master.Client(), r: replica.Client()}
	if err := poll(10*time.Second, 10*time.Millisecond, p.linked); err != nil {
		p.Close()
		return nil, fmt.Errorf("realredis: the replica on %s never linked to its master (%w)", replica.Addr, err)
	}
	return p, nil
}

// poll calls cond every interval until it returns nil, and gives its last
// error once limit has passed.
func poll(limit, every time.Duration, cond func() error) error {
	deadline := time.Now().Add(limit)
	for {
		err := cond()
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(every)
	}
}

// linked tells (nil) whether the replica's link is up and the master
// counts the replica as online.
func (p *Pair) linked() error {
	info, err := p.info(p.r)
	if err != nil {
		return err
	}
	if s := info["master_link_status"]; s != "up" {
		return fmt.Errorf("the replica's link is %q", s)
	}
	if info, err = p.info(p.m); err != nil {
		return err
	}
	if s := info["slave0"]; !strings.Contains(s, "state=online") {
		return fmt.Errorf("the master sees its replica as %q", s)
	}
	return nil
}

// info reads INFO replication as a map.
func (p *Pair) info(c *redis.Client) (map[string]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	info, err := c.InfoMap(ctx, "replication").Result()
	return info["Replication"], err
}

func (p *Pair) offset(c *redis.Client, field string) (int64, error) {
	info, err := p.info(c)
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(info[field], 10, 64)
}

// Offset is the master's replication offset: how many bytes of writes it
// has streamed.
func (p *Pair) Offset() (int64, error) { return p.offset(p.m, "master_repl_offset") }

// Sync waits until the replica has applied everything the master has
// streamed (the initial data), then holds the stream back from here on.
func (p *Pair) Sync() error {
	mo, err := p.Offset()
	if err != nil {
		return err
	}
	if err := p.await(mo, 5*time.Second); err != nil {
		return err
	}
	p.relay.Hold()
	return nil
}

// replicaOffset is how much of the master's stream the replica has applied.
func (p *Pair) replicaOffset() (int64, error) { return p.offset(p.r, "slave_repl_offset") }

// Deliver lets the held stream through, chunk by chunk, until the replica
// has applied the master's offset target, and returns the commands the
// replica received (keepalives left out).
func (p *Pair) Deliver(target int64) ([][]string, error) {
	var cmds [][]string
	ro, err := p.replicaOffset()
	if err != nil {
		return nil, err
	}
	for ro < target {
		chunk, err := p.relay.Next()
		if err != nil {
			return cmds, err
		}
		if chunk == nil { // the master has not streamed it yet
			select {
			case <-p.relay.Arrived():
				continue
			case <-time.After(Timeout):
				return cmds, fmt.Errorf("realredis: the master streamed nothing up to offset %d", target)
			}
		}
		var got [][]string
		got, p.rest = dataCommands(p.rest, chunk)
		cmds = append(cmds, got...)
		ro += int64(len(chunk)) // the replica has exactly what the relay gave it
		if err := p.await(ro, Timeout); err != nil {
			return cmds, err
		}
	}
	return cmds, nil
}

// await waits until the replica's offset reaches off, for at most limit.
func (p *Pair) await(off int64, limit time.Duration) error {
	err := poll(limit, time.Millisecond, func() error {
		ro, err := p.replicaOffset()
		if err == nil && ro < off {
			err = fmt.Errorf("at %d", ro)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("realredis: the replica did not apply offset %d (%w)", off, err)
	}
	return nil
}

// dataCommands splits a piece of the replication stream into its
// commands (respCommands) and leaves out the stream's keepalives.
func dataCommands(rest, chunk []byte) ([][]string, []byte) {
	cmds, rest := respCommands(rest, chunk)
	var out [][]string
	for _, c := range cmds {
		if len(c) > 0 && (strings.EqualFold(c[0], "PING") || strings.EqualFold(c[0], "REPLCONF")) {
			continue
		}
		out = append(out, c)
	}
	return out, rest
}

// Failover kills the master process at once (SIGKILL), drops what the
// relay still held for the replica, and promotes the replica. It returns
// the commands that were lost with the master.
func (p *Pair) Failover() ([][]string, error) {
	dropped := p.relay.Cut()
	p.Master.Kill()
	var lost [][]string
	rest := p.rest
	for _, chunk := range dropped {
		var got [][]string
		got, rest = dataCommands(rest, chunk)
		lost = append(lost, got...)
	}
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	if err := p.r.Do(ctx, "REPLICAOF", "NO", "ONE").Err(); err != nil {
		return lost, fmt.Errorf("realredis: promote the replica: %w", err)
	}
	p.promoted.Store(true)
	return lost, nil
}

// Close stops both processes and the relay.
func (p *Pair) Close() {
	p.once.Do(func() {
		p.relay.Close()
		p.m.Close()
		p.r.Close()
		p.Master.Kill()
		p.Replica.Kill()
	})
}

// ReplicaLink is the link from this master's server to replica's, when
// both are a Pair this program started.
func (b *Backend) ReplicaLink(replica sim.Backend) (sim.ReplicaLink, bool) {
	r, ok := replica.(*Backend)
	if !ok || b.pair == nil || r.pair != b.pair || b.target.Addr != b.pair.Master.Addr {
		return nil, false
	}
	return b.pair, true
}

// errNoPair explains why a scenario with a replica cannot run here.
var errNoPair = errors.New("a node with replica_of runs on a master and a replica that Lockstep starts itself (redis-server must be installed here)")

// Pair is the run's own master and replica this node runs on, or nil.
func (b *Backend) Pair() *Pair { return b.pair }
