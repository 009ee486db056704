package conformance

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
)

// memSample describes the process's memory for the stress run's progress
// lines: the resident set (from /proc/self/status; 0 where there is none)
// and the Go heap, so growth shows whether it is the Go heap (ladybug, the
// harness) or memory outside it (the oracle's C heap).
func memSample() string {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return fmt.Sprintf("rss %d MiB, heap in use %d MiB (idle %d, released %d), sys %d MiB, %d GCs, %d goroutines",
		vmRSS()>>20, ms.HeapInuse>>20, ms.HeapIdle>>20, ms.HeapReleased>>20, ms.Sys>>20, ms.NumGC, runtime.NumGoroutine())
}

// vmRSS returns the process's resident set size in bytes, 0 if unknown.
func vmRSS() uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			f := strings.Fields(rest) // "123456", "kB"
			if len(f) == 0 {
				return 0
			}
			kb, _ := strconv.ParseUint(f[0], 10, 64)
			return kb << 10
		}
	}
	return 0
}
