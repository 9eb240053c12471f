package server

import (
	"fmt"
	"testing"
)

// A guesser cannot buy more guesses with more addresses: the addresses of
// one IPv6 /64 network share a bucket, and once the limiter remembers its
// most addresses, every address it does not know shares one bucket too.
func TestGuessingFromManyAddressesIsNoFaster(t *testing.T) {
	t.Run("one IPv6 network is one address", func(t *testing.T) {
		var l limiter
		for i := 0; i < missBurst; i++ {
			l.miss(fmt.Sprintf("2001:db8:1:2::%x", i+1))
		}
		if l.wait("2001:db8:1:2:ffff::9") == 0 {
			t.Fatalf("%d misses from one /64 and a fresh address in it may guess at once", missBurst)
		}
		if l.wait("2001:db8:1:3::1") != 0 {
			t.Fatal("the next /64 network waits for its neighbour's misses")
		}
		if l.wait("::ffff:192.0.2.7") != 0 || limitKey("::ffff:192.0.2.7") != "192.0.2.7" {
			t.Fatal("an IPv4 address written in IPv6 form is not its IPv4 self")
		}
	})
	t.Run("a full limiter makes strangers share a bucket", func(t *testing.T) {
		l := limiter{max: 10}
		for i := 0; i < 10; i++ { // fills the table, one miss each
			l.miss(fmt.Sprintf("192.0.2.%d", i))
		}
		for i := 0; i < missBurst; i++ { // a flood of new addresses
			l.miss(fmt.Sprintf("198.51.100.%d", i))
		}
		if got := l.wait("203.0.113.1"); got == 0 {
			t.Fatalf("after %d misses from %d unknown addresses, another unknown address may guess at once", missBurst, missBurst)
		}
		if got := l.wait("192.0.2.3"); got != 0 {
			t.Fatalf("a remembered address with one miss waits %v", got)
		}
		if len(l.m) > 11 {
			t.Fatalf("the limiter remembers %d addresses; its most is 10 and the shared one", len(l.m))
		}
	})
}
