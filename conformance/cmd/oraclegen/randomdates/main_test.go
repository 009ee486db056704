package main

import (
	"io"
	"testing"

	"github.com/ladybugsql/ladybug/conformance/cmd/oraclegen/oracle"
	"time"
)

// TestRandomDates_MatchSQLite runs the whole seeded sequence live: engine/funcs
// records only its first 1000 calls; this checks every one against SQLite.
func TestRandomDates_MatchSQLite(t *testing.T) {
	if _, off := time.Now().Zone(); off != 0 {
		t.Skip("SQLite's 'localtime' follows the process zone: run with TZ=UTC")
	}
	n := 40000
	if testing.Short() || oracle.Race {
		n = 3000
	}
	if bad := run(io.Discard, n, 0); bad != 0 {
		t.Fatalf("%d of %d date/time calls differ from SQLite", bad, n)
	}
}
