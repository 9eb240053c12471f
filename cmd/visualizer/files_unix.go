//go:build unix

package main

import "syscall"

// openFileLimit raises the soft limit of open files to the hard one (Go
// does so at start on most systems; this makes it sure) and returns the
// limit now in force, 0 if it cannot be read. serve keeps a reserve of it
// for /healthz and new users (server.Limits.MaxFiles).
func openFileLimit() int {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return 0
	}
	if l.Cur < l.Max {
		raised := l
		raised.Cur = l.Max
		if syscall.Setrlimit(syscall.RLIMIT_NOFILE, &raised) == nil {
			l = raised
		}
	}
	const most = 1 << 30 // an unlimited hard limit: count as this many
	if l.Cur > most {
		return most
	}
	return int(l.Cur)
}
