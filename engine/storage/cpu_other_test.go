//go:build !unix

package storage

import "time"

// cpuNow is wall time where getrusage does not exist (Windows).
func cpuNow() time.Duration { return time.Duration(time.Now().UnixNano()) }
