//go:build unix

package realredis

import "syscall"

// Stop freezes the process (SIGSTOP), as a hung server: it keeps its port
// and its connections, the kernel still accepts new ones and takes in what
// is sent, and nothing is answered. Resume undoes it; Kill ends a stopped
// process too.
func (s *Server) Stop() error { return s.cmd.Process.Signal(syscall.SIGSTOP) }

// Resume lets a process that Stop froze run again (SIGCONT).
func (s *Server) Resume() error { return s.cmd.Process.Signal(syscall.SIGCONT) }
