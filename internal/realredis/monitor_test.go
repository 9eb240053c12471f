package realredis_test

import (
	"bufio"
	"github.com/lockstep/lockstep/internal/fact"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/realredis"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// monitor records a server's MONITOR stream: one line per command the
// server executed, with the client address it came from.
type monitor struct {
	conn  net.Conn
	mu    sync.Mutex
	lines []string
	done  chan struct{}
}

func startMonitor(t *testing.T, addr string) *monitor {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	m := &monitor{conn: c, done: make(chan struct{})}
	if _, err := c.Write([]byte("*1\r\n$7\r\nMONITOR\r\n")); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(c)
	if line, err := r.ReadString('\n'); err != nil || strings.TrimSpace(line) != "+OK" {
		t.Fatalf("MONITOR: %q %v", line, err)
	}
	go func() {
		defer close(m.done)
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			m.mu.Lock()
			m.lines = append(m.lines, strings.TrimRight(line, "\r\n"))
			m.mu.Unlock()
		}
	}()
	return m
}

func (m *monitor) stop() []string {
	time.Sleep(100 * time.Millisecond)
	m.conn.Close()
	<-m.done
	return m.lines
}

// parseMonitor splits a MONITOR line into its client address and its
// arguments: +1700000000.123456 [0 127.0.0.1:5000] "SET" "k" "v".
func parseMonitor(t *testing.T, line string) (string, []string) {
	t.Helper()
	lb, rb := strings.IndexByte(line, '['), strings.IndexByte(line, ']')
	if lb < 0 || rb < lb {
		t.Fatalf("bad MONITOR line %q", line)
	}
	from := strings.Fields(line[lb+1 : rb])
	var args []string
	rest := line[rb+1:]
	for {
		rest = strings.TrimLeft(rest, " ")
		if rest == "" {
			break
		}
		end := 1
		for end < len(rest) && !(rest[end] == '"' && rest[end-1] != '\\' || rest[end] == '"' && strings.HasSuffix(rest[:end], `\\`)) {
			end++
		}
		a, err := strconv.Unquote(rest[:end+1])
		if err != nil {
			t.Fatalf("bad argument %q in MONITOR line %q: %v", rest[:end+1], line, err)
		}
		args = append(args, a)
		rest = rest[end+1:]
	}
	return from[len(from)-1], args
}

// The commands the timeline shows are exactly the commands the server
// executed, in the same order: every exec event (with the connection
// handshake its note names) against the server's MONITOR stream, keys
// without the session prefix, the backend's own state reads and the
// AUTH of the client connections it opens before the run left out.
func TestTimelineIsWhatTheServerExecuted(t *testing.T) {
	srv, targets := startServers(t, 1)
	f, err := scenario.ParseBuiltin("scenarios.yaml", lockstep.Scenarios)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"watch-three-buyers", "lua-cad-slow-release"} {
		t.Run(id, func(t *testing.T) {
			sc, ok := f.Find(id)
			if !ok {
				t.Skipf("no scenario %s in the catalog", id)
			}
			mon := startMonitor(t, targets[0].Addr)
			r, err := lesson.New(sc, lesson.Config{Seed: sc.Seed, Servers: srv})
			if err != nil {
				t.Fatal(err)
			}
			b := r.World.Node(lesson.NodeNames(sc)[0]).Backend().(*realredis.Backend)
			prefix := b.Prefix()
			if err := r.RunToEnd(); err != nil {
				t.Fatal(err)
			}
			admin := map[string]bool{}
			for _, a := range b.AdminAddrs() {
				admin[a] = true
			}
			var want []string
			for _, e := range r.World.Log() {
				if e.Kind != sim.KindExec {
					continue
				}
				if e.Fact != nil && e.Fact.Key == fact.NewConnection {
					setup := strings.Join(e.Fact.Cmds, "; ")
					for _, c := range strings.Split(setup, "; ") {
						if !strings.HasPrefix(c, "AUTH") && !strings.HasPrefix(c, "SELECT") {
							want = append(want, c)
						}
					}
				}
				var cmds []string
				var cmd []string
				for _, a := range append(e.Cmd, "|") {
					if a == "|" {
						cmds = append(cmds, sim.FormatCmd(cmd))
						cmd = nil
						continue
					}
					cmd = append(cmd, a)
				}
				if aborted(e) {
					// WATCH saw a change: the server queued the commands
					// between MULTI and EXEC but never executed them
					cmds = []string{cmds[0], cmds[len(cmds)-1]}
				}
				want = append(want, cmds...)
			}
			r.Close()
			var got []string
			for _, line := range mon.stop() {
				from, args := parseMonitor(t, line)
				args[0] = strings.ToUpper(args[0])
				if admin[from] || from == "lua" || args[0] == "AUTH" || args[0] == "SELECT" {
					continue // the backend's state reads; a script's own calls; the handshakes of connections opened before the run
				}
				for i := range args {
					args[i] = strings.TrimPrefix(args[i], prefix)
				}
				got = append(got, sim.FormatCmd(args))
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("the server executed (MONITOR):\n%s\n\nthe timeline shows:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			if len(want) < 5 {
				t.Fatalf("only %d commands: %v", len(want), want)
			}
			t.Logf("%d commands, same order", len(want))
		})
	}
}

// aborted reports whether an exec event is a MULTI ... EXEC that the server
// refused to run (EXEC replied nil: a watched key had changed).
func aborted(e *sim.Event) bool {
	replies := strings.Split(e.Reply, "; ")
	return len(e.Cmd) > 0 && e.Cmd[0] == "MULTI" && e.Cmd[len(e.Cmd)-1] == "EXEC" &&
		replies[len(replies)-1] == "(nil)"
}
