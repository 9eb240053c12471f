package etcd

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"syscall"
	"time"

	"go.etcd.io/etcd/api/v3/version"
	"go.etcd.io/etcd/server/v3/embed"
	"go.uber.org/zap"
)

// Server is an etcd server a run's clients reach: one embedded in the
// process, or an external one given by URL.
type Server struct {
	// Addr is the server's client address, host:port (no scheme).
	Addr string
	// Embedded says the server runs in this process.
	Embedded bool
	e        *embed.Etcd
	proc     *process // a server program started here (StartProcess)
	dir      string
}

// ErrNotReady is returned when an embedded server does not become ready in
// time.
var ErrNotReady = errors.New("etcd: the embedded server did not become ready")

// StartEmbedded starts a real etcd server in the process: one member on
// loopback, its data in a temporary directory, a 10 ms tick and a 100 ms
// election timeout so that a lease of 1 s is granted as asked (etcd grants
// at least ceil(1.5 × election timeout), in whole seconds), and no fsync
// (the data is thrown away with the run). Close stops it and removes the
// directory.
func StartEmbedded() (*Server, error) {
	dir, err := os.MkdirTemp("", "lockstep-etcd-")
	if err != nil {
		return nil, fmt.Errorf("etcd: %w", err)
	}
	cfg := embed.NewConfig()
	cfg.Dir = dir
	cfg.Name = "lockstep"
	cfg.TickMs, cfg.ElectionMs = 10, 100
	cfg.UnsafeNoFsync = true
	cfg.LogLevel = "error"
	cfg.ZapLoggerBuilder = embed.NewZapLoggerBuilder(zap.NewNop())
	// A port found free can be taken by another process before the server
	// listens on it: then it tries two more pairs.
	var e *embed.Etcd
	var client url.URL
	for try := 0; ; try++ {
		var peer url.URL
		peer, client, err = freeURLs()
		if err != nil {
			_ = os.RemoveAll(dir)
			return nil, err
		}
		cfg.ListenPeerUrls, cfg.AdvertisePeerUrls = []url.URL{peer}, []url.URL{peer}
		cfg.ListenClientUrls, cfg.AdvertiseClientUrls = []url.URL{client}, []url.URL{client}
		cfg.InitialCluster = cfg.Name + "=" + peer.String()
		e, err = embed.StartEtcd(cfg)
		if err == nil || try == 2 || !errors.Is(err, syscall.EADDRINUSE) {
			break
		}
	}
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("etcd: start the embedded server: %w", err)
	}
	select {
	case <-e.Server.ReadyNotify():
	case <-time.After(20 * time.Second):
		e.Close()
		_ = os.RemoveAll(dir)
		return nil, ErrNotReady
	}
	return &Server{Addr: client.Host, Embedded: true, e: e, dir: dir}, nil
}

// External is an etcd server already running at rawURL (http://host:port).
func External(rawURL string) (*Server, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "") {
		return nil, fmt.Errorf("etcd: %q is not an etcd client URL (http://host:port)", rawURL)
	}
	return &Server{Addr: u.Host}, nil
}

// String says which server it is: "embedded etcd v3.7.3 at 127.0.0.1:…"
// or "etcd at host:port".
func (s *Server) String() string {
	if s.Embedded {
		return "embedded etcd v" + version.Version + " at " + s.Addr
	}
	if s.proc != nil {
		return "etcd (a process Lockstep started for this run) at " + s.Addr
	}
	return "etcd at " + s.Addr
}

// Close stops an embedded server, or kills a process started here, and
// removes its data; an external server is left running.
func (s *Server) Close() {
	switch {
	case s.e != nil:
		s.e.Close()
	case s.proc != nil:
		s.proc.kill()
	default:
		return
	}
	_ = os.RemoveAll(s.dir)
}

// freeURLs picks two free loopback ports for the peer and client URLs.
func freeURLs() (peer, client url.URL, err error) {
	var ports [2]int
	for i := range ports {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return peer, client, fmt.Errorf("etcd: find a free port: %w", err)
		}
		ports[i] = l.Addr().(*net.TCPAddr).Port
		_ = l.Close()
	}
	peer = url.URL{Scheme: "http", Host: fmt.Sprintf("127.0.0.1:%d", ports[0])}
	client = url.URL{Scheme: "http", Host: fmt.Sprintf("127.0.0.1:%d", ports[1])}
	return peer, client, nil
}
