package conformance

import (
	"os"
	"strconv"
	"testing"
	"time"
)

// joinShortSeed and joinShortN make the join generator's run in the normal
// suite, skipping queries SQLite takes over joinShortOracle for;
// LADYBUG_STRESS=1 runs LADYBUG_JOIN_N (default 10000) queries from
// LADYBUG_JOIN_SEED (default: the clock) instead, up to joinOracleLimit;
// LADYBUG_JOIN_FROM=i checks only the queries from index i on (with
// LADYBUG_JOIN_N=i+1, the one query a failure's index names).
const (
	joinShortSeed   = 24
	joinShortN      = 200
	joinShortOracle = 250 * time.Millisecond
)

// TestJoinGen_Run_MatchesOracleAndIsNotSlow runs random multi-way joins on
// ladybug and SQLite: every answer must match, and (without the race
// detector) no query may take ladybug over 10× SQLite's CPU time and over
// 50 ms of CPU. Times are the process's CPU time around each query (the
// engines run one at a time and compute on the calling goroutine only), so
// a loaded machine does not make a query slow; a suspect runs three more
// times on each engine after a forced GC and the least times count (see
// joinSlowFactor in joinrun.go). Clock times are logged as well, with the
// count of queries slow by the clock. Each failure is logged shrunk, as a
// script that reproduces it.
func TestJoinGen_Run_MatchesOracleAndIsNotSlow(t *testing.T) {
	seed, n := uint64(joinShortSeed), joinShortN
	jr := &JoinRunner{PerDB: 25, Keep: 3, NoTiming: raceEnabled, OracleLimit: joinShortOracle, ShrinkTime: 20 * time.Second}
	if raceEnabled {
		// The race detector slows both engines about tenfold.
		n /= 4
		jr.OracleLimit *= 10
	}
	if os.Getenv("LADYBUG_STRESS") == "1" {
		jr.OracleLimit, jr.ShrinkTime = 0, 0
		seed, n = uint64(time.Now().UnixNano()), 10000
		if v, err := strconv.ParseUint(os.Getenv("LADYBUG_JOIN_SEED"), 10, 64); err == nil {
			seed = v
		}
		if v, err := strconv.Atoi(os.Getenv("LADYBUG_JOIN_N")); err == nil {
			n = v
		}
		if v, err := strconv.Atoi(os.Getenv("LADYBUG_JOIN_FROM")); err == nil {
			jr.From = v
		}
	}
	st, err := jr.Run(seed, n)
	if err != nil {
		t.Fatal(err)
	}
	ratio := func(a, b time.Duration) float64 { return float64(a) / float64(max(b, 1)) }
	t.Logf("seed %d: %d queries compared (%d SQLite errors), %d skipped; %d mismatches, %d slow by CPU time, %d slow by clock time; "+
		"CPU time ladybug %v, SQLite %v (%.2f×); clock time ladybug %v, SQLite %v (%.2f×); worst CPU ratio %.1f× on %s",
		seed, st.Queries, st.OracleErrs, st.Skipped, st.Mismatches, st.Slow, st.SlowWall,
		st.Ladybug.Round(time.Millisecond), st.SQLite.Round(time.Millisecond), ratio(st.Ladybug, st.SQLite),
		st.LadybugWall.Round(time.Millisecond), st.SQLiteWall.Round(time.Millisecond), ratio(st.LadybugWall, st.SQLiteWall),
		st.Worst, st.WorstSQL)
	if len(st.FailedAt) > 0 {
		t.Logf("failing queries (by index): %v", st.FailedAt)
	}
	for _, f := range st.Failures {
		t.Errorf("%s", f.Repro())
	}
	if st.Skipped*5 > n {
		t.Errorf("%d of %d queries skipped: the generator makes too many huge joins", st.Skipped, n)
	}
}
