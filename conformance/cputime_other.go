//go:build !unix

package conformance

import "time"

// processCPU reports that this platform's CPU time is not measured: the
// join runner then times queries by the clock.
func processCPU() (time.Duration, bool) { return 0, false }
