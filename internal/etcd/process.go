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
var ErrNoBinary = errors.New("etcd: this lesson stops an etcd server process (SIGSTOP), which needs the etcd server program: " + installCommand)

// Install is ErrNoBinary's advice in both languages, for the page and the
// commands.
var Install = fact.Say("etcd.install", installCommand)

// NeedsBinary is the few words a list of lessons puts beside such a
// lesson on a machine without the program.
var NeedsBinary = fact.Say("etcd.needs-binary")

// ErrCannotPause is returned when a lesson that stops its server is asked
// to run on an external server, which cannot be stopped from here.
var ErrCannotPause = errors.New("etcd: this lesson stops the etcd server's process (SIGSTOP) and resumes it, which only a server Lockstep starts allows; an external --etcd server cannot be paused from here")

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

// process is an etcd server program this process started.
type process struct {
	cmd  *exec.Cmd
	out  *bytes.Buffer
	done chan struct{}
	once sync.Once
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
	p := &process{out: &bytes.Buffer{}, done: make(chan struct{})}
	p.cmd = exec.Command(Binary, "--data-dir", dir, "--name", "lockstep",
		"--listen-client-urls", client.String(), "--advertise-client-urls", client.String(),
		"--listen-peer-urls", peer.String(), "--initial-advertise-peer-urls", peer.String(),
		"--initial-cluster", "lockstep="+peer.String(),
		"--heartbeat-interval", "10", "--election-timeout", "100", "--logger", "zap", "--log-level", "error")
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	if err := p.cmd.Start(); err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("etcd: start %s: %w", Binary, err)
	}
	go func() { _ = p.cmd.Wait(); close(p.done) }()
	s := &Server{Addr: client.Host, dir: dir, proc: p}
	if err := p.waitReady(client.String(), 20*time.Second); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// waitReady asks the server's /health until it says it is healthy.
func (p *process) waitReady(url string, limit time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	for {
		select {
		case <-p.done:
			return fmt.Errorf("etcd: %s exited: %s", Binary, strings.TrimSpace(p.out.String()))
		default:
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url+"/health", nil)
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
			return fmt.Errorf("etcd: %s at %s is not healthy within %v", Binary, url, limit)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// kill ends the process (a stopped one too) and waits for it.
func (p *process) kill() {
	p.once.Do(func() {
		_ = p.cmd.Process.Signal(syscall.SIGCONT) // a stopped process dies too
		_ = p.cmd.Process.Kill()
		<-p.done
	})
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
	return s.proc.cmd.Process.Signal(syscall.SIGSTOP)
}

// Resume lets a server that Stop froze run again (SIGCONT).
func (s *Server) Resume() error {
	if s.proc == nil {
		return ErrNotStoppable
	}
	return s.proc.cmd.Process.Signal(syscall.SIGCONT)
}

// Stoppable says the server is a process Lockstep started, which Stop can
// freeze.
func (s *Server) Stoppable() bool { return s.proc != nil }
