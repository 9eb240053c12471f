package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/etcd"
	"github.com/lockstep/lockstep/internal/live"
	"github.com/lockstep/lockstep/internal/realredis"
	"github.com/lockstep/lockstep/internal/server"
	"github.com/lockstep/lockstep/internal/zookeeper"
	"github.com/lockstep/lockstep/web"
)

// cmdServe serves the browser app until ctx ends (Ctrl-C), then closes
// every socket and returns.
func cmdServe(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := newFlags("serve", stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "listen address")
	file := fs.String("file", "", "scenario file (default: the built-in catalog)")
	dev := fs.Bool("dev", false, "serve web/ from disk (edit the page without rebuilding)")
	devDir := fs.String("web", "web", "with --dev: the web directory to serve")
	idle := fs.Duration("idle", 30*time.Minute, "evict a session that has had no socket for this long")
	allow := fs.String("allow-origin", "", "comma-separated browser origins allowed besides the page's own host (e.g. http://localhost:8080, or *)")
	proxies := fs.String("trust-proxy", "", "comma-separated addresses or CIDR prefixes of proxies whose X-Forwarded-For names the client (per-address limits)")
	perAddress := fs.Int("per-address", 0, "sessions and sockets one client address may hold (default 128; a classroom behind one NAT address shares them)")
	chosen := redisFlags(fs, getenv)
	etcdAt := fs.String("etcd", "", `where the etcd lessons run: "embedded" (the default: a real etcd started in this process when a page first runs one) or an external server's client URL (http://127.0.0.1:2379)`)
	zkAt := zookeeperFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return badUsage("serve takes no arguments, got %q", fs.Arg(0))
	}
	servers, err := chosen(instanceName(*addr))
	if err != nil {
		return err
	}
	where, reals := redisIn(servers, *addr, stdout)
	f, err := loadFile(*file)
	if err != nil {
		return err
	}
	labs, err := loadLabs()
	if err != nil {
		return err
	}
	static, templates, err := pageFiles(*dev, *devDir)
	if err != nil {
		return err
	}
	trusted, err := parsePrefixes(*proxies)
	if err != nil {
		return badUsage("--trust-proxy: %v", err)
	}
	if *perAddress < 0 {
		return badUsage("--per-address %d is negative", *perAddress)
	}
	limits := server.Limits{Idle: *idle, MaxFiles: openFileLimit(), MaxSessionsPerAddress: *perAddress, MaxSocketsPerAddress: *perAddress}
	tuneCollector(getenv, limits)
	etcdLessons, err := etcdService(*etcdAt, stderr)
	if err != nil {
		return err
	}
	defer etcdLessons.Close()
	zkLessons, err := zookeeperService(zkAt.where, stderr)
	if err != nil {
		return err
	}
	defer zkLessons.Close()
	opts := server.Options{Live: []live.Service{etcdLessons, zkLessons}, Catalog: f, Labs: labs, Static: static, Templates: templates, Dev: *dev, Card: lockstep.Card,
		AllowOrigins: splitOrigins(*allow), Addr: *addr, TrustedProxies: trusted,
		Limits: limits, MeasureMemory: true, RealRedis: reals, Logf: func(format string, a ...any) { fmt.Fprintf(stderr, format+"\n", a...) }}
	if servers != nil {
		opts.Servers = servers // nil: embedded Redis
	}
	app, err := server.New(opts)
	if err != nil {
		return err
	}
	return serveUntilDone(ctx, app, *addr, where, stdout)
}

// redisIn says where the lessons' Redis runs (embedded Redis, or real
// Redis at the servers' URLs) and the real servers' URLs ("" for
// embedded); it first tells stdout of the keys an earlier run of this
// server left on real servers and were swept.
func redisIn(servers *realredis.Servers, addr string, stdout io.Writer) (where, reals string) {
	if servers == nil {
		return "embedded Redis", ""
	}
	if n := servers.Swept(); n > 0 {
		fmt.Fprintf(stdout, "removed %d keys that an earlier run of this server (instance %s) left on the Redis servers\n", n, instanceName(addr))
	}
	var urls []string
	for _, t := range servers.Targets() {
		urls = append(urls, t.URL)
	}
	reals = strings.Join(urls, ", ")
	return "real Redis at " + reals, reals
}

// pageFiles is the page's static files and templates: the ones built into
// the binary, or with --dev the ones of the web directory on disk.
func pageFiles(dev bool, dir string) (static, templates fs.FS, err error) {
	if !dev {
		static, templates = web.Embedded()
		return static, templates, nil
	}
	if _, err := os.Stat(filepath.Join(dir, "static")); err != nil {
		return nil, nil, fmt.Errorf("--dev: %w (run from the repository root or set --web)", err)
	}
	static, templates = web.Disk(dir)
	return static, templates, nil
}

// splitOrigins reads --allow-origin's comma-separated list.
func splitOrigins(list string) []string {
	var origins []string
	for _, o := range strings.Split(list, ",") {
		if o = strings.TrimSpace(o); o != "" {
			origins = append(origins, o)
		}
	}
	return origins
}

// tuneCollector sets the garbage collector's soft memory limit and
// pace for the sessions' budget, unless GOMEMLIMIT or GOGC says otherwise.
func tuneCollector(getenv func(string) string, limits server.Limits) {
	if getenv("GOMEMLIMIT") == "" {
		// The sessions' memory budget (server.Limits.MaxMemory, 512 MiB)
		// counts live memory; the collector may let the heap grow to five
		// times what is live (GOGC=400 below). A soft limit of the budget
		// and a quarter makes it collect harder instead, so that the
		// process's RSS follows the budget (it once was 768 MiB: RSS 786
		// to 899 MB beside 532 MB counted, issue 36).
		debug.SetMemoryLimit(server.SoftMemoryLimit(limits))
	}
	if getenv("GOGC") == "" {
		// Collecting at 5x what is live rather than 2x cost a request a
		// fifth to a third less CPU under the load test (docs/performance.md;
		// measured when miniredis still made a Lua
		// interpreter per script call, most of the garbage then) for twice
		// the RSS; the soft limit above holds the process near its budget.
		debug.SetGCPercent(400)
	}
}

// etcdService is the etcd lessons' service (--etcd), which tells stderr
// when its server is ready.
func etcdService(at string, stderr io.Writer) (*etcd.Service, error) {
	svc, err := etcd.NewService(at)
	if err != nil {
		return nil, badUsage("--etcd: %v", err)
	}
	svc.Started = func(srv *etcd.Server, took time.Duration) {
		fmt.Fprintf(stderr, "etcd: %s, ready in %s\n", srv, took.Round(time.Millisecond))
	}
	return svc, nil
}

// zookeeperService is the ZooKeeper lessons' service (--zookeeper), which
// tells stderr when its server is ready.
func zookeeperService(at string, stderr io.Writer) (*zookeeper.Service, error) {
	svc, err := zookeeper.NewService(at)
	if err != nil {
		return nil, badUsage("--zookeeper: %v", err)
	}
	svc.Started = func(where string, took time.Duration) {
		fmt.Fprintf(stderr, "zookeeper: %s, ready in %s\n", where, took.Round(time.Millisecond))
	}
	return svc, nil
}

// serveUntilDone listens on addr and serves app until ctx ends, then
// closes every socket and the plain requests in flight.
func serveUntilDone(ctx context.Context, app *server.Server, addr, where string, stdout io.Writer) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		app.Close()
		return err
	}
	fmt.Fprintf(stdout, "Lockstep on http://%s (%s)\n", ln.Addr(), where)
	// An idle keep-alive connection is closed after two minutes: it holds
	// a descriptor (WebSockets are hijacked and keep their own pings).
	srv := &http.Server{Handler: app.Handler(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		<-ctx.Done()
		// The whole shutdown within server.ShutdownWait: the sockets first
		// (each gets its 1001; Shutdown does not wait for hijacked
		// connections), then the plain HTTP requests in flight.
		sctx, cancel := context.WithTimeout(context.Background(), server.ShutdownWait)
		defer cancel()
		app.Close()
		_ = srv.Shutdown(sctx)
	}()
	if err := srv.Serve(app.Listen(ln)); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	<-stopped // Serve returns as Shutdown begins: wait until every socket has said goodbye
	return nil
}

// parsePrefixes reads a comma-separated list of addresses and CIDR
// prefixes.
func parsePrefixes(list string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, p := range strings.Split(list, ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		if a, err := netip.ParseAddr(p); err == nil {
			out = append(out, netip.PrefixFrom(a, a.BitLen()))
			continue
		}
		pf, err := netip.ParsePrefix(p)
		if err != nil {
			return nil, fmt.Errorf("%q is not an address or a CIDR prefix", p)
		}
		out = append(out, pf.Masked())
	}
	return out, nil
}

// instanceName names this server process on shared Redis servers: the
// machine and the port it listens on, the same after a restart.
func instanceName(addr string) string {
	host, _ := os.Hostname()
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		port = addr
	}
	return host + "-" + port
}
