package realredis

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"
)

// ErrNoServer is returned when no redis-server program is installed.
var ErrNoServer = errors.New("realredis: redis-server is not installed (apt-get install redis-server)")

// Server is a redis-server process this program started on a free loopback
// port, without persistence, in a temporary directory of its own (a
// replica writes the RDB of its initial sync there). Kill stops it and
// removes the directory.
type Server struct {
	Addr string // 127.0.0.1:port
	Port int
	dir  string
	cmd  *exec.Cmd
	out  *bytes.Buffer
	done chan struct{}
	once sync.Once
}

// StartServer starts redis-server on a free loopback port, with extra
// arguments (--replicaof 127.0.0.1 6379, say), and waits until it answers
// PING.
func StartServer(extra ...string) (*Server, error) {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		return nil, ErrNoServer
	}
	var last error
	for try := 0; try < 3; try++ {
		port, err := freePort()
		if err != nil {
			return nil, err
		}
		dir, err := os.MkdirTemp("", "lockstep-redis-")
		if err != nil {
			return nil, fmt.Errorf("realredis: a directory for redis-server: %w", err)
		}
		args := append([]string{"--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "",
			"--appendonly", "no", "--protected-mode", "yes", "--dir", dir}, extra...)
		s := &Server{Addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), Port: port, dir: dir,
			out: &bytes.Buffer{}, done: make(chan struct{})}
		s.cmd = exec.Command(bin, args...)
		s.cmd.Stdout, s.cmd.Stderr = s.out, s.out
		if err := s.cmd.Start(); err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("realredis: start redis-server: %w", err)
		}
		go func() { _ = s.cmd.Wait(); close(s.done) }()
		if last = s.waitReady(5 * time.Second); last == nil {
			return s, nil
		}
		s.Kill()
	}
	return nil, last
}

// URL is the server's redis:// URL.
func (s *Server) URL() string { return "redis://" + s.Addr }

// Client is a plain go-redis client of the server (no scheduling), for
// setup, replication control and inspection.
func (s *Server) Client() *redis.Client {
	return redis.NewClient(&redis.Options{Addr: s.Addr, Protocol: 2, DisableIdentity: true,
		DialTimeout: Timeout, ReadTimeout: Timeout, WriteTimeout: Timeout, MaxRetries: -1,
		MaintNotificationsConfig: &maintnotifications.Config{Mode: maintnotifications.ModeDisabled}})
}

func (s *Server) waitReady(limit time.Duration) error {
	c := s.Client()
	defer c.Close()
	deadline := time.Now().Add(limit)
	for {
		select {
		case <-s.done:
			return fmt.Errorf("realredis: redis-server on port %d exited: %s", s.Port, s.out.String())
		default:
		}
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		err := c.Ping(ctx).Err()
		cancel()
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("realredis: redis-server on port %d does not answer PING: %w", s.Port, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Kill stops the process at once (SIGKILL: no goodbye to replicas) and
// waits for it to exit.
func (s *Server) Kill() {
	s.once.Do(func() {
		if s.cmd.Process != nil {
			_ = s.cmd.Process.Kill()
		}
		<-s.done
		os.RemoveAll(s.dir)
	})
}

// freePort asks the kernel for a free loopback TCP port.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}
