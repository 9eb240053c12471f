package realredis

import "net"

// Warm opens n client connections ahead of the run (connected,
// authenticated and on the URL's database) for Dial to hand out. A run's
// clock starts with its first move: a connection made inside the run costs
// it a TCP handshake and an AUTH, round trips that a loaded machine makes
// slow (over a second for Redlock's first five votes was seen), and that
// delay shifts everything the lesson times after it. What go-redis sends
// on a new connection itself (HELLO) stays on the timeline.
func (b *Backend) Warm(n int) error {
	for range n {
		c, err := b.dial()
		if err != nil {
			return err
		}
		b.mu.Lock()
		b.warm = append(b.warm, c)
		b.mu.Unlock()
	}
	return nil
}

// takeWarm gives a connection opened ahead, if one is left.
func (b *Backend) takeWarm() (net.Conn, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.warm) == 0 {
		return nil, false
	}
	c := b.warm[0]
	b.warm = b.warm[1:]
	return c, true
}

// closeWarm closes the connections no client took.
func (b *Backend) closeWarm() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, c := range b.warm {
		c.Close()
	}
	b.warm = nil
}
