//go:build unix

package factorized

import "syscall"

// cpuNanos returns the process's user+system CPU time. Benchmarks report it
// per op beside wall time, which on a shared machine mostly measures the
// wait for a core.
func cpuNanos() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
