//go:build unix

package ladybugtest_test

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time (user + system) the process has used.
// Benchmarks report it per op beside the wall clock: on a shared machine
// it moves far less with other load than the wall clock does.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
