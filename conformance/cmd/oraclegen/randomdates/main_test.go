package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/ladybugsql/ladybug/conformance/cmd/oraclegen/oracle"
)

// TestMain runs the tests in UTC: SQLite's 'localtime' follows the process
// zone, and the recorded answers were made in UTC. A process in another
// zone runs itself again with TZ=UTC.
func TestMain(m *testing.M) {
	if _, off := time.Now().Zone(); off == 0 {
		os.Exit(m.Run())
	}
	if os.Getenv("TZ") == "UTC" {
		fmt.Fprintln(os.Stderr, "randomdates: TZ=UTC is set and the zone is still not UTC")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[0], os.Args[1:]...)
	cmd.Env = append(os.Environ(), "TZ=UTC")
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		os.Exit(exit.ExitCode())
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "randomdates: running the tests again with TZ=UTC:", err)
		os.Exit(2)
	}
	os.Exit(0)
}

// TestRandomDates_MatchSQLite runs the whole seeded sequence live: engine/funcs
// records only its first 1000 calls; this checks every one against SQLite.
func TestRandomDates_MatchSQLite(t *testing.T) {
	n := 40000
	if testing.Short() || oracle.Race {
		n = 3000
	}
	if bad := run(io.Discard, n, 0); bad != 0 {
		t.Fatalf("%d of %d date/time calls differ from SQLite", bad, n)
	}
}
