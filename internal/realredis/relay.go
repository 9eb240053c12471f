package realredis

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"sync"
)

// Relay sits on the replication link between a master and its replica (both
// redis-server processes this program started): the replica is started with
// --replicaof pointing at the relay, and the relay dials the master. What
// the replica sends goes straight through. What the master sends goes
// straight through until Hold; from then on it waits in the relay until the
// engine delivers it (Next), which is how a lesson gets a replication lag
// it controls. Cut drops what is still held and closes the link for good:
// a write the master made but the replica never received is really lost.
type Relay struct {
	ln     net.Listener
	master string

	mu      sync.Mutex
	holding bool
	held    [][]byte // chunks from the master not yet given to the replica
	toRepl  net.Conn // the replica's connection to us
	toMast  net.Conn // our connection to the master
	cut     bool
	arrived chan struct{} // signalled when a chunk is held
}

// NewRelay listens on a free loopback port for a replica of master.
func NewRelay(master string) (*Relay, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("realredis: relay: %w", err)
	}
	r := &Relay{ln: ln, master: master, arrived: make(chan struct{}, 1)}
	go r.accept()
	return r, nil
}

// Port is where the replica connects.
func (r *Relay) Port() int { return r.ln.Addr().(*net.TCPAddr).Port }

func (r *Relay) accept() {
	for {
		c, err := r.ln.Accept()
		if err != nil {
			return
		}
		m, err := net.DialTimeout("tcp", r.master, Timeout)
		if err != nil {
			c.Close()
			continue
		}
		r.mu.Lock()
		if r.cut {
			r.mu.Unlock()
			c.Close()
			m.Close()
			return
		}
		if r.toRepl != nil { // the replica reconnected: the old link is over
			r.toRepl.Close()
			r.toMast.Close()
		}
		r.toRepl, r.toMast = c, m
		r.mu.Unlock()
		go func() { _, _ = io.Copy(m, c) }()
		go r.fromMaster(m, c)
	}
}

// fromMaster passes the master's bytes to the replica, or holds them.
func (r *Relay) fromMaster(m, c net.Conn) {
	buf := make([]byte, 64<<10)
	for {
		n, err := m.Read(buf)
		if n > 0 {
			chunk := bytes.Clone(buf[:n])
			r.mu.Lock()
			switch {
			case r.cut || r.toMast != m:
			case r.holding:
				r.held = append(r.held, chunk)
				select {
				case r.arrived <- struct{}{}:
				default:
				}
			default:
				_, _ = c.Write(chunk)
			}
			r.mu.Unlock()
		}
		if err != nil {
			return
		}
	}
}

// Hold makes the relay keep what the master sends from now on.
func (r *Relay) Hold() {
	r.mu.Lock()
	r.holding = true
	r.mu.Unlock()
}

// Next gives the replica the oldest held chunk and returns it; nil when
// nothing is held.
func (r *Relay) Next() ([]byte, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cut {
		return nil, errors.New("realredis: the replication link is cut")
	}
	if len(r.held) == 0 {
		return nil, nil
	}
	chunk := r.held[0]
	r.held = r.held[1:]
	if r.toRepl == nil {
		return nil, errors.New("realredis: no replica is connected")
	}
	if _, err := r.toRepl.Write(chunk); err != nil {
		return nil, err
	}
	return chunk, nil
}

// Arrived is signalled when a chunk from the master is held.
func (r *Relay) Arrived() <-chan struct{} { return r.arrived }

// Cut drops the held chunks, closes the link and stops listening: the
// replica never hears from this master again. It returns what was dropped.
func (r *Relay) Cut() [][]byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	dropped := r.held
	r.held, r.cut = nil, true
	r.ln.Close()
	if r.toRepl != nil {
		r.toRepl.Close()
		r.toMast.Close()
	}
	return dropped
}

// Close is Cut without the answer.
func (r *Relay) Close() { r.Cut() }

// respCommands splits a piece of the replication stream into its commands.
// The stream after the full sync is RESP arrays of bulk strings; a piece
// that ends inside a command keeps the rest for the next call (rest).
func respCommands(rest, chunk []byte) (cmds [][]string, left []byte) {
	data := append(rest, chunk...)
	br := bufio.NewReader(bytes.NewReader(data))
	used := 0
	for {
		cmd, n, ok := readArray(br)
		if !ok {
			break
		}
		used += n
		cmds = append(cmds, cmd)
	}
	return cmds, bytes.Clone(data[used:])
}

// readArray reads one RESP array of bulk strings, with the bytes it took;
// ok is false at the end of the data or on anything else.
func readArray(br *bufio.Reader) ([]string, int, bool) {
	line, err := br.ReadString('\n')
	if err != nil || len(line) < 4 || line[0] != '*' {
		return nil, 0, false
	}
	n := len(line)
	count, err := strconv.Atoi(line[1 : len(line)-2])
	if err != nil || count < 0 {
		return nil, 0, false
	}
	out := make([]string, 0, count)
	for i := 0; i < count; i++ {
		h, err := br.ReadString('\n')
		if err != nil || len(h) < 4 || h[0] != '$' {
			return nil, 0, false
		}
		size, err := strconv.Atoi(h[1 : len(h)-2])
		if err != nil || size < 0 {
			return nil, 0, false
		}
		b := make([]byte, size+2)
		if _, err := io.ReadFull(br, b); err != nil {
			return nil, 0, false
		}
		n += len(h) + size + 2
		out = append(out, string(b[:size]))
	}
	return out, n, true
}
