package etcd

import (
	"fmt"
	"net"
	"sync"
)

// Proxy is a TCP proxy in front of one client's connections to the
// server: the wire a fault acts on. Hold stops the bytes in both
// directions and keeps the connections open (a pause: the client's
// keep-alive cannot reach the server, as in a GC pause; or a partition
// that TCP rides out); Release lets the held bytes through; Cut closes
// every connection (a crash's end of the wire). Bytes are never dropped:
// dropping part of gRPC's stream breaks its framing and kills the whole
// connection, so a lost reply is the client interceptor's (Recorder).
type Proxy struct {
	ln     net.Listener
	target string

	mu    sync.Mutex
	held  bool
	free  *sync.Cond
	conns []net.Conn
	done  bool
}

// NewProxy listens on a free loopback port and forwards what it accepts
// to target (host:port).
func NewProxy(target string) (*Proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("etcd: proxy: %w", err)
	}
	p := &Proxy{ln: ln, target: target}
	p.free = sync.NewCond(&p.mu)
	go p.accept()
	return p, nil
}

// Addr is the address the client dials instead of the server's.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// Hold stops the bytes in both directions until Release.
func (p *Proxy) Hold() {
	p.mu.Lock()
	p.held = true
	p.mu.Unlock()
}

// Release lets the held bytes through.
func (p *Proxy) Release() {
	p.mu.Lock()
	p.held = false
	p.free.Broadcast()
	p.mu.Unlock()
}

// Cut closes every connection the proxy carries; the client may dial
// again.
func (p *Proxy) Cut() {
	p.mu.Lock()
	for _, c := range p.conns {
		_ = c.Close()
	}
	p.conns = nil
	p.mu.Unlock()
}

// Close stops the proxy and closes its connections.
func (p *Proxy) Close() {
	p.mu.Lock()
	p.done, p.held = true, false
	p.free.Broadcast()
	p.mu.Unlock()
	_ = p.ln.Close()
	p.Cut()
}

func (p *Proxy) accept() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			_ = c.Close()
			continue
		}
		p.mu.Lock()
		if p.done {
			p.mu.Unlock()
			_ = c.Close()
			_ = s.Close()
			return
		}
		p.conns = append(p.conns, c, s)
		p.mu.Unlock()
		go p.pipe(s, c)
		go p.pipe(c, s)
	}
}

// pipe copies from src to dst, each chunk waiting while the proxy holds.
func (p *Proxy) pipe(dst, src net.Conn) {
	defer func() { _ = dst.Close(); _ = src.Close() }()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			p.mu.Lock()
			for p.held && !p.done {
				p.free.Wait()
			}
			p.mu.Unlock()
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return // EOF, or a connection closed by Cut
		}
	}
}
