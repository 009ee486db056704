package conformance

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "fill the expected results of testdata/*.test from SQLite")

const knownFailuresPath = "testdata/ladybug_known_failures.txt"

// regenerate reports whether the known-failure list and the differential
// baseline are being rewritten from the current engine.
func regenerate() bool { return os.Getenv("LADYBUG_CONFORMANCE_UPDATE") == "1" }

// tally counts ladybug's results across files, which run in parallel.
type tally struct {
	mu                         sync.Mutex
	pass, fail, fixed, regress int
	oracle                     int
	failures                   KnownFailures
}

func (t *tally) add(key string, err error, known bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case err == nil && known:
		t.pass++
		t.fixed++
	case err == nil:
		t.pass++
	case known:
		t.fail++
		t.failures[key] = FirstLine(err)
	default:
		t.fail++
		t.regress++
		t.failures[key] = FirstLine(err)
	}
}

func TestSLT_Files_MatchOracleAndKnownFailures(t *testing.T) {
	files, err := filepath.Glob("testdata/*.test")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	known, err := LoadKnownFailures(knownFailuresPath)
	require.NoError(t, err)
	tl := &tally{failures: KnownFailures{}}
	t.Run("files", func(t *testing.T) {
		for _, path := range files {
			t.Run(filepath.Base(path), func(t *testing.T) {
				t.Parallel()
				runFile(t, path, known, tl)
			})
		}
	})
	t.Logf("ladybug: %d of %d records pass, %d fail (%d regressions, %d listed failures now pass)",
		tl.pass, tl.pass+tl.fail, tl.fail, tl.regress, tl.fixed)
	if regenerate() && !*update && !t.Failed() {
		require.NoError(t, tl.failures.Save(knownFailuresPath))
		t.Logf("wrote %s with %d entries", knownFailuresPath, len(tl.failures))
	}
}

// runFile runs one .test file against fresh databases of both engines, one
// subtest per record.
func runFile(t *testing.T, path string, known KnownFailures, tl *tally) {
	f, err := ParseFile(path)
	require.NoError(t, err)
	oracle := OpenTarget(EngineSQLite)
	defer oracle.Close()
	var lb *Target
	if !*update {
		lb = OpenTarget(EngineLadybug)
		defer lb.Close()
	}
	rw := NewRewriter(f)
	threshold := DefaultHashThreshold
	for _, rec := range f.Records {
		if rec.Kind == KindHalt {
			break
		}
		if rec.Kind == KindHashThreshold {
			threshold = rec.Threshold
			continue
		}
		t.Run(strconv.Itoa(rec.Line), func(t *testing.T) {
			if rec.AppliesTo(EngineSQLite) {
				checkOracle(t, oracle, rec, rw, threshold)
			}
			if lb != nil && rec.AppliesTo(EngineLadybug) {
				checkLadybug(t, lb, rec, known, tl)
			}
		})
	}
	if *update {
		require.NoError(t, rw.Write())
	}
}

func checkOracle(t *testing.T, oracle *Target, rec *Record, rw *Rewriter, threshold int) {
	o := Run(oracle, rec)
	if *update && rec.Kind == KindQuery && o.Err == nil {
		rw.SetResult(rec, o, threshold)
		return
	}
	if err := Check(rec, o); err != nil {
		t.Errorf("%s: sqlite (oracle): %v\nSQL: %s", rec.Key(), err, rec.SQL)
	}
}

func checkLadybug(t *testing.T, lb *Target, rec *Record, known KnownFailures, tl *tally) {
	err := Check(rec, Run(lb, rec))
	_, isKnown := known[rec.Key()]
	tl.add(rec.Key(), err, isKnown)
	switch {
	case err != nil && !isKnown && !regenerate():
		t.Errorf("%s: ladybug regression (not in %s): %v\nSQL: %s", rec.Key(), knownFailuresPath, err, rec.SQL)
	case err == nil && isKnown:
		t.Logf("%s: ladybug now passes; shrink %s with LADYBUG_CONFORMANCE_UPDATE=1", rec.Key(), knownFailuresPath)
	}
}
