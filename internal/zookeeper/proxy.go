package zookeeper

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"
)

// ZooKeeper's request op codes that the proxy can lose the reply of
// (org.apache.zookeeper.ZooDefs.OpCode).
const (
	OpCreate  int32 = 1
	OpDelete  int32 = 2
	OpCreate2 int32 = 15
)

// maxFrame is the largest frame the proxy forwards (ZooKeeper's own
// jute.maxbuffer default is 1 MiB).
const maxFrame = 4 << 20

// Lost is a reply the proxy did not deliver: the request's op and xid.
type Lost struct {
	Op  int32
	Xid int32
	At  time.Time
}

// Proxy stands between one client and the server and forwards ZooKeeper's
// frames (a 4-byte big-endian length, then the body) both ways, the first
// of each direction being the session's connect request and answer, every
// later request starting with its xid and op, every reply with the xid it
// answers. Faults act on it as on that client's network: Pause holds every
// frame and every new connection until Resume (a frozen process: its pings
// stop, so its session expires on the server's clock); Cut holds what is
// open and refuses new connections until Heal (a partition); Crash closes
// everything for good; LoseNextReply drops the reply to the next request
// of an op and then breaks that connection, as a connection lost while the
// reply was on its way: the request reached the server and ran, the client
// learns only that its connection closed (it reconnects within its session).
type Proxy struct {
	Addr   string // where the client dials: 127.0.0.1:port
	server string
	ln     net.Listener

	mu      sync.Mutex
	wake    *sync.Cond
	paused  bool
	cut     bool
	dead    bool
	conns   []net.Conn
	lose    map[int32]int   // op → replies still to lose
	drop    map[int32]int32 // xid → op of a request whose reply is to be lost
	lost    []Lost
	onLost  func(Lost)
	onFrame func(up bool, xid int32) // told of each frame passed on (OnFrame)
}

// NewProxy listens on a free loopback port for connections to the server
// at addr.
func NewProxy(addr string) (*Proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("zookeeper: a proxy's port: %w", err)
	}
	p := &Proxy{Addr: ln.Addr().String(), server: addr, ln: ln, lose: map[int32]int{}, drop: map[int32]int32{}}
	p.wake = sync.NewCond(&p.mu)
	go p.accept()
	return p, nil
}

func (p *Proxy) accept() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		go p.serve(c)
	}
}

// serve forwards one client connection, after waiting out a pause.
func (p *Proxy) serve(c net.Conn) {
	p.mu.Lock()
	for p.paused && !p.dead {
		p.wake.Wait()
	}
	refused := p.dead || p.cut
	p.mu.Unlock()
	if refused {
		c.Close()
		return
	}
	s, err := net.DialTimeout("tcp", p.server, 2*time.Second)
	if err != nil {
		c.Close()
		return
	}
	if !p.track(c, s) {
		return
	}
	go p.pump(s, c, false)
	p.pump(c, s, true)
}

// track adds a connection pair to those Crash closes, or closes both when
// the proxy is already dead.
func (p *Proxy) track(c, s net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.dead {
		c.Close()
		s.Close()
		return false
	}
	p.conns = append(p.conns, c, s)
	return true
}

// pump forwards the frames read from src to dst: requests when up is set,
// else replies.
func (p *Proxy) pump(src, dst net.Conn, up bool) {
	defer src.Close()
	defer dst.Close()
	first := true
	for {
		frame, err := readFrame(src)
		if err != nil {
			return
		}
		switch p.pass(frame, up, first) {
		case drop:
			continue
		case lose:
			p.told()
			return // the reply is lost with its connection
		}
		if _, err := dst.Write(frame); err != nil {
			return
		}
		p.passed(frame, up, first)
		first = false
	}
}

// What becomes of a frame.
type fate int

const (
	forward fate = iota
	drop         // the proxy is dead: nothing goes on
	lose         // a reply to lose: its connection breaks with it
)

// pass waits while the proxy holds traffic, then says what becomes of
// frame: a request is noted when its reply is to be lost, and such a reply
// is lost.
func (p *Proxy) pass(frame []byte, up, first bool) fate {
	p.mu.Lock()
	defer p.mu.Unlock()
	for (p.paused || p.cut) && !p.dead {
		p.wake.Wait()
	}
	switch {
	case p.dead:
		return drop
	case first || len(frame) < 12:
		return forward
	}
	xid := int32(binary.BigEndian.Uint32(frame[4:]))
	if up {
		op := int32(binary.BigEndian.Uint32(frame[8:]))
		if p.lose[op] > 0 {
			p.lose[op]--
			p.drop[xid] = op
		}
		return forward
	}
	if op, ok := p.drop[xid]; ok {
		delete(p.drop, xid)
		p.lost = append(p.lost, Lost{Op: op, Xid: xid, At: time.Now()})
		return lose
	}
	return forward
}

// readFrame reads one length-prefixed frame, its length included.
func readFrame(r io.Reader) ([]byte, error) {
	var n [4]byte
	if _, err := io.ReadFull(r, n[:]); err != nil {
		return nil, err
	}
	size := binary.BigEndian.Uint32(n[:])
	if size > maxFrame {
		return nil, errors.New("zookeeper: a frame over the proxy's limit")
	}
	frame := make([]byte, 4+size)
	copy(frame, n[:])
	_, err := io.ReadFull(r, frame[4:])
	return frame, err
}

func (p *Proxy) set(f func()) {
	p.mu.Lock()
	f()
	p.mu.Unlock()
	p.wake.Broadcast()
}

// Pause holds every frame both ways, and every new connection, until
// Resume.
func (p *Proxy) Pause() { p.set(func() { p.paused = true }) }

// Resume lets what Pause held go on, in order.
func (p *Proxy) Resume() { p.set(func() { p.paused = false }) }

// Cut holds the open connections and refuses new ones until Heal.
func (p *Proxy) Cut() { p.set(func() { p.cut = true }) }

// Heal ends a Cut.
func (p *Proxy) Heal() { p.set(func() { p.cut = false }) }

// LoseNextReply drops the reply to the next request of op.
func (p *Proxy) LoseNextReply(op int32) { p.set(func() { p.lose[op]++ }) }

// OnFrame sets f to be told of each frame the proxy passes on, once it
// has: a request (up) or a reply, with its xid (a session's connect
// request and answer, which have none, as 0; a ping's is PingXid).
func (p *Proxy) OnFrame(f func(up bool, xid int32)) { p.set(func() { p.onFrame = f }) }

// PingXid is the xid of a ping and of its reply.
const PingXid = -2

// passed tells OnFrame's function of a frame passed on.
func (p *Proxy) passed(frame []byte, up, first bool) {
	p.mu.Lock()
	f := p.onFrame
	p.mu.Unlock()
	if f == nil {
		return
	}
	var xid int32
	if !first && len(frame) >= 8 {
		xid = int32(binary.BigEndian.Uint32(frame[4:]))
	}
	f(up, xid)
}

// OnLost tells f of each reply the proxy drops, as it drops it.
func (p *Proxy) OnLost(f func(Lost)) { p.set(func() { p.onLost = f }) }

// told tells OnLost's function of the reply just lost.
func (p *Proxy) told() {
	p.mu.Lock()
	f, l := p.onLost, p.lost[len(p.lost)-1]
	p.mu.Unlock()
	if f != nil {
		f(l)
	}
}

// Lost lists the replies the proxy dropped.
func (p *Proxy) Lost() []Lost {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Lost(nil), p.lost...)
}

// Crash closes every connection and refuses new ones, for good: the
// client is gone, and its session ends when the server's clock says so.
func (p *Proxy) Crash() {
	p.set(func() {
		p.dead = true
		for _, c := range p.conns {
			c.Close()
		}
		p.conns = nil
	})
	p.ln.Close()
}

// Close is Crash: the proxy's end.
func (p *Proxy) Close() { p.Crash() }
