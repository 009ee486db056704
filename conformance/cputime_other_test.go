//go:build !unix

package conformance

import "time"

// cpuTime is wall time where getrusage does not exist (Windows).
func cpuTime() int64 { return time.Now().UnixNano() }
