package sim

import "time"

// SetClockOffset sets how far the node's clock runs ahead of the world's
// (negative: behind), before the run starts. A jump during the run is the
// clock-jump fault. A real server's clock cannot be set: ErrUnavailable.
func (n *Node) SetClockOffset(d time.Duration) error {
	return n.jump(d - n.offset)
}

// ClockOffset is how far the node's clock runs ahead of the world's.
func (n *Node) ClockOffset() time.Duration { return n.offset }

// Skew is how far a client's clock runs ahead of the world's at this
// point of the run (its clock_skew, or the latest skew fault); 0 for a
// name that is no client.
func (w *World) Skew(client string) time.Duration {
	if p := w.proc(client); p != nil {
		return p.skew
	}
	return 0
}
