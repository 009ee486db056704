package main

import (
	"io"
	"testing"

	"github.com/ladybugsql/ladybug/conformance/cmd/oraclegen/oracle"
)

// TestRandomJSON_MatchSQLite runs the whole seeded sequence live: engine/funcs
// records only its first 1000 calls; this checks every one against SQLite.
func TestRandomJSON_MatchSQLite(t *testing.T) {
	n := 30000
	if testing.Short() || oracle.Race {
		n = 3000
	}
	if bad := run(io.Discard, n, 0); bad != 0 {
		t.Fatalf("%d of %d JSON calls differ from SQLite", bad, n)
	}
}
