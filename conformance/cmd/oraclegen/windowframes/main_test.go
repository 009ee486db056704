package main

import (
	"io"
	"testing"

	"github.com/ladybugsql/ladybug/conformance/cmd/oraclegen/oracle"
)

// TestWindowFrames_MatchSQLite runs the whole seeded sequences live:
// engine/funcs records only their first 1000 results; this checks every
// frame of every list against SQLite, for ROWS frames and for peer frames.
func TestWindowFrames_MatchSQLite(t *testing.T) {
	n := 8000
	if testing.Short() || oracle.Race {
		n = 300
	}
	for _, peers := range []bool{false, true} {
		if bad := run(io.Discard, peers, n, 0); len(bad) != 0 {
			t.Errorf("peers=%v: mismatches by frame: %v", peers, bad)
		}
	}
}
