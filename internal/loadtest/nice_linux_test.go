package loadtest

import (
	"os"
	"strconv"
	"syscall"
)

// lowerPriority gives every thread of this process (the simulated
// browsers) the nice value n, and with it every thread the Go runtime
// makes later (a thread inherits its creator's). The server, a process of
// its own, keeps its priority. On Linux nice values belong to threads, so
// each is set.
func lowerPriority(n int) error {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return err
	}
	for _, task := range tasks {
		tid, err := strconv.Atoi(task.Name())
		if err != nil {
			continue
		}
		if err := syscall.Setpriority(syscall.PRIO_PROCESS, tid, n); err != nil {
			return err
		}
	}
	return nil
}
