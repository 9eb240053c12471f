//go:build race

package livecard

// raceEnabled: the tests run under the race detector. go-zookeeper's
// client races with itself when it reconnects with watches set
// (conn.go: recvLoop writes what sendSetWatches reads), which the live
// rows' pause and partition cells make it do; and the detector slows the
// clients enough for 1s leases to lapse without a fault. The live rows
// run without it in scripts/test.sh.
const raceEnabled = true
