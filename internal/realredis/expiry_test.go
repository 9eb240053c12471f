package realredis_test

import (
	"bufio"
	"context"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/realredis"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// expiredFeed records what a server publishes on __keyevent@0__:expired:
// every key Redis dropped because its TTL ran out, whoever's it was. It
// is the test's own subscription, apart from the backend's.
type expiredFeed struct {
	conn net.Conn
	mu   sync.Mutex
	keys []string
	pong chan struct{}
	done chan struct{}
}

func subscribeExpired(t *testing.T, addr string) *expiredFeed {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	f := &expiredFeed{conn: c, pong: make(chan struct{}, 1), done: make(chan struct{})}
	if _, err := c.Write([]byte("*2\r\n$9\r\nSUBSCRIBE\r\n$22\r\n__keyevent@0__:expired\r\n")); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(c)
	go func() {
		defer close(f.done)
		for {
			msg, err := readArray(r)
			if err != nil {
				return
			}
			switch {
			case len(msg) == 3 && msg[0] == "message":
				f.mu.Lock()
				f.keys = append(f.keys, msg[2])
				f.mu.Unlock()
			case len(msg) == 2 && msg[0] == "pong":
				f.pong <- struct{}{}
			}
		}
	}()
	return f
}

// upTo gives the keys reported so far under prefix, without it: a PING
// comes back after everything the server published before it.
func (f *expiredFeed) upTo(t *testing.T, prefix string) []string {
	t.Helper()
	if _, err := f.conn.Write([]byte("*1\r\n$4\r\nPING\r\n")); err != nil {
		t.Fatal(err)
	}
	select {
	case <-f.pong:
	case <-time.After(5 * time.Second):
		t.Fatal("no pong from the subscriber connection")
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, k := range f.keys {
		if rest, ok := strings.CutPrefix(k, prefix); ok && rest != "~expiry-probe" { // the backend's own check
			out = append(out, rest)
		}
	}
	return out
}

// readArray reads one RESP array of bulk strings and integers.
func readArray(r *bufio.Reader) ([]string, error) {
	line, err := r.ReadString('\n')
	if err != nil {
		return nil, err
	}
	n := 0
	for _, c := range strings.TrimSpace(line[1:]) {
		n = n*10 + int(c-'0')
	}
	out := make([]string, 0, n)
	for range n {
		h, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		if h[0] == ':' {
			out = append(out, strings.TrimSpace(h[1:]))
			continue
		}
		v, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		out = append(out, strings.TrimRight(v, "\r\n"))
	}
	return out, nil
}

// ttlHeavy is a run of short leases and long work: six clients take 150ms
// leases (one a 1s EX lease) on one lock and work 250ms, retrying every
// 40ms, so that commands keep landing within milliseconds of an expiry.
const ttlHeavy = `
scenarios:
  - id: ttl-heavy
    title: {en: "Short leases, long work", zh: "短租约，长业务"}
    lesson: {en: "Six clients take 150ms leases and work 250ms.", zh: "六个客户端拿 150ms 的租约，干 250ms 的活。"}
    seed: 3
    expect: [mutual-exclusion, lost-update]
    horizon: 4s
    data: {stock: "10"}
    clients:
      - {name: A, algorithm: lua-compare-delete, params: {ttl: 150ms, retry: 40ms}, work: 250ms}
      - {name: B, algorithm: lua-compare-delete, params: {ttl: 150ms, retry: 40ms}, work: 250ms, start: 20ms}
      - {name: C, algorithm: set-nx-ex-blind-del, params: {ttl: 1s, retry: 40ms}, work: 1100ms, start: 40ms}
      - {name: D, algorithm: lua-compare-delete, params: {ttl: 150ms, retry: 40ms}, work: 250ms, start: 60ms}
      - {name: E, algorithm: lua-compare-delete, params: {ttl: 149ms, retry: 37ms}, work: 250ms, start: 80ms}
      - {name: F, algorithm: lua-compare-delete, params: {ttl: 151ms, retry: 43ms}, work: 250ms, start: 100ms}
`

// The expire events of a run on real Redis are exactly the expiries Redis
// itself reported: for runs with many expiries (three copies of ttlHeavy
// at once, Redlock's five masters, the long-work lessons), every key Redis
// dropped by its TTL during the run has its expire event on its node, and
// no expire event names a key Redis did not drop. Each expire event comes
// at or after the key's expiry time as the last state of it showed.
func TestExpireEventsAreTheServersOwn(t *testing.T) {
	srv, targets := startServers(t, maxNodes)
	feeds := make([]*expiredFeed, len(targets))
	for i, tg := range targets {
		// the test's own feed is of keyevent channels (E), apart from the
		// backend's keyspace ones (K)
		admin := redis.NewClient(&redis.Options{Addr: tg.Addr, Protocol: 2, DisableIdentity: true})
		if err := admin.ConfigSet(context.Background(), "notify-keyspace-events", "KEx").Err(); err != nil {
			t.Fatal(err)
		}
		admin.Close()
		feeds[i] = subscribeExpired(t, tg.Addr)
	}
	f, err := scenario.ParseBuiltin("scenarios.yaml", lockstep.Scenarios)
	if err != nil {
		t.Fatal(err)
	}
	heavy, err := scenario.Parse("ttl-heavy.yaml", []byte(ttlHeavy))
	if err != nil {
		t.Fatal(err)
	}
	var scs []*scenario.Scenario
	for _, id := range []string{"redlock-pause-after-acquire", "blind-del-long-work", "lua-cad-long-work"} {
		sc, ok := f.Find(id)
		if !ok {
			t.Fatalf("no scenario %s in the catalog", id)
		}
		scs = append(scs, sc)
	}
	for range 3 {
		scs = append(scs, &heavy.Scenarios[0])
	}
	var wg sync.WaitGroup
	for _, sc := range scs {
		id := sc.ID
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := lesson.New(sc, lesson.Config{Seed: sc.Seed, Servers: srv})
			if err != nil {
				t.Error(err)
				return
			}
			defer r.Close()
			if err := r.RunToEnd(); err != nil {
				t.Error(err)
				return
			}
			total := 0
			for i, node := range lesson.NodeNames(sc) {
				b, ok := r.World.Node(node).Backend().(*realredis.Backend)
				if !ok || b.Pair() != nil {
					continue
				}
				var logged []string
				due := map[string]int64{} // each key's expiry (ms) as last shown
				live := map[string]bool{} // the key is there with a TTL after the last event
				for _, e := range r.World.Log() {
					if e.Node != node {
						continue
					}
					if e.Kind == sim.KindExpire {
						k := e.Keys[0].Key
						logged = append(logged, k)
						live[k] = false
						if at := time.Duration(due[k]) * time.Millisecond; due[k] == 0 || e.T < at {
							t.Errorf("%s: %s expires at %s, its expiry time was %s", id, k, sim.FormatTime(e.T), sim.FormatTime(at))
						}
						continue
					}
					for _, ks := range e.Keys {
						due[ks.Key] = ks.Expire
						live[ks.Key] = ks.Exists() && ks.Expire > 0
					}
				}
				reported := feeds[i].upTo(t, b.Prefix())
				// a key the run ended with (its horizon came first) may
				// expire before the feed is read: Redis reports it, after
				// the log
				for k, ok := range live {
					if j := slices.Index(reported, k); ok && j >= 0 && count(reported, k) > count(logged, k) {
						reported = slices.Delete(reported, j, j+1)
					}
				}
				slices.Sort(logged)
				slices.Sort(reported)
				if !slices.Equal(logged, reported) {
					var lines []string
					for _, e := range r.World.Log() {
						lines = append(lines, e.String())
					}
					t.Errorf("%s on %s: the log's expire events name %v, Redis reported %v expired; the run:\n%s", id, node, logged, reported, strings.Join(lines, "\n"))
				}
				total += len(logged)
			}
			if total == 0 {
				t.Errorf("%s: no expire event at all", id)
			}
			t.Logf("%s: %d expire events, each one Redis reported; verdicts %v", id, total, r.Verdicts())
		}()
	}
	wg.Wait()
}

// count counts the times s holds v.
func count(s []string, v string) int {
	n := 0
	for _, x := range s {
		if x == v {
			n++
		}
	}
	return n
}
