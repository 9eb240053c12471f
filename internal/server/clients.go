package server

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// What each client address holds on the server, against Limits'
// per-address caps. The server counts under its mutex.
type addrUse struct {
	sockets, sessions, searches int
}

// addrLocked is what addr holds, made when it holds nothing yet.
func (s *Server) addrLocked(addr string) *addrUse {
	u := s.addrs[addr]
	if u == nil {
		u = &addrUse{}
		s.addrs[addr] = u
	}
	return u
}

// tidyLocked forgets an address that holds nothing any more.
func (s *Server) tidyLocked(addr string) {
	if u := s.addrs[addr]; u != nil && *u == (addrUse{}) {
		delete(s.addrs, addr)
	}
}

// clientAddr is the address a request counts against: the peer's IP, or,
// when the peer is a trusted proxy (Options.TrustedProxies), the address
// it appended last to X-Forwarded-For.
func (s *Server) clientAddr(r *http.Request) string {
	ip := hostOf(r.RemoteAddr)
	if !s.trusted(ip) {
		return ip
	}
	fwd := r.Header.Values("X-Forwarded-For")
	if len(fwd) == 0 {
		return ip
	}
	last := fwd[len(fwd)-1]
	if i := strings.LastIndexByte(last, ','); i >= 0 {
		last = last[i+1:]
	}
	if a, err := netip.ParseAddr(strings.TrimSpace(last)); err == nil {
		return a.Unmap().String()
	}
	return ip
}

// trusted reports whether ip is one of the trusted proxies.
func (s *Server) trusted(ip string) bool {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return false
	}
	for _, p := range s.opts.TrustedProxies {
		if p.Contains(a.Unmap()) {
			return true
		}
	}
	return false
}

// hostOf is the IP of a "host:port" address, as netip writes it.
func hostOf(addr string) string {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	if a, err := netip.ParseAddr(host); err == nil {
		return a.Unmap().String()
	}
	return host
}

// takeSocket counts a new WebSocket of addr, or refuses it: the server
// keeps a reserve of file descriptors (Limits.MaxFiles), and an address
// may hold MaxSocketsPerAddress.
func (s *Server) takeSocket(addr string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if most := s.limits.maxSockets(); most > 0 && s.sockets >= most {
		return coded("server-sockets", map[string]any{"max": most},
			"the server holds %d sockets, all it may while keeping room for others: try again later", most)
	}
	u := s.addrLocked(addr)
	if u.sockets >= s.limits.MaxSocketsPerAddress {
		s.tidyLocked(addr)
		return coded("address-sockets", map[string]any{"max": s.limits.MaxSocketsPerAddress},
			"your address has %d sockets open, the most one address may: close other tabs and try again", s.limits.MaxSocketsPerAddress)
	}
	u.sockets++
	s.sockets++
	return nil
}

// dropSocket forgets a WebSocket of addr.
func (s *Server) dropSocket(addr string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sockets--
	if u := s.addrs[addr]; u != nil {
		u.sockets--
		s.tidyLocked(addr)
	}
}

// takeSearch counts a search of addr, or refuses it.
func (s *Server) takeSearch(addr string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.addrLocked(addr)
	if u.searches >= s.limits.MaxSearchesPerAddress {
		s.tidyLocked(addr)
		return coded("address-searches", map[string]any{"max": s.limits.MaxSearchesPerAddress},
			"explore: your address runs %d searches, the most one address may: wait for one to end", s.limits.MaxSearchesPerAddress)
	}
	u.searches++
	return nil
}

// dropSearch forgets a search of addr.
func (s *Server) dropSearch(addr string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if u := s.addrs[addr]; u != nil {
		u.searches--
		s.tidyLocked(addr)
	}
}

// Listen wraps a listener so that the server never runs out of file
// descriptors, whoever connects: past Limits.MaxFiles less a small
// reserve, or past the connections one address may hold (its sockets and
// a few more for the page's files; trusted proxies excepted), a new
// connection is closed as soon as it is accepted. The accept loop goes on,
// and /healthz, the page and other addresses keep their room.
func (s *Server) Listen(ln net.Listener) net.Listener {
	return &limitListener{Listener: ln, srv: s, per: map[string]int{}}
}

type limitListener struct {
	net.Listener
	srv *Server

	mu   sync.Mutex
	open int
	per  map[string]int

	dropped  atomic.Int64
	lastSaid atomic.Int64 // unix nanoseconds of the last log line about drops
}

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		ip := hostOf(c.RemoteAddr().String())
		lim := l.srv.limits
		l.mu.Lock()
		full := lim.maxConns() > 0 && l.open >= lim.maxConns()
		if !full && !l.srv.trusted(ip) && l.per[ip] >= lim.maxConnsPerAddress() {
			full = true
		}
		if full {
			l.mu.Unlock()
			_ = c.Close()
			l.drop(ip)
			continue
		}
		l.open++
		l.per[ip]++
		l.mu.Unlock()
		return &countedConn{Conn: c, l: l, ip: ip}, nil
	}
}

// drop logs, at most once a second, the connections closed at accept.
func (l *limitListener) drop(ip string) {
	n := l.dropped.Add(1)
	now := time.Now().UnixNano()
	if last := l.lastSaid.Load(); now-last > int64(time.Second) && l.lastSaid.CompareAndSwap(last, now) {
		l.srv.opts.Logf("connections: closed %d at accept so far (the latest from %s): over the server's or the address's connections", n, ip)
	}
}

func (l *limitListener) release(ip string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.open--
	if l.per[ip]--; l.per[ip] <= 0 {
		delete(l.per, ip)
	}
}

// countedConn gives its place back to its listener when closed.
type countedConn struct {
	net.Conn
	l    *limitListener
	ip   string
	once sync.Once
}

func (c *countedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.l.release(c.ip) })
	return err
}
