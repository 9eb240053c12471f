package etcd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/lockstep/lockstep/internal/fact"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Binary is the etcd server program a lesson that stops its server runs:
// Debian's package etcd-server installs it.
const Binary = "etcd"

// installCommand installs the etcd server program on Debian.
const installCommand = "apt-get install etcd-server"

// InstallCommand is the command that installs the etcd server program
// on Debian.
func InstallCommand() string { return installCommand }

// ErrNoBinary is returned when the etcd server program is not installed;
// its words say what to install.
var ErrNoBinary = errors.New("etcd: this lesson stops an etcd server process (SIGSTOP, or a kill and a restart), which needs the etcd server program: " + installCommand)

// Install is ErrNoBinary's advice in both languages, for the page and the
// commands.
var Install = fact.Say("etcd.install", installCommand)

// NeedsBinary is the few words a list of lessons puts beside such a
// lesson on a machine without the program.
var NeedsBinary = fact.Say("etcd.needs-binary")

// ErrCannotPause is returned when a lesson that stops its server is asked
// to run on an external server, which cannot be stopped from here.
var ErrCannotPause = errors.New("etcd: this lesson stops the etcd server's process (SIGSTOP, or a kill and a restart) and runs it again, which only a server Lockstep starts allows; an external --etcd server cannot be paused from here")

// CannotPause is ErrCannotPause's words in both languages.
var CannotPause = fact.Say("etcd.cannot-pause")

// NeedsStarted is the few words a list of lessons puts beside such a
// lesson when the etcd lessons run on an external server.
var NeedsStarted = fact.Say("etcd.needs-started")

// Available reports whether an etcd server process can be started here,
// and if not, why (ErrNoBinary).
func Available() error {
	if _, err := exec.LookPath(Binary); err != nil {
		return ErrNoBinary
	}
	return nil
}

// process is an etcd server program this process started: its command
// line, kept so that Restart can start it again on the same data
// directory and addresses, and the running incarnation.
type process struct {
	args []string
	url  string // its client URL, whose /health says it is ready

	mu   sync.Mutex
	cmd  *exec.Cmd
	out  *bytes.Buffer
	done chan struct{}
	once *sync.Once
}

// StartProcess starts the etcd server program (Debian's etcd-server) as a
// process of its own: one member on loopback, its data in a temporary
// directory, the same 10 ms heartbeat and 100 ms election timeout as the
// embedded server (so a 1 s lease is granted as asked).
// Unlike the embedded server it can be stopped (Stop, SIGSTOP) and
// resumed; Close kills it and removes its data.
func StartProcess() (*Server, error) {
	if err := Available(); err != nil {
		return nil, err
	}
	var last error
	for range 3 { // a port found free may be taken before etcd listens on it
		s, err := startProcess()
		if err == nil {
			return s, nil
		}
		last = err
	}
	return nil, last
}

func startProcess() (*Server, error) {
	dir, err := os.MkdirTemp("", "lockstep-etcd-server-")
	if err != nil {
		return nil, fmt.Errorf("etcd: %w", err)
	}
	peer, client, err := freeURLs()
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	p := &process{url: client.String(), args: []string{"--data-dir", dir, "--name", "lockstep",
		"--listen-client-urls", client.String(), "--advertise-client-urls", client.String(),
		"--listen-peer-urls", peer.String(), "--initial-advertise-peer-urls", peer.String(),
		"--initial-cluster", "lockstep=" + peer.String(),
		"--heartbeat-interval", "10", "--election-timeout", "100", "--logger", "zap", "--log-level", "error"}}
	s := &Server{Addr: client.Host, dir: dir, proc: p}
	if err := p.start(); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// start runs the program with p's command line and waits until it says
// it is healthy.
func (p *process) start() error {
	cmd := exec.Command(Binary, p.args...)
	out, done := &bytes.Buffer{}, make(chan struct{})
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("etcd: start %s: %w", Binary, err)
	}
	go func() { _ = cmd.Wait(); close(done) }()
	p.mu.Lock()
	p.cmd, p.out, p.done, p.once = cmd, out, done, &sync.Once{}
	p.mu.Unlock()
	return p.waitReady(20 * time.Second)
}

// waitReady asks the server's /health until it says it is healthy.
func (p *process) waitReady(limit time.Duration) error {
	p.mu.Lock()
	done, out := p.done, p.out
	p.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	for {
		select {
		case <-done:
			return fmt.Errorf("etcd: %s exited: %s", Binary, strings.TrimSpace(out.String()))
		default:
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, p.url+"/health", nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			var b bytes.Buffer
			_, _ = b.ReadFrom(resp.Body)
			_ = resp.Body.Close()
			if strings.Contains(b.String(), `"health":"true"`) {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("etcd: %s at %s is not healthy within %v", Binary, p.url, limit)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// kill ends the process (a stopped one too) and waits for it.
func (p *process) kill() {
	p.mu.Lock()
	cmd, done, once := p.cmd, p.done, p.once
	p.mu.Unlock()
	if cmd == nil {
		return
	}
	once.Do(func() {
		_ = cmd.Process.Signal(syscall.SIGCONT) // a stopped process dies too
		_ = cmd.Process.Kill()
		<-done
	})
}

// signal sends sig to the running incarnation.
func (p *process) signal(sig os.Signal) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cmd.Process.Signal(sig)
}

// ErrNotStoppable is returned by Stop and Resume on a server that is not
// a process Lockstep started.
var ErrNotStoppable = errors.New("etcd: only a server process Lockstep started can be stopped")

// Stop freezes the server process (SIGSTOP): it answers nothing, and its
// clock, the wall clock its leases end by, runs on. Resume undoes it.
func (s *Server) Stop() error {
	if s.proc == nil {
		return ErrNotStoppable
	}
	return s.proc.signal(syscall.SIGSTOP)
}

// Resume lets a server that Stop froze run again (SIGCONT).
func (s *Server) Resume() error {
	if s.proc == nil {
		return ErrNotStoppable
	}
	return s.proc.signal(syscall.SIGCONT)
}

// Stoppable says the server is a process Lockstep started, which Stop can
// freeze.
func (s *Server) Stoppable() bool { return s.proc != nil }

// Crash kills the server process (SIGKILL), as a power cut or an OOM kill
// would: it answers nothing and keeps nothing in memory; what it wrote to
// its data directory (its log and its leases) stays there. Restart starts
// it again.
func (s *Server) Crash() error {
	if s.proc == nil {
		return ErrNotStoppable
	}
	s.proc.kill()
	return nil
}

// Restart starts the server program again, on the data directory and
// the addresses of the process Crash killed, and waits until it is
// healthy.
func (s *Server) Restart() error {
	if s.proc == nil {
		return ErrNotStoppable
	}
	return s.proc.start()
}
