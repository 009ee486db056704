//go:build !unix

package ladybugtest_test

import "time"

// processCPU is unavailable here; benchmarks then report 0 CPU time.
func processCPU() time.Duration { return 0 }
